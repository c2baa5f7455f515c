/**
 * Loaders of the futures layouts (futures-layouts.ts) and of the vendor layouts mapped onto them
 * (futures-vendors.ts), on the path every load takes (ledger.ts): a file loads in one transaction,
 * all of its rows or none; a file loaded before (same checksum and kind) is a no-op; a bad record is
 * rejected with its line and reason while the rest load; every record read is counted in exactly
 * one outcome.
 *
 * A trade, bar or statistic names its contract by symbol; the symbol is resolved in the load's
 * transaction to the stored definition listed then (db/futures-contracts.ts contractAt), and a
 * record whose symbol has none is rejected naming it: definitions load first.
 *
 * Outcomes: definitions and bars count the rows written (a repeat of a key in the file, the later
 * kept, is a duplicate); trades count the trades written, a trade the store holds (same trade date,
 * contract, sequence and match) being a duplicate; statistics count as loaded each record that
 * gives its contract and date a figure (settlement, open interest, cleared volume), and as
 * superseded a record all of whose figures give way: to a later record of the file, or, for a
 * settlement, to the one stored (a final one never gives way to a preliminary one).
 */
import type { Database } from '../db/connection.js';
import { futuresContractsOf, contractAt, upsertFuturesContracts, type FuturesContractRow } from '../db/futures-contracts.js';
import { upsertFuturesBars, type FuturesBarRow } from '../db/futures-bars.js';
import { storedSettlements, upsertFuturesStatistics, type FuturesStatisticRow } from '../db/futures-statistics.js';
import { openCopySession } from '../db/bulk-copy.js';
import { notifyFuturesTradesLoaded } from '../db/futures-trade-events.js';
import { copyFuturesTradesOfNewDate, futuresTradeDates, insertFuturesTrades, type FuturesTradeRow } from '../db/futures-trades.js';
import {
  parseFuturesBarFields,
  parseFuturesDefinitionFields,
  parseFuturesStatisticFields,
  parseFuturesTradeFields,
  settlementReplaces,
  type FuturesBarRecord,
  type FuturesStatisticRecord,
  type FuturesTradeRecord,
} from './futures-canonical.js';
import type { FuturesKind } from './futures-layouts.js';
import { ledgered } from './ledger.js';
import { canonicalRecords, type LoadOptions, type MarketLoadResult } from './source.js';
import type { VendorAdapter } from './vendors.js';

type Options = LoadOptions & { adapter?: VendorAdapter | null };

const DAY_MS = 86_400_000;

function noDefinition(symbol: string, at: number): string {
  return `symbol ${symbol} has no stored definition listed at ${new Date(at).toISOString()}: load its definitions first`;
}

export async function loadFuturesDefinitionsFile(db: Database, file: string, options: Options = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'futures_definitions', options, async (result) => {
    const rows = new Map<string, FuturesContractRow>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseFuturesDefinitionFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const key = `${parsed.symbol}|${parsed.contractMonth}`;
      if (rows.has(key)) result.duplicates += 1;
      rows.set(key, parsed);
    }
    return async (trx) => {
      result.loaded = await upsertFuturesContracts(trx, [...rows.values()]);
    };
  });
}

export async function loadFuturesTradesFile(db: Database, file: string, options: Options = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  // The load's transaction runs on the COPY session's connection, so that a new date's COPY is in it.
  const session = await openCopySession(db);
  try {
    return await ledgered(session.db, file, adapter?.kind ?? 'futures_trades', options, async (result) => {
      const trades: { line: number; record: FuturesTradeRecord }[] = [];
      for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
        const parsed = parseFuturesTradeFields(fields);
        if (typeof parsed === 'string') result.rejected.push({ line, reason: parsed });
        else trades.push({ line, record: parsed });
      }
      return async (trx) => {
        const contracts = await futuresContractsOf(
          trx,
          trades.map((t) => t.record.symbol),
        );
        const byDate = new Map<string, FuturesTradeRow[]>();
        const matches = new Map<string, number>();
        for (const { line, record } of trades) {
          const contract = contractAt(contracts.get(record.symbol), record.ts);
          if (contract === null) {
            result.rejected.push({ line, reason: noDefinition(record.symbol, record.ts) });
            continue;
          }
          // The trades of one contract and sequence (a match event's price levels), numbered in file order.
          const key = `${contract.id}|${record.tradeDate}|${record.sequence}`;
          const match = matches.get(key) ?? 0;
          matches.set(key, match + 1);
          let rows = byDate.get(record.tradeDate);
          if (rows === undefined) byDate.set(record.tradeDate, (rows = []));
          rows.push({
            tradeDate: record.tradeDate,
            contractId: contract.id,
            sequence: record.sequence,
            match,
            root: contract.root,
            ts: record.ts,
            price: record.price,
            size: record.size,
            aggressorSide: record.aggressorSide,
          });
        }
        // A new date by COPY into a table made its partition; a date that has one by insert, a trade
        // already stored (same key) left as stored and counted a duplicate.
        const existing = new Set(await futuresTradeDates(trx));
        const announced: { tradeDate: string; from: number; to: number; rows: number }[] = [];
        for (const [date, rows] of byDate) {
          const written = existing.has(date)
            ? await insertFuturesTrades(trx, rows)
            : await copyFuturesTradesOfNewDate(session, trx, date, rows);
          result.loaded += written;
          result.duplicates += rows.length - written;
          let from = Infinity;
          let to = -Infinity;
          for (const r of rows) {
            if (r.ts < from) from = r.ts;
            if (r.ts > to) to = r.ts;
          }
          announced.push({ tradeDate: date, from, to, rows: written });
        }
        // The futures_trades stream channel learns of the written trades at the commit (db/futures-trade-events.ts).
        await notifyFuturesTradesLoaded(trx, announced);
      };
    });
  } finally {
    await session.close();
  }
}

