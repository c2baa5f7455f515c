/**
 * Validation of records in the canonical futures layouts (futures-layouts.ts) into typed rows. Each
 * parser returns the row or the reason the record is rejected; nothing here throws on bad input.
 */
import { addDays, dayOfWeek, newYorkDate } from '../analytics/new-york-time.js';
import { globexTradeDateAt } from '../analytics/futures/globex-calendar.js';
import { MONTH_CODES } from '../analytics/futures/products.js';
import { parseTimestampMs } from './canonical.js';

/** A futures symbol: root, month code, one or two digits of the year. */
const FUTURES_SYMBOL = new RegExp(`^([A-Z0-9]{1,6}?)([${MONTH_CODES}])(\\d{1,2})$`);
const ROOT = /^[A-Z0-9]{1,6}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const INTEGER = /^-?\d+$/;
const CURRENCY = /^[A-Z]{3}$/;
const HOUR_MS = 3_600_000;

export interface FuturesSymbol {
  symbol: string;
  root: string;
  /** 1..12. */
  month: number;
  /** The year digits the symbol carries ('6' or '26'). */
  yearDigits: string;
}

export function parseFuturesSymbol(value: string | undefined): FuturesSymbol | string {
  const symbol = (value ?? '').trim().toUpperCase();
  const m = FUTURES_SYMBOL.exec(symbol);
  if (m === null || m[1] === '') return `symbol "${value ?? ''}" is not a futures symbol (root, month code, year digits: ESZ6)`;
  return { symbol, root: m[1]!, month: MONTH_CODES.indexOf(m[2]!) + 1, yearDigits: m[3]! };
}

/**
 * The CME trade date of an instant, by the Globex calendar (analytics/futures/globex-calendar.ts:
 * the day opens at 18:00 ET the evening before, Sunday evening's trading belongs to Monday, CME's
 * holidays and early halts as it lists them; an instant in a halt or a closure belongs to the next
 * trade date). Past the calendar's years, the date of the Globex day by the weekly rule alone (the
 * New York date six hours later, a weekend moved to the Monday). A file that knows a different trade
 * date gives it in the trade_date column.
 */
export function globexTradeDate(ms: number): string {
  // Every window of the calendar opens and ends on a whole minute: one calendar lookup a minute (a
  // file repeats minutes) instead of one a record.
  const minute = Math.floor(ms / MINUTE_MS);
  let date = tradeDateOfMinute.get(minute);
  if (date === undefined) {
    date = globexTradeDateAt(minute * MINUTE_MS)?.trade_date ?? weeklyTradeDate(minute * MINUTE_MS);
    if (tradeDateOfMinute.size > 100_000) tradeDateOfMinute.clear();
    tradeDateOfMinute.set(minute, date);
  }
  return date;
}

const MINUTE_MS = 60_000;
const tradeDateOfMinute = new Map<number, string>();

/** The Globex day's date by the weekly rule alone (no holidays): the New York date six hours later, a weekend moved to the Monday. */
function weeklyTradeDate(ms: number): string {
  const date = newYorkDate(ms + 6 * HOUR_MS);
  const day = dayOfWeek(date);
  return day === 6 ? addDays(date, 2) : day === 0 ? addDays(date, 1) : date;
}

/** A YYYY-MM-DD date that is a real date, Monday to Friday; '' when it is, else the reason. */
function checkTradeDate(name: string, value: string | undefined): string {
  const date = value ?? '';
  if (
    !DATE.test(date) ||
    Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
    new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
  )
    return `${name} "${date}" is not a date (YYYY-MM-DD)`;
  if (date < '2000-01-01' || date >= '2100-01-01') return `${name} ${date} is not within 2000..2099`;
  const day = dayOfWeek(date);
  if (day === 0 || day === 6) return `${name} ${date} is a weekend day, never a trade date`;
  return '';
}

