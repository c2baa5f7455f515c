/**
 * Loaders of every ingest kind: the canonical kinds of layouts.ts and the vendor layouts of
 * vendors.ts. Each file loads in one transaction (all of its rows or none), idempotently (a file
 * already loaded, by checksum, is a no-op; rows are keyed so a reload leaves the same rows), and a
 * bad record is rejected with its line and reason while the rest load.
 */
import { CalendarRangeError } from '../analytics/calendar.js';
import type { Database, Queryable } from '../db/connection.js';
import {
  ensureContracts,
  ensureOptionRoots,
  ensurePartition,
  findIngestedFile,
  recordIngestedFile,
  upsertOpenInterest,
  upsertQuoteSamples,
  upsertUnderlyingBars,
  type BarRow,
  type ContractSpec,
  type QuoteSampleRow,
} from '../db/market-data.js';
import type { OptionRoot } from '../analytics/roots.js';
import { parseBarFields, parseContractFields, parseOpenInterestFields, parseQuoteFields, type ContractRef } from './canonical.js';
import type { IngestKind } from './layouts.js';
import { PrintSessionResolver } from './print-session.js';
import { loadPrintsFile } from './prints.js';
import { checkLoadCounts } from './load-counts.js';
import { alreadyLoadedResult, canonicalRecords, emptyResult, fileChecksum, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import { loadSplitsFile } from './splits.js';
import { isVendorKind, VENDOR_ADAPTERS, type VendorAdapter, type VendorKind } from './vendors.js';

export type LoadKind = IngestKind | VendorKind;

export const LOAD_KINDS: readonly LoadKind[] = ['contracts', 'prints', 'quotes', 'underlying_bars', 'open_interest', 'splits', ...(Object.keys(VENDOR_ADAPTERS) as VendorKind[])];

export function isLoadKind(kind: string): kind is LoadKind {
  return (LOAD_KINDS as readonly string[]).includes(kind);
}

function contractSpec(c: ContractRef, root: OptionRoot, underlying?: string | null, multiplier?: number | null): ContractSpec {
  return {
    symbol: c.symbol,
    root: c.root,
    underlying: underlying ?? root.underlying,
    dateOfExpiry: c.dateOfExpiry,
    type: c.type,
    strikeThousandths: c.strikeThousandths,
    multiplier: multiplier ?? root.multiplier,
  };
}

/**
 * Runs a load unless the ledger has the file; checks its counts (load-counts.ts) and records it
 * after the write, in the same transaction.
 */
async function ledgered(
  db: Database,
  file: string,
  kind: LoadKind,
  options: LoadOptions,
  run: (result: MarketLoadResult) => Promise<(trx: Queryable) => Promise<void>>,
): Promise<MarketLoadResult> {
  const result = emptyResult(file, kind);
  const checksum = await fileChecksum(file);
  if (!options.force) {
    const before = await findIngestedFile(db, checksum, kind);
    if (before !== null) return alreadyLoadedResult(file, kind, before.read);
  }
  const write = await run(result);
  await db.transaction().execute(async (trx) => {
    await write(trx);
    checkLoadCounts(result);
    await recordIngestedFile(trx, { checksum, kind, fileName: file, read: result.read, loaded: result.loaded, rejected: result.rejected.length, duplicates: result.duplicates });
  });
  return result;
}

export async function loadContractsFile(db: Database, file: string, options: LoadOptions & { adapter?: VendorAdapter | null } = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'contracts', options, async (result) => {
    const specs = new Map<string, ContractSpec>();
    const roots = new Map<string, OptionRoot>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseContractFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const root = rootInfo(parsed.contract.root);
      roots.set(root.root, root);
      if (specs.has(parsed.contract.symbol)) result.duplicates += 1;
      specs.set(parsed.contract.symbol, contractSpec(parsed.contract, root, parsed.underlying, parsed.multiplier));
    }
    return async (trx) => {
      await ensureOptionRoots(trx, [...roots.values()]);
      result.loaded = (await ensureContracts(trx, [...specs.values()], { overwrite: true })).size;
    };
  });
}

