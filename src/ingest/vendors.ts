/**
 * Vendor file layouts mapped onto the canonical records (layouts.ts), so every vendor's data takes
 * the one ingest and classification path. Each adapter turns one vendor record into canonical
 * fields, a reason to reject it, or null when the record is not data of this kind (a statistics
 * record other than open interest, a book update in a trades file): such records are skipped.
 *
 * Massive (formerly Polygon.io) flat files, gzip CSV, one file per day:
 * - options trades: ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size
 *   (tickers `O:SPXW241220C05900000`; timestamps Unix nanoseconds; exchange the Massive options
 *   venue id, stored as is; conditions the Massive condition ids, comma separated). The file has no
 *   sequence number, so the print's sequence is its line number in the file: unique, stable and in
 *   file order, which is SIP time order. Time is sip_timestamp.
 * - options quotes: ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,
 *   sequence_number,sip_timestamp.
 * - stock (and index) minute aggregates: ticker,volume,open,close,high,low,window_start,transactions
 *   (index tickers `I:SPX` lose their prefix).
 *
 * Databento OPRA.PILLAR CSV (with symbols mapped, `map_symbols`; prices either fixed-point integers
 * of 1e-9 or, with `pretty_px`, decimals; times either integer nanoseconds or, with `pretty_ts`,
 * ISO-8601):
 * - tbbo (each trade with the BBO just before it): ts_recv,ts_event,rtype,publisher_id,instrument_id,
 *   action,side,depth,price,size,flags,ts_in_delta,sequence,bid_px_00,ask_px_00,bid_sz_00,ask_sz_00,
 *   bid_ct_00,ask_ct_00,symbol. publisher_id names the venue (OPRA.PILLAR publishers 20..37 and 61),
 *   side the aggressor (B buy, A sell, N none). OPRA's sale condition is not in this schema, so
 *   prints load as regular sales. The BBO is the one in force at ts_event.
 * - statistics: ts_recv,ts_event,rtype,publisher_id,instrument_id,ts_ref,price,quantity,sequence,
 *   ts_in_delta,stat_type,channel_id,update_action,stat_flags,symbol; stat_type 9 is open interest
 *   (OPRA publishes the previous close's figure before the open), dated by the trading date of
 *   ts_event (the next trading date when published on a closed day).
 * - definition: raw_symbol (the OCC symbol), underlying, contract_multiplier (among many columns).
 * - cbbo-1m and cbbo-1s (the consolidated BBO sampled at the end of each interval in which it or the
 *   last sale changed): ts_recv,ts_event,rtype,publisher_id,instrument_id,side,price,size,flags,
 *   bid_px_00,ask_px_00,bid_sz_00,ask_sz_00,bid_pb_00,ask_pb_00,symbol. ts_recv is the interval's
 *   end, a minute (second) boundary: the record is the BBO in force at that instant, stored as an
 *   update at ts_recv, as the simulator stamps a minute's quotes at its start. A zero or undefined
 *   price is no quote on that side.
 */
import { isTradingDay, nextTradingDay } from '../analytics/calendar.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { exchangeCodeFromOpraLetter } from '../analytics/opra.js';
import { nanosToMs } from './canonical.js';
import { databentoPrice, databentoTime } from './databento-fields.js';
import { FUTURES_VENDOR_ADAPTERS, type FuturesVendorKind } from './futures-vendors.js';
import type { IngestKind } from './layouts.js';

export { databentoPrice, databentoTime };

export type VendorKind =
  | 'massive-trades'
  | 'massive-quotes'
  | 'massive-minute-aggs'
  | 'databento-tbbo'
  | 'databento-statistics'
  | 'databento-definition'
  | 'databento-cbbo'
  | FuturesVendorKind;

export interface VendorAdapter {
  kind: VendorKind;
  /** Canonical kind the records become. */
  canonical: IngestKind;
  /** Vendor columns that must be present. */
  required: readonly string[];
  map(fields: Record<string, string>, line: number): Record<string, string> | string | null;
}

