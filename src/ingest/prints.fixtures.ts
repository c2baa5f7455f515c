/**
 * Fixtures of the prints pipeline's unit tests: PrintTables of prints given by the fields a test
 * cares about, the rest plain (an SPXW call at the open of 2026-11-20, a regular sale on ISE, no
 * quote), their contracts stored with ids in slot order; a classified print, and the served JSON
 * of a classified print in the contract's order as JSON.stringify writes it, the oracle of the
 * body writer.
 */
import type { ClassifiedPrintRecord, PrintContext } from '../analytics/classification.js';
import { contractRef, type CanonicalPrint } from './canonical.js';
import { PrintTable } from './print-table.js';
import { rootInfo } from './source.js';

/** 2026-11-20 09:30 ET. */
export const OPEN = 1795185000000;
export const SYMBOL = 'SPXW  261120C06600000';
/** A cancel record's condition code (OPRA "Canceled"). */
export const CANCEL_CONDITION = 201;

export interface PrintSpec extends Partial<Omit<CanonicalPrint, 'contract'>> {
  symbol?: string;
  /** Index of the print's trading date (0). */
  date?: number;
  session?: PrintContext['session'];
}

export function printTable(specs: readonly PrintSpec[]): PrintTable {
  const table = new PrintTable();
  specs.forEach(({ symbol, date, session, ...fields }, k) => {
    const contract = contractRef(symbol ?? SYMBOL);
    if (typeof contract === 'string') throw new Error(contract);
    const print: CanonicalPrint = {
      line: k + 2,
      contract,
      timestamp: OPEN + k,
      sequence: k + 1,
      price: 5.1,
      size: 1,
      exchangeCode: 308,
      conditionCode: 209,
      extendedConditions: [],
      aggressorSide: null,
      quote: null,
      ...fields,
    };
    table.push(print, rootInfo(contract.root), date ?? 0, session ?? 'rth');
  });
  return table;
}

/** Stores the table's contracts: slot s gets id `firstId + s`. */
export function storeContracts(table: PrintTable, firstId = 1): void {
  table.storeContracts(
    table.slots.map((s, k) => ({
      ...s,
      contract: { id: firstId + k, symbol: s.ref.symbol, underlying: s.root.underlying, multiplier: s.root.multiplier },
      settlementMs: 0,
      expiration: `${s.ref.root} ${s.ref.dateOfExpiry}`,
      dividendYield: 0,
    })),
  );
}

/** The fields of the contract's Print schema in its order (openapi/v1.yaml), written out as the test's own oracle. */
export const SPEC_ORDER = [
  'ask',
  'bid',
  'condition_code',
  'contract_type',
  'date_of_expiry',
  'day_volume',
  'days_to_expiry',
  'delta',
  'exchange',
  'exchange_code',
  'flags',
  'group_id',
  'id',
  'implied_volatility',
  'is_block',
  'is_golden',
  'is_unusual',
  'open_interest',
  'otm_percent',
  'premium',
  'price',
  'sentiment',
  'session',
  'side',
  'side_confidence',
  'size',
  'strike',
  'timestamp',
  'trade_type',
  'underlying_price',
  'underlying_symbol',
] as const;

export const RECORD: ClassifiedPrintRecord = {
  ask: 5.1,
  bid: 5,
  condition_code: 219,
  contract_type: 'call',
  date_of_expiry: '2026-11-20',
  day_volume: 32,
  days_to_expiry: 0,
  delta: 0.33492,
  exchange: 'ise',
  exchange_code: 308,
  flags: ['iso'],
  group_id: 'g:SPXW:2026-11-20:6600000:C:2026-11-20:1',
  id: 'SPXW:2026-11-20:6600000:C:2026-11-20:2',
  implied_volatility: 0.128522,
  is_block: false,
  is_golden: false,
  is_unusual: true,
  open_interest: null,
  otm_percent: -0.1517,
  premium: 10200,
  price: 5.1,
  sentiment: 'bullish',
  session: 'rth',
  side: 'at_ask',
  side_confidence: 1,
  size: 20,
  strike: 6600,
  timestamp: 1795185001010,
  trade_type: 'sweep',
  underlying_price: 6590,
  underlying_symbol: 'SPXW',
  cancelled: false,
  contract_key: 'SPXW:2026-11-20:6600000:C',
  trading_date: '2026-11-20',
  sequence: 2,
};

/** The served JSON of a record: its 31 fields in the specification order, as JSON.stringify writes them. */
export const served = (r: ClassifiedPrintRecord, order: readonly (keyof ClassifiedPrintRecord)[] = SPEC_ORDER): string =>
  JSON.stringify(Object.fromEntries(order.map((k) => [k, r[k]])));
