/**
 * Vendor futures layouts mapped onto the canonical futures records (futures-layouts.ts), as
 * vendors.ts does for options: each adapter turns one vendor record into canonical fields, a reason
 * to reject it, or null when the record is not data of this kind (skipped).
 *
 * Databento GLBX.MDP3 (CME Globex MDP 3.0) CSV, with symbols mapped (`map_symbols`, the `symbol`
 * column: the raw symbol, ESZ6); prices either fixed-point integers of 1e-9 or, with `pretty_px`,
 * decimals; times either integer nanoseconds or, with `pretty_ts`, ISO-8601 (databento-fields.ts):
 * - definition: raw_symbol, instrument_class (F future; spreads, options and the rest are skipped),
 *   security_update_action (D, a deletion, is skipped), expiration, min_price_increment (the tick),
 *   unit_of_measure_qty (the multiplier of CME's futures: 50 for ES; contract_multiplier is left
 *   undefined by CME for them and used only when unit_of_measure_qty is undefined), currency, asset
 *   (the product root, ES), maturity_year and maturity_month (the contract month; from the
 *   expiration's month when undefined), instrument_id.
 * - trades: ts_event, action (T), side (the aggressor: B buy, A sell, N none), price, size,
 *   sequence (the venue's packet sequence), symbol. The trade date is the Globex day of ts_event.
 * - ohlcv-1m: ts_event (the minute's start), open, high, low, close, volume, symbol.
 * - statistics: ts_event, ts_ref (the trade date the figure belongs to, midnight UTC of it; when
 *   undefined, the Globex day of ts_event), price, quantity, stat_type, update_action, stat_flags,
 *   symbol. stat_type 3 is the settlement price (stat_flags bit 0: 1 final, 0 preliminary, CME's
 *   SettlPriceType), 6 cleared volume and 9 open interest (quantity); other types and deletions
 *   (update_action 2) are skipped.
 *
 * Massive futures minute aggregates (flat files `futures/minute-aggregates/<exchange>`: ticker,
 * window_start in Unix nanoseconds, open, high, low, close, volume, transactions, dollar_volume,
 * exchange, session_end_date) map onto futures_bars. Massive's futures session aggregates carry a
 * settlement_price without saying whether it is final or preliminary, and its flat-file
 * documentation lists no open-interest file, so no Massive statistics are read here.
 */
import { nanosToMs } from './canonical.js';
import { databentoPrice, databentoTime } from './databento-fields.js';
import { MONTH_CODES } from '../analytics/futures/products.js';
import { globexTradeDate } from './futures-canonical.js';
import type { VendorAdapter } from './vendors.js';

export type FuturesVendorKind =
  | 'databento-glbx-definition'
  | 'databento-glbx-trades'
  | 'databento-glbx-ohlcv-1m'
  | 'databento-glbx-statistics'
  | 'massive-futures-minute-aggs';

/** INT32_MAX and INT64_MAX: Databento's undefined integers (quantity was 32-bit before DBN version 3). */
const UNDEF_INTEGERS = new Set(['2147483647', '9223372036854775807']);
const SETTLEMENT_PRICE = '3';
const CLEARED_VOLUME = '6';
const OPEN_INTEREST = '9';
/** stat_flags bit 0 of a settlement: final (1) or preliminary (0). */
const FINAL_SETTLEMENT_FLAG = 1;

const defined = (value: string | undefined): value is string => value !== undefined && value !== '' && !UNDEF_INTEGERS.has(value);

/** A Databento price that must be there: its decimal text, or the reason. */
function requiredPrice(name: string, value: string | undefined): { price: string } | string {
  const price = databentoPrice(value);
  if (price === null) return `${name} "${value ?? ''}" is not a Databento price`;
  if (price === '') return `${name} is undefined`;
  return { price };
}

const glbxDefinition: VendorAdapter = {
  kind: 'databento-glbx-definition',
  canonical: 'futures_definitions',
  required: ['raw_symbol', 'instrument_class', 'expiration', 'min_price_increment'],
  map(f) {
    if (f.instrument_class !== 'F') return null;
    if (f.security_update_action === 'D') return null;
    const symbol = (f.raw_symbol ?? '').trim();
    const expiration = databentoTime(f.expiration);
    if (expiration === null) return `expiration "${f.expiration ?? ''}" is not nanoseconds or ISO-8601`;
    const tick = requiredPrice('min_price_increment', f.min_price_increment);
    if (typeof tick === 'string') return tick;
    let multiplier = '';
    const unitQty = databentoPrice(f.unit_of_measure_qty);
    if (unitQty !== null && unitQty !== '' && Number(unitQty) > 0) multiplier = unitQty;
    else if (defined(f.contract_multiplier) && /^\d+$/.test(f.contract_multiplier) && Number(f.contract_multiplier) > 0)
      multiplier = f.contract_multiplier;
    else return 'neither unit_of_measure_qty nor contract_multiplier gives the multiplier';
    const year = f.maturity_year;
    const month = f.maturity_month;
    let contractMonth: string;
    if (
      year !== undefined &&
      /^\d{4}$/.test(year) &&
      month !== undefined &&
      /^\d{1,2}$/.test(month) &&
      Number(month) >= 1 &&
      Number(month) <= 12
    )
      contractMonth = `${year}-${month.padStart(2, '0')}`;
    else contractMonth = new Date(Number(expiration)).toISOString().slice(0, 7);
    const asset = (f.asset ?? '').trim().toUpperCase();
    // The asset is the root when the symbol is the asset, a month code and year digits.
    const root = /^[A-Z0-9]{1,6}$/.test(asset) && new RegExp(`^${asset}[${MONTH_CODES}]\\d{1,2}$`).test(symbol.toUpperCase()) ? asset : '';
    return {
      symbol,
      root,
      contract_month: contractMonth,
      expiration,
      tick_size: tick.price,
      multiplier,
      currency: (f.currency ?? '').trim(),
      instrument_id: f.instrument_id ?? '',
    };
  },
};