function finite(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function integerIn(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || !INTEGER.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : null;
}

const present = (value: string | undefined): value is string => value !== undefined && value !== '';

export interface FuturesDefinitionRow {
  symbol: string;
  root: string;
  /** YYYY-MM. */
  contractMonth: string;
  expiration: number;
  tickSize: number;
  multiplier: number;
  currency: string;
  instrumentId: number | null;
}

export function parseFuturesDefinitionFields(fields: Record<string, string>): FuturesDefinitionRow | string {
  const parsed = parseFuturesSymbol(fields.symbol);
  if (typeof parsed === 'string') return parsed;
  let root = parsed.root;
  if (present(fields.root)) {
    root = fields.root.toUpperCase();
    if (!ROOT.test(root)) return `root "${fields.root}" is not 1 to 6 letters or digits`;
    if (!parsed.symbol.startsWith(root)) return `root ${root} is not the start of symbol ${parsed.symbol}`;
  }
  const month = MONTH.exec(fields.contract_month ?? '');
  if (month === null) return `contract_month "${fields.contract_month ?? ''}" is not YYYY-MM`;
  if (Number(month[2]) !== parsed.month || !month[1]!.endsWith(parsed.yearDigits))
    return `contract_month ${fields.contract_month ?? ''} is not the month symbol ${parsed.symbol} names`;
  const expiration = parseTimestampMs(fields.expiration);
  if (expiration === null) return `expiration "${fields.expiration ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  const tickSize = finite(fields.tick_size);
  if (tickSize === null || !(tickSize > 0)) return `tick_size "${fields.tick_size ?? ''}" must be a positive number`;
  const multiplier = finite(fields.multiplier);
  if (multiplier === null || !(multiplier > 0)) return `multiplier "${fields.multiplier ?? ''}" must be a positive number`;
  let currency = 'USD';
  if (present(fields.currency)) {
    currency = fields.currency.toUpperCase();
    if (!CURRENCY.test(currency)) return `currency "${fields.currency}" is not a three-letter ISO 4217 code`;
  }
  let instrumentId: number | null = null;
  if (present(fields.instrument_id)) {
    instrumentId = integerIn(fields.instrument_id, 0, Number.MAX_SAFE_INTEGER);
    if (instrumentId === null) return `instrument_id "${fields.instrument_id}" is not a non-negative integer`;
  }
  return { symbol: parsed.symbol, root, contractMonth: fields.contract_month!, expiration, tickSize, multiplier, currency, instrumentId };
}

export interface FuturesTradeRecord {
  symbol: string;
  ts: number;
  sequence: number;
  price: number;
  size: number;
  aggressorSide: 'buy' | 'sell' | null;
  tradeDate: string;
}

export function parseFuturesTradeFields(fields: Record<string, string>): FuturesTradeRecord | string {
  const parsed = parseFuturesSymbol(fields.symbol);
  if (typeof parsed === 'string') return parsed;
  const ts = parseTimestampMs(fields.timestamp);
  if (ts === null) return `timestamp "${fields.timestamp ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  const sequence = integerIn(fields.sequence, 0, Number.MAX_SAFE_INTEGER);
  if (sequence === null) return `sequence "${fields.sequence ?? ''}" is not a non-negative integer`;
  const price = finite(fields.price);
  if (price === null) return `price "${fields.price ?? ''}" is not a number`;
  const size = integerIn(fields.size, 1, 2_000_000_000);
  if (size === null) return `size "${fields.size ?? ''}" must be a positive integer`;
  const side = (fields.aggressor_side ?? '').toLowerCase();
  if (side !== '' && side !== 'buy' && side !== 'sell') return `aggressor_side "${fields.aggressor_side ?? ''}" must be buy, sell or empty`;
  let tradeDate = globexTradeDate(ts);
  if (present(fields.trade_date)) {
    const bad = checkTradeDate('trade_date', fields.trade_date);
    if (bad !== '') return bad;
    tradeDate = fields.trade_date;
  }
  return { symbol: parsed.symbol, ts, sequence, price, size, aggressorSide: side === '' ? null : side, tradeDate };
}

export interface FuturesBarRecord {
  symbol: string;
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export function parseFuturesBarFields(fields: Record<string, string>): FuturesBarRecord | string {
  const parsed = parseFuturesSymbol(fields.symbol);
  if (typeof parsed === 'string') return parsed;
  const ts = parseTimestampMs(fields.timestamp);
  if (ts === null) return `timestamp "${fields.timestamp ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  if (ts % 60_000 !== 0) return `timestamp ${ts} is not the start of a minute`;
  const values: number[] = [];
  for (const name of ['open', 'high', 'low', 'close'] as const) {
    const v = finite(fields[name]);
    if (v === null) return `${name} "${fields[name] ?? ''}" is not a number`;
    values.push(v);
  }
  const [open, high, low, close] = values as [number, number, number, number];
  if (high < low || high < Math.max(open, close) || low > Math.min(open, close)) return 'high and low do not bound open and close';
  const volume = integerIn(fields.volume, 0, Number.MAX_SAFE_INTEGER);
  if (volume === null) return `volume "${fields.volume ?? ''}" must be a non-negative integer`;
  return { symbol: parsed.symbol, ts, open, high, low, close, volume };
}

export interface FuturesStatisticRecord {
  symbol: string;
  tradeDate: string;
  settlement: { price: number; final: boolean } | null;
  openInterest: number | null;
  clearedVolume: number | null;
  /** Publication time, Unix ms; null when the record does not say. */
  ts: number | null;
}

export function parseFuturesStatisticFields(fields: Record<string, string>): FuturesStatisticRecord | string {
  const parsed = parseFuturesSymbol(fields.symbol);
  if (typeof parsed === 'string') return parsed;
  const bad = checkTradeDate('trade_date', fields.trade_date);
  if (bad !== '') return bad;
  let settlement: FuturesStatisticRecord['settlement'] = null;
  const status = (fields.settlement_status ?? '').toLowerCase();
  if (present(fields.settlement_price)) {
    const price = finite(fields.settlement_price);
    if (price === null) return `settlement_price "${fields.settlement_price}" is not a number`;
    if (status !== 'final' && status !== 'preliminary')
      return `settlement_status "${fields.settlement_status ?? ''}" must be final or preliminary with a settlement_price`;
    settlement = { price, final: status === 'final' };
  } else if (status !== '') return `settlement_status "${fields.settlement_status ?? ''}" is given without a settlement_price`;
  let openInterest: number | null = null;
  if (present(fields.open_interest)) {
    openInterest = integerIn(fields.open_interest, 0, Number.MAX_SAFE_INTEGER);
    if (openInterest === null) return `open_interest "${fields.open_interest}" must be a non-negative integer`;
  }
  let clearedVolume: number | null = null;
  if (present(fields.cleared_volume)) {
    clearedVolume = integerIn(fields.cleared_volume, 0, Number.MAX_SAFE_INTEGER);
    if (clearedVolume === null) return `cleared_volume "${fields.cleared_volume}" must be a non-negative integer`;
  }
  if (settlement === null && openInterest === null && clearedVolume === null)
    return 'none of settlement_price, open_interest and cleared_volume is given';
  let ts: number | null = null;
  if (present(fields.timestamp)) {
    ts = parseTimestampMs(fields.timestamp);
    if (ts === null) return `timestamp "${fields.timestamp}" is not Unix ms or ISO-8601 within 2000..2099`;
  }
  return { symbol: parsed.symbol, tradeDate: fields.trade_date!, settlement, openInterest, clearedVolume, ts };
}

/**
 * Whether a settlement (final or not, published at `ts`) replaces the one held (null: none held):
 * a final one replaces a preliminary one; one of the same status replaces it when published no
 * earlier (an unknown time counts as no earlier); a preliminary one never replaces a final one.
 * db/futures-statistics.ts applies the same rule in SQL.
 */
export function settlementReplaces(
  next: { final: boolean; ts: number | null },
  held: { final: boolean; ts: number | null } | null,
): boolean {
  if (held === null) return true;
  if (next.final !== held.final) return next.final;
  return next.ts === null || held.ts === null || next.ts >= held.ts;
}
