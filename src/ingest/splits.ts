/**
 * Splits in the canonical layout: `symbol,execution_date,split_from,split_to` (CSV or NDJSON,
 * gzip accepted). split_from is the old share count of the ratio and split_to the new one: a
 * 2-for-1 split is 1,2 and a 1-for-10 reverse split is 10,1. A file loads in one transaction;
 * a bad row is rejected with its line and reason and the rest still load.
 */
import { calendarDay, CalendarRangeError } from '../analytics/calendar.js';
import type { Database } from '../db/connection.js';
import { upsertSplits, type SplitRow } from '../db/splits.js';
import { checkLoadCounts } from './load-counts.js';
import { readRecords, RecordError } from './records.js';
import { emptyResult, type Reject } from './source.js';

export interface LoadResult {
  read: number;
  loaded: number;
  rejected: Reject[];
  duplicates: number;
}

const SYMBOL = /^[A-Z]{1,6}(\.[A-Z0-9]{1,4})?$/;

/** Validates one record; returns the row or the reason it is rejected. */
export function parseSplitRecord(fields: Record<string, string>): SplitRow | string {
  const symbol = (fields.symbol ?? '').toUpperCase();
  if (!SYMBOL.test(symbol)) return `symbol "${fields.symbol ?? ''}" is not 1 to 6 letters with an optional .suffix`;
  const date = fields.execution_date ?? '';
  try {
    if (calendarDay(date).status === 'closed') return `execution_date ${date} is not a trading day`;
  } catch (error) {
    if (error instanceof CalendarRangeError) return `execution_date "${date}" is not a date from 2000-01-01 to 2035-12-31`;
    throw error;
  }
  const decimal = /^\d+(\.\d+)?$/;
  const from = decimal.test(fields.split_from ?? '') ? Number(fields.split_from) : NaN;
  const to = decimal.test(fields.split_to ?? '') ? Number(fields.split_to) : NaN;
  if (!(from > 0) || !Number.isFinite(from)) return `split_from "${fields.split_from ?? ''}" must be a positive number`;
  if (!(to > 0) || !Number.isFinite(to)) return `split_to "${fields.split_to ?? ''}" must be a positive number`;
  return { symbol, execution_date: date, split_from: from, split_to: to };
}

export async function loadSplitsFile(db: Database, file: string): Promise<LoadResult> {
  const rows = new Map<string, SplitRow>();
  const rejected: Reject[] = [];
  let read = 0;
  let duplicates = 0;
  for await (const record of readRecords(file)) {
    read += 1;
    if (record instanceof RecordError) {
      rejected.push({ line: record.line, reason: record.message });
      continue;
    }
    const parsed = parseSplitRecord(record.fields);
    if (typeof parsed === 'string') {
      rejected.push({ line: record.line, reason: parsed });
      continue;
    }
    const key = `${parsed.symbol}:${parsed.execution_date}`;
    if (rows.has(key)) duplicates += 1;
    rows.set(key, parsed);
  }
  return await db.transaction().execute(async (trx) => {
    const result = { read, loaded: await upsertSplits(trx, [...rows.values()]), rejected, duplicates };
    checkLoadCounts({ ...emptyResult(file, 'splits'), ...result });
    return result;
  });
}
