/**
 * Retention of the hot store: the last five completed sessions plus the current one (and any
 * later date, such as the next session's overnight prints) stay in PostgreSQL; an older session is
 * written to `<archive root>/<date>/` (ARCHIVE_DIR, by default DATA_DIR/archive) as gzip files in the canonical layouts (prints.csv.gz,
 * quotes.csv.gz, and futures_trades.csv.gz for the futures trades of that trade date: futures-archive.ts) and its partitions are dropped. Reloading goes through ingest like any other file,
 * so an archived session comes back classified by the same code (cancelled prints are written
 * followed by a cancel record; day volume between a print and its cancel then counts the print as
 * already cancelled, the one difference a reload can show). Underlying bars, open interest and
 * contracts are small and stay hot, as do the futures definitions, bars and statistics.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { completedSessions, currentOrLastSessionDate } from '../analytics/calendar.js';
import type { Database } from '../db/connection.js';
import {
  archiveSessionRows,
  findArchivedSession,
  hotDates,
  isDateHot,
  markSessionRestored,
  printsCsvForArchive,
  quotesCsvForArchive,
} from '../db/archive.js';
import { exportFuturesTrades, reloadFuturesTrades } from './futures-archive.js';
import { loadPrintsFile } from './prints.js';
import { loadQuotesFile } from './quotes.js';

/** Completed sessions kept hot, besides the current one. */
export const HOT_SESSIONS = 5;
/** A session loaded back on request stays hot this long before it may be archived again. */
export const RESTORED_GRACE_MS = 24 * 3_600_000;

const PRINT_HEADER =
  'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';
const QUOTE_HEADER = 'option_symbol,timestamp,bid,ask,bid_size,ask_size';
/** OPRA CANC, the cancel record written after an archived cancelled print. */
const CANCEL_CONDITION = 201;

export function archiveDirOf(archiveRoot: string, tradingDate: string): string {
  return path.join(archiveRoot, tradingDate);
}

async function writeGzipLines(file: string, lines: AsyncIterable<string | Buffer>): Promise<void> {
  const partial = `${file}.partial`;
  await pipeline(Readable.from(lines), createGzip(), fs.createWriteStream(partial));
  fs.renameSync(partial, file);
}

/** Writes a hot session's prints, quotes and futures trades to its archive folder. Returns the row counts. */
export async function exportSession(
  db: Database,
  tradingDate: string,
  dir: string,
): Promise<{ prints: number; quotes: number; futuresTrades: number }> {
  fs.mkdirSync(dir, { recursive: true });
  let prints = 0;
  let quotes = 0;
  await writeGzipLines(
    path.join(dir, 'prints.csv.gz'),
    (async function* () {
      yield `${PRINT_HEADER}\n`;
      prints = yield* printsCsvForArchive(db, tradingDate, CANCEL_CONDITION);
    })(),
  );
  await writeGzipLines(
    path.join(dir, 'quotes.csv.gz'),
    (async function* () {
      yield `${QUOTE_HEADER}\n`;
      quotes = yield* quotesCsvForArchive(db, tradingDate);
    })(),
  );
  const futuresTrades = await exportFuturesTrades(db, tradingDate, dir);
  return { prints, quotes, futuresTrades };
}

/** Exports a session and drops it from the hot store (files first, then one transaction). */
export async function archiveSession(
  db: Database,
  archiveRoot: string,
  tradingDate: string,
): Promise<{ prints: number; quotes: number; futuresTrades: number; dir: string }> {
  const dir = archiveDirOf(archiveRoot, tradingDate);
  const counts = await exportSession(db, tradingDate, dir);
  await db.transaction().execute(async (trx) => {
    await archiveSessionRows(trx, { tradingDate, archiveDir: dir, prints: counts.prints, quotes: counts.quotes });
  });
  return { ...counts, dir };
}

/** Dates the hot store keeps at `now`: the last HOT_SESSIONS completed sessions and the current one. */
export function sessionsToKeep(now: number): string[] {
  const keep = new Set(completedSessions(now, HOT_SESSIONS));
  keep.add(currentOrLastSessionDate(now));
  return [...keep].sort();
}

/**
 * Archives every hot session older than the kept ones, except sessions loaded back on request in
 * the last RESTORED_GRACE_MS. Returns the dates archived.
 */
export async function enforceRetention(
  db: Database,
  options: { archiveRoot: string; now: number; log?: (line: string) => void },
): Promise<string[]> {
  const keep = sessionsToKeep(options.now);
  const oldestKept = keep[0] ?? '';
  const archived: string[] = [];
  for (const date of await hotDates(db)) {
    if (date >= oldestKept) continue;
    const before = await findArchivedSession(db, date);
    if (before?.restoredAt && options.now - before.restoredAt.getTime() < RESTORED_GRACE_MS) continue;
    const counts = await archiveSession(db, options.archiveRoot, date);
    options.log?.(
      `archived ${date}: ${counts.prints} prints, ${counts.quotes} quote samples, ${counts.futuresTrades} futures trades → ${counts.dir}`,
    );
    archived.push(date);
  }
  return archived;
}

/**
 * Loads an archived session back through ingest (quotes, then prints). Idempotent: a session
 * already hot is left alone, and a load repeated after a failure leaves the same rows.
 */
export async function reloadSession(
  db: Database,
  tradingDate: string,
  options: { now: number; log?: (line: string) => void },
): Promise<'loaded' | 'already_hot' | 'not_archived'> {
  const archived = await findArchivedSession(db, tradingDate);
  if (archived === null) return (await isDateHot(db, tradingDate)) ? 'already_hot' : 'not_archived';
  if (archived.restoredAt !== null && (await isDateHot(db, tradingDate))) return 'already_hot';
  const quotes = path.join(archived.archiveDir, 'quotes.csv.gz');
  const prints = path.join(archived.archiveDir, 'prints.csv.gz');
  if (fs.existsSync(quotes)) await loadQuotesFile(db, quotes, { force: true, log: options.log });
  await loadPrintsFile(db, prints, { force: true, log: options.log });
  await reloadFuturesTrades(db, archived.archiveDir, options.log);
  await markSessionRestored(db, tradingDate, new Date(options.now));
  return 'loaded';
}