/** Databento OPRA.PILLAR publisher id → OPRA participant letter (Databento venue table). */
const DATABENTO_OPRA_PUBLISHERS: Readonly<Record<number, string>> = {
  20: 'A', // AMXO NYSE American
  21: 'B', // XBOX BOX
  22: 'C', // XCBO Cboe
  23: 'D', // EMLD MIAX Emerald
  24: 'E', // EDGO Cboe EDGX
  25: 'H', // GMNI Nasdaq GEMX
  26: 'I', // XISX Nasdaq ISE
  27: 'J', // MCRY Nasdaq MRX
  28: 'M', // XMIO MIAX
  29: 'N', // ARCO NYSE Arca
  30: 'O', // OPRA itself
  31: 'P', // MPRL MIAX Pearl
  32: 'Q', // XNDQ Nasdaq Options Market
  33: 'T', // XBXO Nasdaq BX
  34: 'W', // C2OX Cboe C2
  35: 'X', // XPHL Nasdaq PHLX
  36: 'Z', // BATO Cboe BZX
  37: 'U', // MXOP MEMX
  61: 'S', // SPHR MIAX Sapphire
};

/** Massive exchange id of a Databento OPRA publisher, or null when the publisher is not an OPRA venue. */
export function exchangeCodeFromDatabentoPublisher(publisherId: number): number | null {
  const letter = DATABENTO_OPRA_PUBLISHERS[publisherId];
  return letter === undefined ? null : exchangeCodeFromOpraLetter(letter);
}

function stripPrefix(ticker: string, prefix: string): string {
  return ticker.startsWith(prefix) ? ticker.slice(prefix.length) : ticker;
}

const massiveTrades: VendorAdapter = {
  kind: 'massive-trades',
  canonical: 'prints',
  required: ['ticker', 'conditions', 'exchange', 'price', 'sip_timestamp', 'size'],
  map(f, line) {
    const ts = nanosToMs(f.sip_timestamp);
    if (ts === null) return `sip_timestamp "${f.sip_timestamp ?? ''}" is not integer nanoseconds`;
    const codes = (f.conditions ?? '').split(/[,|\s]+/).filter((c) => c !== '');
    return {
      option_symbol: f.ticker ?? '',
      timestamp: String(ts),
      sequence: String(line),
      price: f.price ?? '',
      size: f.size ?? '',
      exchange_code: f.exchange ?? '',
      condition_code: codes[0] ?? '',
      extended_conditions: codes.slice(1).join('|'),
    };
  },
};

const massiveQuotes: VendorAdapter = {
  kind: 'massive-quotes',
  canonical: 'quotes',
  required: ['ticker', 'ask_price', 'bid_price', 'sip_timestamp'],
  map(f) {
    const ts = nanosToMs(f.sip_timestamp);
    if (ts === null) return `sip_timestamp "${f.sip_timestamp ?? ''}" is not integer nanoseconds`;
    // Massive writes 0 for an absent side; the canonical layout leaves it empty.
    const side = (v: string | undefined): string => (v === undefined || v === '' || Number(v) === 0 ? '' : v);
    return {
      option_symbol: f.ticker ?? '',
      timestamp: String(ts),
      bid: side(f.bid_price),
      ask: side(f.ask_price),
      bid_size: f.bid_size ?? '',
      ask_size: f.ask_size ?? '',
    };
  },
};

const massiveMinuteAggs: VendorAdapter = {
  kind: 'massive-minute-aggs',
  canonical: 'underlying_bars',
  required: ['ticker', 'open', 'close', 'high', 'low', 'window_start'],
  map(f) {
    const ts = nanosToMs(f.window_start);
    if (ts === null) return `window_start "${f.window_start ?? ''}" is not integer nanoseconds`;
    return {
      symbol: stripPrefix(f.ticker ?? '', 'I:'),
      timestamp: String(ts),
      open: f.open ?? '',
      high: f.high ?? '',
      low: f.low ?? '',
      close: f.close ?? '',
      volume: f.volume ?? '',
    };
  },
};

