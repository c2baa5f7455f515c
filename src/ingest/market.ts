/**
 * Loaders of every ingest kind: the canonical kinds of layouts.ts and the vendor layouts of
 * vendors.ts (the futures kinds' loaders are in futures.ts). Each file loads in one transaction (all of its rows or none), idempotently (a file
 * already loaded, by checksum, is a no-op; rows are keyed so a reload leaves the same rows), and a
 * bad record is rejected with its line and reason while the rest load.
 */
import type { Database } from '../db/connection.js';
import { upsertOpenInterest } from '../db/open-interest.js';
import { ensureContracts, ensureOptionRoots, type ContractSpec } from '../db/option-contracts.js';
import { upsertUnderlyingBars, type BarRow } from '../db/underlying-bars.js';
import type { OptionRoot } from '../analytics/roots.js';
import { parseBarFields, parseContractFields, parseOpenInterestFields } from './canonical.js';
import type { IngestKind } from './layouts.js';
import { loadFuturesFile } from './futures.js';
import { ledgered } from './ledger.js';
import { loadPrintsFile } from './prints.js';
import { loadQuotesFile } from './quotes.js';
import { canonicalRecords, contractSpec, emptyResult, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import { loadSplitsFile } from './splits.js';
import { isVendorKind, VENDOR_ADAPTERS, type VendorAdapter, type VendorKind } from './vendors.js';

export type LoadKind = IngestKind | VendorKind;

export const LOAD_KINDS: readonly LoadKind[] = [
  'contracts',
  'prints',
  'quotes',
  'underlying_bars',
  'open_interest',
  'splits',
  'futures_definitions',
  'futures_trades',
  'futures_bars',
  'futures_statistics',
  ...(Object.keys(VENDOR_ADAPTERS) as VendorKind[]),
];

export function isLoadKind(kind: string): kind is LoadKind {
  return (LOAD_KINDS as readonly string[]).includes(kind);
}

export async function loadContractsFile(
  db: Database,
  file: string,
  options: LoadOptions & { adapter?: VendorAdapter | null } = {},
): Promise<MarketLoadResult> {
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

export async function loadUnderlyingBarsFile(
  db: Database,
  file: string,
  options: LoadOptions & { adapter?: VendorAdapter | null } = {},
): Promise<MarketLoadResult> {
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
      bars.set(key, {
        symbol: parsed.symbol,
        ts: parsed.timestamp,
        open: parsed.open,
        high: parsed.high,
        low: parsed.low,
        close: parsed.close,
        volume: parsed.volume,
      });
    }
    return async (trx) => {
      result.loaded = await upsertUnderlyingBars(trx, [...bars.values()]);
    };
  });
}

export async function loadOpenInterestFile(
  db: Database,
  file: string,
  options: LoadOptions & { adapter?: VendorAdapter | null } = {},
): Promise<MarketLoadResult> {
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

async function loadCanonical(
  db: Database,
  kind: IngestKind,
  file: string,
  options: LoadOptions & { adapter?: VendorAdapter | null },
): Promise<MarketLoadResult> {
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
    case 'futures_definitions':
    case 'futures_trades':
    case 'futures_bars':
    case 'futures_statistics':
      return await loadFuturesFile(db, kind, file, options);
  }
}