export async function loadQuotesFile(db: Database, file: string, options: LoadOptions & { adapter?: VendorAdapter | null } = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  const resolver = new PrintSessionResolver();
  return await ledgered(db, file, adapter?.kind ?? 'quotes', options, async (result) => {
    // The minute's last update per contract: the one-minute NBBO sample.
    const samples = new Map<string, { contract: ContractRef; tradingDate: string; sample: Omit<QuoteSampleRow, 'contractId' | 'tradingDate'> }>();
    const specs = new Map<string, ContractSpec>();
    const roots = new Map<string, OptionRoot>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseQuoteFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const root = rootInfo(parsed.contract.root);
      let tradingDate: string;
      try {
        tradingDate = resolver.place(parsed.timestamp, root).tradingDate;
      } catch (error) {
        if (error instanceof CalendarRangeError) {
          result.rejected.push({ line, reason: `timestamp ${parsed.timestamp} is outside the market calendar` });
          continue;
        }
        throw error;
      }
      roots.set(root.root, root);
      if (!specs.has(parsed.contract.symbol)) specs.set(parsed.contract.symbol, contractSpec(parsed.contract, root));
      const minute = Math.floor(parsed.timestamp / 60_000) * 60_000;
      const key = `${parsed.contract.symbol}|${minute}`;
      const held = samples.get(key);
      if (held !== undefined && held.sample.quoteTs === parsed.timestamp && held.sample.bid === parsed.bid && held.sample.ask === parsed.ask) {
        result.duplicates += 1;
        continue;
      }
      // Of two updates of a minute one is kept: the one held, or this one when it is not older.
      if (held !== undefined) result.superseded += 1;
      if (held === undefined || parsed.timestamp >= held.sample.quoteTs) {
        samples.set(key, {
          contract: parsed.contract,
          tradingDate,
          sample: { minute, bid: parsed.bid, ask: parsed.ask, bidSize: parsed.bidSize, askSize: parsed.askSize, quoteTs: parsed.timestamp },
        });
      }
    }
    const dates = new Set([...samples.values()].map((s) => s.tradingDate));
    for (const date of dates) await ensurePartition(db, 'quote_samples', date);
    return async (trx) => {
      await ensureOptionRoots(trx, [...roots.values()]);
      const contracts = await ensureContracts(trx, [...specs.values()]);
      const rows: QuoteSampleRow[] = [];
      for (const s of samples.values()) {
        const id = contracts.get(s.contract.symbol)?.id;
        if (id !== undefined) rows.push({ ...s.sample, contractId: id, tradingDate: s.tradingDate });
      }
      result.loaded = await upsertQuoteSamples(trx, rows);
      // A sample the store holds from a later update of the minute is kept (upsertQuoteSamples).
      result.superseded += rows.length - result.loaded;
    };
  });
}

export async function loadUnderlyingBarsFile(db: Database, file: string, options: LoadOptions & { adapter?: VendorAdapter | null } = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'underlying_bars', options, async (result) => {
    const bars = new Map<string, BarRow>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseBarFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const key = `${parsed.symbol}|${parsed.timestamp}`;
      if (bars.has(key)) result.duplicates += 1;
      bars.set(key, { symbol: parsed.symbol, ts: parsed.timestamp, open: parsed.open, high: parsed.high, low: parsed.low, close: parsed.close, volume: parsed.volume });
    }
    return async (trx) => {
      result.loaded = await upsertUnderlyingBars(trx, [...bars.values()]);
    };
  });
}

export async function loadOpenInterestFile(db: Database, file: string, options: LoadOptions & { adapter?: VendorAdapter | null } = {}): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  return await ledgered(db, file, adapter?.kind ?? 'open_interest', options, async (result) => {
    const figures = new Map<string, { symbol: string; date: string; openInterest: number }>();
    const specs = new Map<string, ContractSpec>();
    const roots = new Map<string, OptionRoot>();
    for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
      const parsed = parseOpenInterestFields(fields);
      if (typeof parsed === 'string') {
        result.rejected.push({ line, reason: parsed });
        continue;
      }
      const root = rootInfo(parsed.contract.root);
      roots.set(root.root, root);
      if (!specs.has(parsed.contract.symbol)) specs.set(parsed.contract.symbol, contractSpec(parsed.contract, root));
      const key = `${parsed.contract.symbol}|${parsed.date}`;
      if (figures.has(key)) result.duplicates += 1;
      figures.set(key, { symbol: parsed.contract.symbol, date: parsed.date, openInterest: parsed.openInterest });
    }
    return async (trx) => {
      await ensureOptionRoots(trx, [...roots.values()]);
      const contracts = await ensureContracts(trx, [...specs.values()]);
      const rows = [...figures.values()].flatMap((f) => {
        const id = contracts.get(f.symbol)?.id;
        return id === undefined ? [] : [{ contractId: id, date: f.date, openInterest: f.openInterest }];
      });
      result.loaded = await upsertOpenInterest(trx, rows);
    };
  });
}

/** Loads one file of any kind (canonical or vendor). */
export async function loadMarketFile(db: Database, kind: LoadKind, file: string, options: LoadOptions = {}): Promise<MarketLoadResult> {
  if (isVendorKind(kind)) {
    const adapter = VENDOR_ADAPTERS[kind];
    return await loadCanonical(db, adapter.canonical, file, { ...options, adapter });
  }
  return await loadCanonical(db, kind, file, options);
}

async function loadCanonical(db: Database, kind: IngestKind, file: string, options: LoadOptions & { adapter?: VendorAdapter | null }): Promise<MarketLoadResult> {
  switch (kind) {
    case 'contracts':
      return await loadContractsFile(db, file, options);
    case 'prints':
      return await loadPrintsFile(db, file, options);
    case 'quotes':
      return await loadQuotesFile(db, file, options);
    case 'underlying_bars':
      return await loadUnderlyingBarsFile(db, file, options);
    case 'open_interest':
      return await loadOpenInterestFile(db, file, options);
    case 'splits':
      return { ...emptyResult(file, 'splits'), ...(await loadSplitsFile(db, file)) };
  }
}