const databentoTbbo: VendorAdapter = {
  kind: 'databento-tbbo',
  canonical: 'prints',
  required: ['ts_event', 'publisher_id', 'action', 'side', 'price', 'size', 'sequence', 'bid_px_00', 'ask_px_00', 'symbol'],
  map(f) {
    if (f.action !== 'T') return null;
    const ts = databentoTime(f.ts_event);
    if (ts === null) return `ts_event "${f.ts_event ?? ''}" is not nanoseconds or ISO-8601`;
    const exchange = exchangeCodeFromDatabentoPublisher(Number(f.publisher_id));
    if (exchange === null) return `publisher_id "${f.publisher_id ?? ''}" is not an OPRA.PILLAR venue`;
    const price = databentoPrice(f.price);
    const bid = databentoPrice(f.bid_px_00);
    const ask = databentoPrice(f.ask_px_00);
    if (price === null || price === '') return `price "${f.price ?? ''}" is not a Databento price`;
    if (bid === null || ask === null) return 'bid_px_00 or ask_px_00 is not a Databento price';
    return {
      option_symbol: f.symbol ?? '',
      timestamp: ts,
      sequence: f.sequence ?? '',
      price,
      size: f.size ?? '',
      exchange_code: String(exchange),
      condition_code: '',
      aggressor_side: f.side === 'B' ? 'buy' : f.side === 'A' ? 'sell' : '',
      // OPRA disseminates a zero bid for "no bid".
      bid: bid !== '' && Number(bid) > 0 ? bid : '',
      ask: ask !== '' && Number(ask) > 0 ? ask : '',
      quote_timestamp: bid !== '' || ask !== '' ? ts : '',
    };
  },
};

const OPEN_INTEREST_STAT = '9';

const databentoStatistics: VendorAdapter = {
  kind: 'databento-statistics',
  canonical: 'open_interest',
  required: ['ts_event', 'stat_type', 'quantity', 'symbol'],
  map(f) {
    if (f.stat_type !== OPEN_INTEREST_STAT) return null;
    const ts = databentoTime(f.ts_event);
    if (ts === null) return `ts_event "${f.ts_event ?? ''}" is not nanoseconds or ISO-8601`;
    let date = newYorkDate(Number(ts));
    if (!isTradingDay(date)) date = nextTradingDay(date);
    return { option_symbol: f.symbol ?? '', date, open_interest: f.quantity ?? '' };
  },
};

const databentoDefinition: VendorAdapter = {
  kind: 'databento-definition',
  canonical: 'contracts',
  required: ['raw_symbol', 'underlying'],
  map(f) {
    const cls = f.instrument_class;
    if (cls !== undefined && cls !== 'C' && cls !== 'P') return null;
    const multiplier =
      f.contract_multiplier !== undefined && /^\d+$/.test(f.contract_multiplier) && Number(f.contract_multiplier) > 0
        ? f.contract_multiplier
        : '';
    return { option_symbol: f.raw_symbol ?? '', underlying: f.underlying ?? '', multiplier };
  },
};

const databentoCbbo: VendorAdapter = {
  kind: 'databento-cbbo',
  canonical: 'quotes',
  required: ['ts_recv', 'bid_px_00', 'ask_px_00', 'symbol'],
  map(f) {
    const ts = databentoTime(f.ts_recv);
    if (ts === null) return `ts_recv "${f.ts_recv ?? ''}" is not nanoseconds or ISO-8601`;
    const bid = databentoPrice(f.bid_px_00);
    const ask = databentoPrice(f.ask_px_00);
    if (bid === null || ask === null) return 'bid_px_00 or ask_px_00 is not a Databento price';
    const side = (price: string, size: string | undefined): [string, string] =>
      price !== '' && Number(price) > 0 ? [price, size ?? ''] : ['', ''];
    const [bidPrice, bidSize] = side(bid, f.bid_sz_00);
    const [askPrice, askSize] = side(ask, f.ask_sz_00);
    return { option_symbol: f.symbol ?? '', timestamp: ts, bid: bidPrice, ask: askPrice, bid_size: bidSize, ask_size: askSize };
  },
};

export const VENDOR_ADAPTERS: Readonly<Record<VendorKind, VendorAdapter>> = {
  'massive-trades': massiveTrades,
  'massive-quotes': massiveQuotes,
  'massive-minute-aggs': massiveMinuteAggs,
  'databento-tbbo': databentoTbbo,
  'databento-statistics': databentoStatistics,
  'databento-definition': databentoDefinition,
  'databento-cbbo': databentoCbbo,
  // Databento GLBX.MDP3 and Massive futures layouts: futures-vendors.ts.
  ...FUTURES_VENDOR_ADAPTERS,
};

export function isVendorKind(kind: string): kind is VendorKind {
  return Object.hasOwn(VENDOR_ADAPTERS, kind);
}
