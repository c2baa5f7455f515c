/**
 * The CME equity-index futures this service knows: the E-minis on the S&P 500, Nasdaq-100 and
 * Russell 2000 and their Micro E-minis. Figures from CME Group's contract specifications of each
 * product (contract unit, minimum price fluctuation, listed contracts, termination of trading,
 * settlement method); the final settlement of all six is cash to the Special Opening Quotation
 * (SOQ) of the index on the final settlement date, computed from each component's opening price.
 */

export type FuturesRoot = 'ES' | 'NQ' | 'RTY' | 'MES' | 'MNQ' | 'M2K';
export type FuturesIndex = 'SPX' | 'NDX' | 'RUT';
export type QuarterlyMonthCode = 'H' | 'M' | 'U' | 'Z';

export interface FuturesProduct {
  root: FuturesRoot;
  exchange: 'CME';
  name: string;
  underlying_index: FuturesIndex;
  /** US dollars per index point. */
  multiplier: number;
  /** Minimum price fluctuation of an outright, in index points. */
  tick_size: number;
  /** US dollars per tick: multiplier × tick_size. */
  tick_value: number;
  currency: 'USD';
  settlement_method: 'cash';
  final_settlement: string;
  /** The contract months (March quarterly cycle) and how many consecutive quarters are listed at once. */
  listing_cycle: { months: QuarterlyMonthCode[]; listed_contracts: number };
  session_template: 'globex';
  trading_hours: string;
  /** Trading in an expiring contract terminates at this Eastern time on its last trade date. */
  last_trade_time: string;
  roll_convention: string;
}

/** CME month codes, January to December (a code's month is its index + 1). */
export const MONTH_CODES = 'FGHJKMNQUVXZ';

export const QUARTERLY_MONTHS: readonly { code: QuarterlyMonthCode; month: number }[] = (['H', 'M', 'U', 'Z'] as const).map((code) => ({
  code,
  month: MONTH_CODES.indexOf(code) + 1,
}));

const TRADING_HOURS =
  'CME Globex: Sunday 18:00 to Friday 17:00 ET with a daily halt 17:00-18:00 ET; CME holiday schedules shorten or close sessions (GET /v1/market/sessions?asset=futures).';
const ROLL_CONVENTION =
  "CME's equity-index roll date: eight calendar days before the contract's expiration (the Thursday of the week before the third Friday), from which the next quarterly contract is the lead month.";
const LAST_TRADE_TIME = '09:30';

function product(
  root: FuturesRoot,
  name: string,
  index: FuturesIndex,
  indexName: string,
  multiplier: number,
  tickSize: number,
  listed: number,
): FuturesProduct {
  return {
    root,
    exchange: 'CME',
    name,
    underlying_index: index,
    multiplier,
    tick_size: tickSize,
    tick_value: Math.round(multiplier * tickSize * 100) / 100,
    currency: 'USD',
    settlement_method: 'cash',
    final_settlement: `Cash settled to the Special Opening Quotation (SOQ) of the ${indexName} on the final settlement date, the contract's last trade date.`,
    listing_cycle: { months: QUARTERLY_MONTHS.map((m) => m.code), listed_contracts: listed },
    session_template: 'globex',
    trading_hours: TRADING_HOURS,
    last_trade_time: LAST_TRADE_TIME,
    roll_convention: ROLL_CONVENTION,
  };
}

/**
 * ES lists 21 consecutive quarters (CME extended the E-mini S&P 500 listing schedule; its earlier
 * schedules listed fewer); NQ, RTY and the micros list 5.
 */
export const FUTURES_PRODUCTS: readonly FuturesProduct[] = [
  product('ES', 'E-mini S&P 500', 'SPX', 'S&P 500 Index', 50, 0.25, 21),
  product('NQ', 'E-mini Nasdaq-100', 'NDX', 'Nasdaq-100 Index', 20, 0.25, 5),
  product('RTY', 'E-mini Russell 2000', 'RUT', 'Russell 2000 Index', 50, 0.1, 5),
  product('MES', 'Micro E-mini S&P 500', 'SPX', 'S&P 500 Index', 5, 0.25, 5),
  product('MNQ', 'Micro E-mini Nasdaq-100', 'NDX', 'Nasdaq-100 Index', 2, 0.25, 5),
  product('M2K', 'Micro E-mini Russell 2000', 'RUT', 'Russell 2000 Index', 5, 0.1, 5),
];

export const FUTURES_ROOTS: readonly FuturesRoot[] = FUTURES_PRODUCTS.map((p) => p.root);

export function futuresProduct(root: string): FuturesProduct | undefined {
  return FUTURES_PRODUCTS.find((p) => p.root === root);
}