export async function loadFuturesBarsFile(db: Database, file: string, options: Options = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'futures_bars', options, async (result) => {
    const bars = new Map<string, { line: number; record: FuturesBarRecord }>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseFuturesBarFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const key = `${parsed.symbol}|${parsed.ts}`;
      if (bars.has(key)) result.duplicates += 1;
      bars.set(key, { line, record: parsed });
    }
    return async (trx) => {
      const contracts = await futuresContractsOf(
        trx,
        [...bars.values()].map((b) => b.record.symbol),
      );
      const rows: FuturesBarRow[] = [];
      for (const { line, record } of bars.values()) {
        const contract = contractAt(contracts.get(record.symbol), record.ts);
        if (contract === null) result.rejected.push({ line, reason: noDefinition(record.symbol, record.ts) });
        else rows.push({ contractId: contract.id, ...record });
      }
      result.loaded = await upsertFuturesBars(trx, rows);
    };
  });
}

/** The figures of one contract and trade date merged from a file's records, with the line giving each. */
interface MergedStatistic {
  symbol: string;
  tradeDate: string;
  settlement: { price: number; final: boolean; ts: number | null; line: number } | null;
  openInterest: { value: number; line: number } | null;
  clearedVolume: { value: number; line: number } | null;
  lines: number[];
}

export async function loadFuturesStatisticsFile(db: Database, file: string, options: Options = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'futures_statistics', options, async (result) => {
    const merged = new Map<string, MergedStatistic>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseFuturesStatisticFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      mergeStatistic(merged, parsed, line);
    }
    return async (trx) => {
      const contracts = await futuresContractsOf(
        trx,
        [...merged.values()].map((m) => m.symbol),
      );
      const resolved: { m: MergedStatistic; contractId: number; root: string }[] = [];
      for (const m of merged.values()) {
        const dayStart = Date.parse(`${m.tradeDate}T00:00:00Z`);
        const contract = contractAt(contracts.get(m.symbol), dayStart + DAY_MS - 1);
        if (contract === null) for (const line of m.lines) result.rejected.push({ line, reason: noDefinition(m.symbol, dayStart) });
        else resolved.push({ m, contractId: contract.id, root: contract.root });
      }
      // Only the figures that win are written: a settlement that gives way to the stored one is left
      // out (the upsert's own rule would keep the stored one too), and a row with nothing left is not
      // written, so that it adds nothing to the change log.
      const held = await storedSettlements(
        trx,
        resolved.map((r) => ({ contractId: r.contractId, tradeDate: r.m.tradeDate })),
      );
      const rows: FuturesStatisticRow[] = [];
      const winners = new Set<number>();
      for (const { m, contractId, root } of resolved) {
        const stored = held.get(`${contractId}|${m.tradeDate}`) ?? null;
        const settlement = m.settlement !== null && settlementReplaces(m.settlement, stored) ? m.settlement : null;
        if (settlement !== null) winners.add(settlement.line);
        if (m.openInterest !== null) winners.add(m.openInterest.line);
        if (m.clearedVolume !== null) winners.add(m.clearedVolume.line);
        for (const line of m.lines) if (!winners.has(line)) result.superseded += 1;
        if (settlement === null && m.openInterest === null && m.clearedVolume === null) continue;
        rows.push({
          contractId,
          tradeDate: m.tradeDate,
          root,
          settlement,
          openInterest: m.openInterest?.value ?? null,
          clearedVolume: m.clearedVolume?.value ?? null,
        });
      }
      await upsertFuturesStatistics(trx, rows);
      result.loaded = winners.size;
    };
  });
}

/** Adds a record's figures to the merge of its contract and date: settlements by settlementReplaces(), the others the later. */
function mergeStatistic(merged: Map<string, MergedStatistic>, record: FuturesStatisticRecord, line: number): void {
  const key = `${record.symbol}|${record.tradeDate}`;
  let m = merged.get(key);
  if (m === undefined) {
    m = { symbol: record.symbol, tradeDate: record.tradeDate, settlement: null, openInterest: null, clearedVolume: null, lines: [] };
    merged.set(key, m);
  }
  m.lines.push(line);
  if (record.settlement !== null) {
    const next = { ...record.settlement, ts: record.ts, line };
    if (settlementReplaces(next, m.settlement)) m.settlement = next;
  }
  if (record.openInterest !== null) m.openInterest = { value: record.openInterest, line };
  if (record.clearedVolume !== null) m.clearedVolume = { value: record.clearedVolume, line };
}

/** Loads a file of a futures kind. */
export async function loadFuturesFile(db: Database, kind: FuturesKind, file: string, options: Options): Promise<MarketLoadResult> {
  switch (kind) {
    case 'futures_definitions':
      return await loadFuturesDefinitionsFile(db, file, options);
    case 'futures_trades':
      return await loadFuturesTradesFile(db, file, options);
    case 'futures_bars':
      return await loadFuturesBarsFile(db, file, options);
    case 'futures_statistics':
      return await loadFuturesStatisticsFile(db, file, options);
  }
}