const glbxTrades: VendorAdapter = {
  kind: 'databento-glbx-trades',
  canonical: 'futures_trades',
  required: ['ts_event', 'side', 'price', 'size', 'sequence', 'symbol'],
  map(f) {
    if (f.action !== undefined && f.action !== 'T') return null;
    const ts = databentoTime(f.ts_event);
    if (ts === null) return `ts_event "${f.ts_event ?? ''}" is not nanoseconds or ISO-8601`;
    const price = requiredPrice('price', f.price);
    if (typeof price === 'string') return price;
    if (f.side !== 'A' && f.side !== 'B' && f.side !== 'N') return `side "${f.side ?? ''}" is not A, B or N`;
    return {
      symbol: f.symbol ?? '',
      timestamp: ts,
      sequence: f.sequence ?? '',
      price: price.price,
      size: f.size ?? '',
      aggressor_side: f.side === 'B' ? 'buy' : f.side === 'A' ? 'sell' : '',
    };
  },
};

const glbxOhlcv1m: VendorAdapter = {
  kind: 'databento-glbx-ohlcv-1m',
  canonical: 'futures_bars',
  required: ['ts_event', 'open', 'high', 'low', 'close', 'volume', 'symbol'],
  map(f) {
    const ts = databentoTime(f.ts_event);
    if (ts === null) return `ts_event "${f.ts_event ?? ''}" is not nanoseconds or ISO-8601`;
    const out: Record<string, string> = { symbol: f.symbol ?? '', timestamp: ts, volume: f.volume ?? '' };
    for (const name of ['open', 'high', 'low', 'close'] as const) {
      const price = requiredPrice(name, f[name]);
      if (typeof price === 'string') return price;
      out[name] = price.price;
    }
    return out;
  },
};

const glbxStatistics: VendorAdapter = {
  kind: 'databento-glbx-statistics',
  canonical: 'futures_statistics',
  required: ['ts_event', 'ts_ref', 'price', 'quantity', 'stat_type', 'stat_flags', 'symbol'],
  map(f) {
    const type = f.stat_type;
    if (type !== SETTLEMENT_PRICE && type !== CLEARED_VOLUME && type !== OPEN_INTEREST) return null;
    if (f.update_action === '2' || f.update_action === 'D') return null;
    const ts = databentoTime(f.ts_event);
    if (ts === null) return `ts_event "${f.ts_event ?? ''}" is not nanoseconds or ISO-8601`;
    const ref = databentoTime(f.ts_ref);
    const tradeDate = ref === null ? globexTradeDate(Number(ts)) : new Date(Number(ref)).toISOString().slice(0, 10);
    const out: Record<string, string> = { symbol: f.symbol ?? '', trade_date: tradeDate, timestamp: ts };
    if (type === SETTLEMENT_PRICE) {
      const price = requiredPrice('price', f.price);
      if (typeof price === 'string') return price;
      const flags = Number(f.stat_flags);
      if (!Number.isInteger(flags) || flags < 0 || flags > 255) return `stat_flags "${f.stat_flags ?? ''}" is not an 8-bit integer`;
      out.settlement_price = price.price;
      out.settlement_status = (flags & FINAL_SETTLEMENT_FLAG) !== 0 ? 'final' : 'preliminary';
    } else {
      if (!defined(f.quantity)) return `quantity is undefined for stat_type ${type}`;
      out[type === OPEN_INTEREST ? 'open_interest' : 'cleared_volume'] = f.quantity;
    }
    return out;
  },
};

const massiveFuturesMinuteAggs: VendorAdapter = {
  kind: 'massive-futures-minute-aggs',
  canonical: 'futures_bars',
  required: ['ticker', 'window_start', 'open', 'high', 'low', 'close', 'volume'],
  map(f) {
    const ts = nanosToMs(f.window_start);
    if (ts === null) return `window_start "${f.window_start ?? ''}" is not integer nanoseconds`;
    // Massive writes volumes as numbers; a whole number written with a decimal part is that integer.
    const volume = /^\d+\.0*$/.test(f.volume ?? '') ? (f.volume ?? '').replace(/\.0*$/, '') : (f.volume ?? '');
    return {
      symbol: f.ticker ?? '',
      timestamp: String(ts),
      open: f.open ?? '',
      high: f.high ?? '',
      low: f.low ?? '',
      close: f.close ?? '',
      volume,
    };
  },
};

export const FUTURES_VENDOR_ADAPTERS: Readonly<Record<FuturesVendorKind, VendorAdapter>> = {
  'databento-glbx-definition': glbxDefinition,
  'databento-glbx-trades': glbxTrades,
  'databento-glbx-ohlcv-1m': glbxOhlcv1m,
  'databento-glbx-statistics': glbxStatistics,
  'massive-futures-minute-aggs': massiveFuturesMinuteAggs,
};
