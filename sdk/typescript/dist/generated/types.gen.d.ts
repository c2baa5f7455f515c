export type ClientOptions = {
    baseUrl: 'http://127.0.0.1:8080' | (string & {});
};
/**
 * UnderlyingSymbol
 *
 * A letter followed by up to 7 letters, digits or dots (at most 8 characters).
 */
export type UnderlyingSymbol = string;
/**
 * CalendarDate
 *
 * A date of the exchange calendar, YYYY-MM-DD, from 2000-01-01 through 2035-12-31, the span whose holidays and early closes the service knows; trading dates and session windows need it.
 */
export type CalendarDate = string;
/**
 * ExpiryDate
 *
 * An expiration date, YYYY-MM-DD, from 2000-01-01 through 2099-12-31 (the years an OCC option symbol can name); a contract traded within the calendar may expire after it.
 */
export type ExpiryDate = string;
/**
 * HistoryDate
 *
 * A date of history not bound to the exchange calendar (stock splits), YYYY-MM-DD, from 1970-01-01 through 2099-12-31.
 */
export type HistoryDate = string;
/**
 * UnixMsParam
 *
 * Unix epoch milliseconds.
 */
export type UnixMsParam = number;
/**
 * UnixMs
 *
 * Unix epoch milliseconds (UTC).
 */
export type UnixMs = number;
/**
 * ContractType
 *
 * call or put.
 */
export type ContractType = 'call' | 'put';
/**
 * RouteFamily
 *
 * The family of a route (each operation's x-family); futures holds the CME equity-index futures reference routes.
 */
export type RouteFamily = 'options' | 'futures' | 'indices' | 'stocks' | 'market' | 'account' | 'platform' | 'exports';
/**
 * ExchangeName
 */
export type ExchangeName = 'nom' | 'amex' | 'cboe' | 'ise' | 'arca' | 'phlx' | 'box' | 'mrcy' | 'gmni' | 'c2' | 'miax' | 'emld' | 'bx' | 'bzx' | 'edgx' | 'perl' | 'memx';
/**
 * Session
 *
 * The session a figure was computed for: rth (regular hours), gth (the overnight Global Trading Hours session before the trading date), curb, or all.
 */
export type Session = 'rth' | 'gth' | 'curb' | 'all';
/**
 * Meta
 *
 * Facts about the answer: when it was made, by which request, from which source, and whether it is complete.
 */
export type Meta = {
    as_of: UnixMs;
    /**
     * complete is always present; trades adds scan_complete; usage adds durable.
     */
    coverage: Coverage;
    /**
     * Delay of the data behind real time, in milliseconds; 0 here (the service does not delay data).
     */
    delay_ms: number;
    /**
     * Whether the data is delayed; false here.
     */
    delayed: boolean;
    /**
     * Identifier of this request, the same as the X-Request-Id header; quote it to support.
     */
    request_id: string;
    /**
     * Origin of the data. Whatever it says, the market data may be simulated: GET /v1/status (`data_source`) tells.
     */
    source: DataSource;
};
/**
 * Pagination
 *
 * Where the next page is. A next page repeats the same query with `cursor_id` set to `next_cursor_id`, until it is null.
 */
export type Pagination = {
    /**
     * Rows in this page.
     */
    count: number;
    /**
     * Whether more rows follow (next_cursor_id is not null).
     */
    has_more: boolean;
    /**
     * The row limit applied to this page (the `limit` parameter or its default).
     */
    limit: number;
    /**
     * Opaque cursor for the next page (at most 1024 characters, valid 24 hours); null at the end.
     */
    next_cursor_id: string | null;
    /**
     * The same route and query with cursor_id set to next_cursor_id, as a relative URL; null at the end.
     */
    next_url: string | null;
};
/**
 * OptionPrint
 *
 * One option execution classified against the quote in force.
 */
export type OptionPrint = {
    /**
     * Best ask at execution; null when no valid quote.
     */
    ask: number | null;
    /**
     * Best bid at execution; null when no valid quote.
     */
    bid: number | null;
    /**
     * Numeric sale condition code.
     */
    condition_code: number;
    /**
     * call or put.
     */
    contract_type: ContractType;
    /**
     * Expiration date of the contract.
     */
    date_of_expiry: string;
    /**
     * Contracts traded in this contract so far on the trading date.
     */
    day_volume: number;
    /**
     * Calendar days from trading date to expiration.
     */
    days_to_expiry: number;
    /**
     * Black-Scholes-Merton spot delta at implied_volatility (per share, −1 to 1), on the same forward (the carry q its put-call parity forward implies, Δc = e^{−qT}Φ(d1), else the fixed dividend yield; see implied_volatility), rounded to 6 decimals; null with implied_volatility.
     */
    delta: number | null;
    /**
     * Short lowercase name of the executing exchange (one of the `exchange` filter's values), or `unmapped_` followed by the numeric exchange_code (such as `unmapped_399`) for a venue without a name.
     */
    exchange: string;
    /**
     * Numeric code of the executing exchange in the options feed.
     */
    exchange_code: number;
    /**
     * Condition flags, in this order when present: iso, auction, cross, floor, complex, tied, implied, late (from the sale conditions); ext_hours (an extended-hours condition, or session gth); cancelled; aggressor_hint (the feed gave the aggressor side); post_cash_close (a curb print after 16:00 ET); vol_gt_oi (day_volume above open_interest); size_gt_oi (size above open_interest); no_side (side unknown).
     */
    flags: Array<PrintFlag>;
    /**
     * Sweep or split the print belongs to (inferred); null for a single print.
     */
    group_id: string | null;
    /**
     * Stable print id: root, expiry, strike x 1000, right, trading date and sequence, colon-separated. Treat as opaque.
     */
    id: string;
    /**
     * Black-Scholes-Merton volatility (decimal, 0.18 = 18%) that reprices the print at underlying_price, time to the settlement instant (ACT/365), the risk-free rate of the trading date and the put-call parity forward of the print's expiration: the median parity forward of its quotes sampled in the print's minute, else of the latest earlier minute with one within 30 minutes, as the carry q = r − ln(F/S)/T it implies (the forward the skew and the contract history state); the underlying's fixed dividend yield only when parity cannot be solved (see "Rates and dividend yields"). An index option printed outside the index's calculation hours (after its close at 16:00 ET, 13:00 on an early close: the rest of the regular option session, the curb, the overnight session), where underlying_price is null, is solved at the index's last regular close instead (the close of the one-minute bar ended by it) and the parity forward of its minute valued there, as the contract history and the positioning routes value the same minute. Rounded to 6 decimals; null without an underlying price (or, for an index outside its hours, its close), after settlement, or when no volatility reprices the price.
     */
    implied_volatility: number | null;
    /**
     * size >= 100 and premium >= 50,000 USD; or premium >= 250,000 USD; or an auction, cross or floor print of at least 500 contracts.
     */
    is_block: boolean;
    /**
     * Part of a sweep whose live prints total at least 1,000,000 USD of premium (set on every print of the sweep).
     */
    is_golden: boolean;
    /**
     * day_volume above open_interest with at most 45 days to expiry; or premium >= 250,000 USD; or an ask-side (above_ask, at_ask, near_ask) sweep of an out-of-the-money contract (otm_percent > 0).
     */
    is_unusual: boolean;
    /**
     * Open interest of the contract at the start of the trading date (contracts); null when not published.
     */
    open_interest: number | null;
    /**
     * Percent out of the money against underlying_price S (calls (strike − S)/S × 100, puts (S − strike)/S × 100), rounded to 4 decimals; negative in the money; null with underlying_price.
     */
    otm_percent: number | null;
    /**
     * USD: price x size x multiplier.
     */
    premium: number;
    /**
     * Execution price per share in USD.
     */
    price: number;
    /**
     * From side and contract type: ask-side calls and bid-side puts bullish, ask-side puts and bid-side calls bearish, mid neutral, unknown side unknown.
     */
    sentiment: Sentiment;
    /**
     * Session of the print.
     */
    session: PrintSession;
    /**
     * Aggressor band of the price P against the NBBO in force (bid B, ask A, mid M, spread s = A − B, each comparison within 0.00005 USD): above_ask P > A; below_bid P < B; at_ask P = A; at_bid P = B; mid |P − M| <= 0.1·s (the middle 20% of the spread, and a locked quote); near_ask / near_bid inside the spread above / below the mid zone; unknown when the quote is missing, one-sided, zero, crossed, later than the print or more than 30 s old.
     */
    side: PrintSide;
    /**
     * How far side can be trusted, 0 to 1 (3 decimals): 1 at or beyond the quote, 0.6 rising to 0.9 across the near bands towards the quote, 0.5 at the mid, 0 unknown; times a quote-age factor falling from 1 at 1 s to 0.5 at 30 s; times 0.5 for an implied complex leg or 0.8 for another complex print; a feed aggressor hint that agrees raises it to at least 0.9, one that disagrees halves it.
     */
    side_confidence: number;
    /**
     * Contracts traded.
     */
    size: number;
    /**
     * Strike in USD.
     */
    strike: number;
    timestamp: UnixMs;
    /**
     * multileg (complex condition), cross, floor, else sweep (2 or more live prints of one order on 2 or more exchanges within 50 ms of its first), split (2 or more on one exchange within 500 ms), or single. A group keeps one direction and walks the price one way; complex, cross, floor and late prints never join one.
     */
    trade_type: PrintTradeType;
    /**
     * Underlying price at the execution (USD): the close of its one-minute bar (else the minute before's); null when not known, and for an index option printed outside the index's calculation hours (09:30 to 16:00 ET, 13:00 on an early close), when the index has no price (implied_volatility is then solved at its regular close).
     */
    underlying_price: number | null;
    /**
     * Option root of the contract.
     */
    underlying_symbol: string;
};
/**
 * PrintPage
 */
export type PrintPage = {
    /**
     * The prints of this page, newest first.
     */
    data: Array<OptionPrint>;
    /**
     * Meta; coverage.scan_complete says whether the bounded scan filled the page.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * ImpliedVolatilitySample
 */
export type ImpliedVolatilitySample = {
    /**
     * Best offer price; null when there is no offer (a zero offer is none).
     */
    ask: number | null;
    /**
     * Implied volatility at the offer; null without an offer or an underlying price, or when no volatility reprices it.
     */
    ask_implied_volatility: number | null;
    /**
     * Best bid price; null when there is no bid (a zero bid is none).
     */
    bid: number | null;
    /**
     * Implied volatility at the bid; null without a bid or an underlying price, or when no volatility reprices it.
     */
    bid_implied_volatility: number | null;
    /**
     * Forward of the expiration the volatilities were solved on (USD), F = S·e^{(r−q)T}: the median put-call parity forward of the expiration's quotes sampled in the sample's minute (as the skew route's `forward`), or the carry q of the nearest sampled minute's forward within 30 minutes applied at this sample's underlying price; null when there was none and the underlying's fixed dividend yield was used (see "Rates and dividend yields"), or without an underlying price.
     */
    forward: number | null;
    /**
     * Implied volatility at the midpoint; null without a midpoint or an underlying price, or when no volatility reprices it.
     */
    implied_volatility: number | null;
    /**
     * Midpoint of bid and offer; null unless both are present and not crossed.
     */
    midpoint: number | null;
    option_symbol: OptionSymbol;
    timestamp: UnixMs;
    /**
     * Underlying price the volatilities were solved at (USD); null when none is known.
     */
    underlying_price: number | null;
    /**
     * Start of the underlying bar that price is the close of (Unix ms); null with underlying_price.
     */
    underlying_timestamp: number | null;
};
/**
 * OptionSymbol
 *
 * OCC symbol; root padded to six characters, YYMMDD, C or P, strike in thousandths over eight digits.
 */
export type OptionSymbol = string;
/**
 * TradeAtTime
 */
export type TradeAtTime = {
    /**
     * call or put, as requested.
     */
    contract_type: ContractType;
    /**
     * Expiration date, as requested.
     */
    date_of_expiry: string;
    option_symbol: OptionSymbol;
    requested_timestamp: UnixMs;
    /**
     * The print sessions searched for the trade: every one with the overnight entitlement; without it gth is left out, so a later overnight trade may exist that the plan does not see.
     */
    sessions_searched: Array<PrintSession>;
    /**
     * Strike in USD, as requested.
     */
    strike: number;
    /**
     * The last trade at or before requested_timestamp; null when there is none in the retained data.
     */
    trade: null | RecordedTrade;
    /**
     * Option root, as requested.
     */
    underlying_symbol: string;
};
/**
 * Valuation
 *
 * Where and when the chain was valued: the instant, the chain and underlying price used, the rate, and the open interest date. Levels, heat map and skew answers are views of one valued book per underlying family, session and minute of data, kept for the whole deployment: the family's every listed expiration read at one chain minute (the median newest sample minute over all its unsettled contracts), one surface fitted over all the expirations settling after the minute (so calendar checks span the whole family, whichever expirations a request selects), the underlying price and rate at the chain minute's end, each contract's open interest, its customer flow up to the valuation time (from the family's open interest date) and its session activity. Every request for a minute answers from that book; a book is valued again only when a load changes the data at or before its minute. While a session runs, a request for the newest minute whose book is still being valued answers from the previous minute and names the newest in pending_instant.
 */
export type Valuation = {
    /**
     * While a session runs: the end of the newest minute of data (Unix ms) when its book was still being valued and this answer is the previous minute's (timestamp and chain_timestamp say which); null when the answer values the newest minute of data at or before the instant asked for. Ask again a second later for the newest.
     */
    pending_instant: number | null;
    /**
     * Time of the newest quote of the chain used (Unix ms); null when no quote was used.
     */
    chain_timestamp: number | null;
    /**
     * Date of the close whose open interest the positioning uses; null on the skew route or when none is published.
     */
    open_interest_date: string | null;
    /**
     * Continuously compounded (ACT/365) risk-free rate used: the 3-month Treasury bill rate (FRED TB3MS) of the trading date's month, converted from its discount basis; this service always fills it.
     */
    risk_free_rate: number | null;
    /**
     * Valuation time (Unix ms): the end of the chain's minute, not after the instant; times to settlement run from it; this service always fills it.
     */
    timestamp: number | null;
    /**
     * Underlying price used (USD): the close of the last one-minute bar ended by the valuation time, or for an index valued outside its calculation hours its regular close (see underlying_source); null when none.
     */
    underlying_price: number | null;
    /**
     * Where underlying_price comes from (UnderlyingSource); null with underlying_price.
     */
    underlying_source: UnderlyingSource | null;
    /**
     * True when that bar started more than 15 minutes before the instant the price stands for: the valuation time, or the regular close for `regular_close`.
     */
    underlying_stale: boolean;
    /**
     * Start of that bar (Unix ms); null with underlying_price.
     */
    underlying_timestamp: number | null;
};
/**
 * UnderlyingSource
 *
 * Where underlying_price comes from. `bar`: the close of the underlying's last one-minute bar ended by the valuation time (an ETF or a stock at any hour, an index during its regular session). `regular_close`: the underlying is an index (SPX, XSP, NDX, RUT, VIX) valued outside its calculation hours, the exchange calendar's regular session (09:30 to 16:00 ET, 13:00 ET on an early-close day): after its close, overnight (gth) or before its open. An index has no price then, so the service uses its value at the close of its last regular session, the close of the last bar ended by that close, whatever bars a feed holds after it; no forward is implied for the hours since (the chain's own parity forward, in the skew's `forward`, carries what the options say of them).
 */
export type UnderlyingSource = 'bar' | 'regular_close';
/**
 * Skew
 */
export type Skew = {
    /**
     * Expirations, soonest first.
     */
    expirations: Array<SkewExpiration>;
    /**
     * Option roots whose chains were read.
     */
    roots: Array<string>;
    /**
     * Session valued (rth or gth).
     */
    session: Session;
    /**
     * Trading date valued.
     */
    trading_date: string;
    /**
     * Underlying symbol as requested.
     */
    underlying_symbol: string;
    /**
     * Where and when the chain was valued.
     */
    valuation: Valuation;
};
/**
 * SkewExpiration
 */
export type SkewExpiration = {
    /**
     * Volatility of the smile at the forward (k = 0); null without a smile.
     */
    atm_implied_volatility: number | null;
    /**
     * Average of the 10-delta call and put volatilities minus the at-the-money volatility; null when the smile does not reach 10 delta or there is no underlying price.
     */
    butterfly_10d: number | null;
    /**
     * Average of the 25-delta call and put volatilities minus the at-the-money volatility.
     */
    butterfly_25d: number | null;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * Calendar days from the trading date to the expiration.
     */
    days_to_expiry: number;
    /**
     * How the smile was built and how well it meets its quotes; null without a smile (no forward, or no out-of-the-money mid).
     */
    fit: SmileFit | null;
    /**
     * Forward price implied by put-call parity on the chain; null when no strike has both legs quoted.
     */
    forward: number | null;
    /**
     * risk_reversal_25d over atm_implied_volatility.
     */
    normalized_skew: number | null;
    /**
     * Every strike with a quote, ascending.
     */
    points: Array<SkewPoint>;
    /**
     * 10-delta call volatility minus 10-delta put volatility.
     */
    risk_reversal_10d: number | null;
    /**
     * 25-delta call volatility minus 25-delta put volatility.
     */
    risk_reversal_25d: number | null;
    /**
     * The option root whose chain this expiration is (for a family, the later-settling root of the date).
     */
    root: string;
    /**
     * dσ/dk at the money: slope of the smile against log-forward moneyness k = ln(K/F).
     */
    slope: number | null;
};
/**
 * SmileFit
 *
 * How an expiration's smile was built and how well it meets its quotes; null when there is no smile (no forward, or no out-of-the-money mid).
 */
export type SmileFit = {
    /**
     * svi: the Gatheral–Jacquier density condition g(k) ≥ 0 holds on the check grid; interpolated: call prices are convex and decreasing in strike at the quoted strikes.
     */
    butterfly_ok: boolean;
    /**
     * Total variance is not below the previous expiration's nor above the next's at the moneyness both quote.
     */
    calendar_ok: boolean;
    /**
     * Why the smile is interpolated rather than SVI (fewer than five quotes, a fit that did not converge, or a failed arbitrage check); null for SVI.
     */
    fallback_reason: SmileFallbackReason | null;
    /**
     * Largest absolute difference of fitted and quoted mid volatility, in volatility points (1 = 0.01).
     */
    max_abs_error_vol_points: number;
    /**
     * svi: a raw SVI fit; interpolated: total variance interpolated linearly between the quotes.
     */
    method: SmileFitMethod;
    /**
     * Out-of-the-money quotes (one per strike) the smile was built from.
     */
    quotes_used: number;
    /**
     * Quotes whose fitted volatility lies between their bid and ask volatilities (the repriced option within the quoted spread).
     */
    quotes_within_spread: number;
    /**
     * Root-mean-square of fitted minus quoted mid volatility, in volatility points.
     */
    rmse_vol_points: number;
};
/**
 * OpenInterest
 */
export type OpenInterest = {
    /**
     * Rows per strike or per expiration, as requested.
     */
    group_by: OpenInterestGrouping;
    /**
     * Date of the close the open interest counts (the trading date before the one it was published for).
     */
    open_interest_date: string;
    /**
     * Option roots included.
     */
    roots: Array<string>;
    /**
     * Ascending by strike or by expiration.
     */
    rows: Array<OpenInterestRow>;
    /**
     * Totals over the rows.
     */
    totals: OpenInterestTotals;
    /**
     * Trading date asked for.
     */
    trading_date: string;
    /**
     * Underlying price (USD) at the regular session's valuation instant; null when none is known.
     */
    underlying_price: number | null;
    /**
     * Underlying symbol as requested.
     */
    underlying_symbol: string;
};
/**
 * VolatilityDrift
 */
export type VolatilityDrift = {
    /**
     * The tracked expiration.
     */
    date_of_expiry: string;
    /**
     * Bucket length.
     */
    interval: DriftInterval;
    /**
     * While a session runs: the end of the newest minute of data (Unix ms) when its drift is still being computed for the deployment (the book valuer computes each family's drift at the default query as each minute loads) and this answer is the drift up to the previous minute (its last point says which); null when the answer reaches the newest minute of data at or before the instant asked for. Ask again a second later for the newest.
     */
    pending_instant: number | null;
    /**
     * Buckets with a value, oldest first.
     */
    points: Array<VolatilityDriftPoint>;
    /**
     * How the regular session's share of daily variance was estimated.
     */
    realized_volatility_basis: RealizedVolatilityBasis;
    /**
     * Session tracked (rth or gth).
     */
    session: Session;
    /**
     * Trading date tracked.
     */
    trading_date: string;
    /**
     * Underlying symbol as requested.
     */
    underlying_symbol: string;
};
/**
 * StrikeValue
 */
export type StrikeValue = {
    /**
     * Strike in USD.
     */
    strike: number;
    /**
     * Net exposure at the strike, in the response's unit and perspective.
     */
    value: number;
};
/**
 * ExpiryCell
 */
export type ExpiryCell = {
    /**
     * Expiration of the cell.
     */
    date_of_expiry: string;
    /**
     * Strike of the cell in USD.
     */
    strike: number;
    /**
     * Value of the cell (net over calls and puts on the levels route), in the response's unit and perspective.
     */
    value: number;
};
/**
 * RankedStrike
 */
export type RankedStrike = {
    /**
     * 100 × (strike − underlying price) / underlying price; null without an underlying price.
     */
    distance_percent: number | null;
    /**
     * strike − underlying price, in USD.
     */
    distance_points: number;
    /**
     * 1 for the largest absolute value.
     */
    rank: number;
    /**
     * Strike in USD.
     */
    strike: number;
    /**
     * The leg's exposure at the strike, in the response's unit and perspective (gross is |call| + |put|, never negated).
     */
    value: number;
};
/**
 * PositioningModelName
 *
 * classic_oi: dealers long the calls and short the puts of the open interest; flow_adjusted: that position moved by classified prints since the open interest date.
 */
export type PositioningModelName = 'classic_oi' | 'flow_adjusted';
/**
 * Perspective
 *
 * dealer, or customer (the dealer values negated; levels unchanged).
 */
export type Perspective = 'dealer' | 'customer';
/**
 * PositioningModelVersion
 *
 * Name and version of the positioning assumption (a model estimate, not an observed position).
 */
export type PositioningModelVersion = string;
/**
 * ExposureUnit
 *
 * per_percent: USD of modeled dealer hedging per 1% move of the underlying; per_dollar: per 1 dollar move; raw: shares (or per unit of the greek). See the levels route for each greek's formula.
 */
export type ExposureUnit = 'per_percent' | 'per_dollar' | 'raw';
/**
 * UnitLabel
 *
 * What one unit of the values is.
 */
export type UnitLabel = string;
/**
 * KeyLevels
 */
export type KeyLevels = {
    /**
     * The greek measured (the `greek` parameter).
     */
    greek: Greek;
    /**
     * The key levels.
     */
    levels: Levels;
    /**
     * Positioning model used.
     */
    model: PositioningModelName;
    /**
     * Perspective of the values.
     */
    perspective: Perspective;
    positioning_model: PositioningModelVersion;
    /**
     * The five largest strikes per leg; this service always fills it (the underlying price is known, else 422).
     */
    ranked: null | RankedStrikes;
    /**
     * Option roots included.
     */
    roots: Array<string>;
    /**
     * Session valued (rth or gth).
     */
    session: Session;
    /**
     * Trading date valued.
     */
    trading_date: string;
    /**
     * Underlying price S the contracts were valued at (USD); always known here (422 otherwise).
     */
    underlying_price: number | null;
    /**
     * Underlying symbol as requested.
     */
    underlying_symbol: string;
    /**
     * Unit of the values.
     */
    unit: ExposureUnit;
    unit_label: UnitLabel;
    /**
     * Where and when the chain was valued.
     */
    valuation: Valuation;
};
/**
 * Heatmap
 */
export type Heatmap = {
    /**
     * One cell per strike and expiration with a listed contract, by expiration then strike.
     */
    cells: Array<HeatmapCell>;
    /**
     * The expirations shown among those selected.
     */
    expiration_window: ExpirationWindow;
    /**
     * Repeats metric.
     */
    greek: string;
    /**
     * The cell of largest absolute value; null when every value is 0.
     */
    largest_cell: null | ExpiryCell;
    /**
     * Which leg the cells show.
     */
    leg: HeatmapLeg;
    /**
     * Largest cell value; null without a cell.
     */
    maximum: number | null;
    /**
     * What a cell holds (the `metric` parameter).
     */
    metric: string;
    /**
     * Smallest cell value; null without a cell.
     */
    minimum: number | null;
    /**
     * Positioning model used (exposure metrics only; the observed metrics do not depend on it).
     */
    model: PositioningModelName;
    /**
     * Perspective of the exposure values.
     */
    perspective: Perspective;
    positioning_model: PositioningModelVersion;
    /**
     * Option roots included.
     */
    roots: Array<string>;
    /**
     * Session valued (rth or gth).
     */
    session: Session;
    /**
     * The strikes shown.
     */
    strike_range: StrikeRange;
    /**
     * Trading date valued.
     */
    trading_date: string;
    /**
     * Underlying symbol as requested.
     */
    underlying_symbol: string;
    /**
     * Unit of exposure values.
     */
    unit: ExposureUnit;
    unit_label: UnitLabel;
    /**
     * Where and when the chain was valued.
     */
    valuation: Valuation;
};
/**
 * FlowLeaderRow
 *
 * A ranked row: a RootLeaderRow at grain root, a ContractLeaderRow at grain contract.
 */
export type FlowLeaderRow = RootLeaderRow | ContractLeaderRow;
/**
 * RootLeaderRow
 *
 * A root-grain leader row.
 */
export type RootLeaderRow = {
    /**
     * Underlying symbol.
     */
    underlying_symbol: string;
    /**
     * Total premium of the underlying's prints in the session (USD).
     */
    premium: number;
    /**
     * Contracts traded.
     */
    volume: number;
    /**
     * Premium of bearish prints (USD).
     */
    bearish_premium: number;
    /**
     * Premium of bullish prints (USD).
     */
    bullish_premium: number;
    /**
     * Premium of prints at the mid (USD).
     */
    neutral_premium: number;
    /**
     * bearish_premium over bullish_premium; null without bullish premium.
     */
    bearish_to_bullish_ratio: number | null;
    /**
     * Call contracts traded.
     */
    call_volume: number;
    /**
     * Put contracts traded.
     */
    put_volume: number;
    /**
     * Share of the whole market's premium, 0 to 1.
     */
    premium_share: number;
    /**
     * Prints.
     */
    trades: number;
    /**
     * Share of the whole market's prints, 0 to 1.
     */
    trades_share: number;
    /**
     * Share of the whole market's volume, 0 to 1.
     */
    volume_share: number;
};
/**
 * ContractLeaderRow
 *
 * A contract-grain leader row.
 */
export type ContractLeaderRow = {
    /**
     * Option root of the contract.
     */
    underlying_symbol: string;
    /**
     * Total premium of the contract's prints in the session (USD).
     */
    premium: number;
    /**
     * Contracts traded in the session.
     */
    volume: number;
    /**
     * Percent change of last_price from previous_close; null without a previous close.
     */
    change_percent: number | null;
    /**
     * call or put.
     */
    contract_type: ContractType;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * Implied volatility of the session's last print (decimal), the print's own implied_volatility: on the parity forward of its expiration's minute, else the fixed dividend yield (see "Rates and dividend yields"); null when it could not be solved.
     */
    implied_volatility: number | null;
    /**
     * Price per share of the session's last print.
     */
    last_price: number;
    /**
     * Open interest at the start of the trading date, as the last print carries it; null when not known.
     */
    open_interest: number | null;
    /**
     * Price per share of the contract's last regular-session print of the previous trading date; null when it did not trade then or that session is not held.
     */
    previous_close: number | null;
    /**
     * Strike in USD.
     */
    strike: number;
};
/**
 * PremiumDriftBucket
 */
export type PremiumDriftBucket = {
    /**
     * Cumulative call premium from the window's start to the bucket's end: bought on the ask side (above_ask, at_ask, near_ask) minus sold on the bid side (near_bid, at_bid, below_bid), USD.
     */
    call_drift: number | null;
    /**
     * The same for puts (USD).
     */
    put_drift: number | null;
    /**
     * call_drift − put_drift (USD): rises when premium flows into calls or out of puts.
     */
    sentiment_drift: number | null;
    timestamp: UnixMs;
    /**
     * Close of the underlying's last one-minute bar in the bucket (USD); null when none.
     */
    underlying_price: number | null;
};
/**
 * StockSplit
 */
export type StockSplit = {
    /**
     * Date the split took effect.
     */
    execution_date: string;
    /**
     * Stable id: symbol and execution date.
     */
    id: string;
    /**
     * Old shares in the ratio (a 2-for-1 split has split_from 1, split_to 2).
     */
    split_from: number;
    /**
     * New shares in the ratio.
     */
    split_to: number;
    /**
     * Ticker.
     */
    symbol: string;
    /**
     * Direction of the split.
     */
    type: SplitType;
};
/**
 * MarketSession
 */
export type MarketSession = {
    /**
     * Asset class.
     */
    asset: AssetClass;
    end_time: UnixMs;
    /**
     * Session name.
     */
    session: MarketSessionName;
    start_time: UnixMs;
    /**
     * regular, or early_close on an early-close day; a futures window: early_close when it ends before 17:00 ET (an early close or a holiday halt).
     */
    status: SessionHours;
    /**
     * Trading date the window belongs to (an overnight or Globex window starts the evening before).
     */
    trading_date: string;
};
/**
 * FuturesRoot
 *
 * A CME equity-index futures product: ES, NQ, RTY (E-minis) or MES, MNQ, M2K (Micro E-minis).
 */
export type FuturesRoot = 'ES' | 'NQ' | 'RTY' | 'MES' | 'MNQ' | 'M2K';
/**
 * FuturesIndex
 *
 * The index a futures product settles to: SPX (S&P 500), NDX (Nasdaq-100), RUT (Russell 2000).
 */
export type FuturesIndex = 'SPX' | 'NDX' | 'RUT';
/**
 * FuturesMonthCode
 *
 * Quarterly contract month code: H March, M June, U September, Z December.
 */
export type FuturesMonthCode = 'H' | 'M' | 'U' | 'Z';
/**
 * FuturesContractStatus
 *
 * At as_of: listed (between its first and last trade dates), expired, or not_listed yet.
 */
export type FuturesContractStatus = 'listed' | 'expired' | 'not_listed';
/**
 * FuturesListingCycle
 *
 * The contract months and how many consecutive quarters are listed at once.
 */
export type FuturesListingCycle = {
    /**
     * Month codes of the cycle.
     */
    months: Array<FuturesMonthCode>;
    /**
     * Consecutive quarters listed at once.
     */
    listed_contracts: number;
};
/**
 * FuturesProduct
 */
export type FuturesProduct = {
    root: FuturesRoot;
    /**
     * Listing exchange: CME.
     */
    exchange: string;
    /**
     * Product name.
     */
    name: string;
    underlying_index: FuturesIndex;
    /**
     * US dollars per index point.
     */
    multiplier: number;
    /**
     * Minimum price fluctuation of an outright, index points.
     */
    tick_size: number;
    /**
     * US dollars per tick (multiplier × tick_size).
     */
    tick_value: number;
    /**
     * Currency of prices and values: USD.
     */
    currency: string;
    /**
     * cash: financially settled, no delivery.
     */
    settlement_method: string;
    /**
     * How the final settlement price is set.
     */
    final_settlement: string;
    listing_cycle: FuturesListingCycle;
    /**
     * globex: the session of GET /v1/market/sessions?asset=futures.
     */
    session_template: string;
    /**
     * Trading hours in words.
     */
    trading_hours: string;
    /**
     * Eastern time at which an expiring contract stops trading on its last trade date.
     */
    last_trade_time: string;
    /**
     * CME's roll date convention in words.
     */
    roll_convention: string;
};
/**
 * FuturesProductsResponse
 */
export type FuturesProductsResponse = {
    /**
     * The products.
     */
    data: Array<FuturesProduct>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * FuturesContract
 */
export type FuturesContract = {
    /**
     * Canonical symbol: root, month code, two-digit year.
     */
    symbol: string;
    /**
     * CME Globex symbol, one-digit year.
     */
    globex_symbol: string;
    root: FuturesRoot;
    month_code: FuturesMonthCode;
    /**
     * Contract month, YYYY-MM.
     */
    contract_month: string;
    /**
     * First CME trade date of the contract.
     */
    first_trade_date: string;
    /**
     * Last trade date: the third Friday of the month, or the trade date before it.
     */
    last_trade_date: string;
    /**
     * Unix ms at which trading terminates: 09:30 ET on the last trade date.
     */
    last_trade_time: number;
    /**
     * Expiration date (the last trade date).
     */
    expiration_date: string;
    /**
     * Date of the final settlement price, the Special Opening Quotation of the index.
     */
    final_settlement_date: string;
    /**
     * CME's roll date: eight days before the third Friday.
     */
    roll_date: string;
    status: FuturesContractStatus;
    /**
     * Listed at as_of.
     */
    active: boolean;
    /**
     * Position among the root's listed contracts at as_of, 0 the nearest; null when not listed.
     */
    rank: number | null;
    /**
     * The lead month of the root at as_of.
     */
    lead: boolean;
};
/**
 * FuturesContractsResponse
 */
export type FuturesContractsResponse = {
    /**
     * The contracts.
     */
    data: Array<FuturesContract>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * FuturesSettlementStatus
 *
 * preliminary (published after the close) or final (the cleared settlement; supersedes a preliminary one).
 */
export type FuturesSettlementStatus = 'preliminary' | 'final';
/**
 * FuturesSettlement
 *
 * One contract's statistics of one CME trade date, beside its previous trade date's.
 */
export type FuturesSettlement = {
    /**
     * CME trade date.
     */
    trade_date: string;
    /**
     * Canonical symbol: root, month code, two-digit year.
     */
    symbol: string;
    /**
     * CME Globex symbol, one-digit year.
     */
    globex_symbol: string;
    root: FuturesRoot;
    /**
     * Contract month, YYYY-MM.
     */
    contract_month: string;
    /**
     * The contract's last trading instant as its definition gives it (09:30 ET of the last trade date), Unix ms.
     */
    final_settlement_time: number;
    /**
     * Settlement price, index points; null while none is published.
     */
    settlement_price: number | null;
    /**
     * Status of settlement_price (FuturesSettlementStatus); null with it.
     */
    settlement_status: FuturesSettlementStatus | null;
    /**
     * When the settlement was published, Unix ms; null when the file did not say.
     */
    settlement_timestamp: number | null;
    /**
     * The trade date before trade_date in the Globex calendar.
     */
    previous_trade_date: string;
    /**
     * The contract's settlement price of previous_trade_date; null when none is stored.
     */
    previous_settlement_price: number | null;
    /**
     * Status of previous_settlement_price (FuturesSettlementStatus); null with it.
     */
    previous_settlement_status: FuturesSettlementStatus | null;
    /**
     * settlement_price − previous_settlement_price, index points, rounded to 6 decimals.
     */
    change: number | null;
    /**
     * 100 × change / previous_settlement_price, rounded to 6 decimals.
     */
    change_percent: number | null;
    /**
     * Contracts open for the trade date.
     */
    open_interest: number | null;
    /**
     * Open interest of previous_trade_date.
     */
    previous_open_interest: number | null;
    /**
     * open_interest − previous_open_interest.
     */
    open_interest_change: number | null;
    /**
     * Contracts cleared on the trade date.
     */
    cleared_volume: number | null;
};
/**
 * FuturesSettlementPage
 */
export type FuturesSettlementPage = {
    /**
     * Rows by trade date, then contract expiration.
     */
    data: Array<FuturesSettlement>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * FuturesBasisContracts
 *
 * Which contracts of a root: front (the nearest not settled at each minute) or listed (every stored one not settled).
 */
export type FuturesBasisContracts = 'front' | 'listed';
/**
 * FuturesBasisInterval
 *
 * A basis series' step: 1m every minute, 1h the last minute of each clock hour.
 */
export type FuturesBasisInterval = '1m' | '1h';
/**
 * FuturesBasis
 *
 * A future against its index at one minute (the route states each convention).
 */
export type FuturesBasis = {
    /**
     * Canonical contract symbol.
     */
    symbol: string;
    /**
     * CME Globex symbol.
     */
    globex_symbol: string;
    root: FuturesRoot;
    index_symbol: FuturesIndex;
    /**
     * Start of the minute of both prices, Unix ms.
     */
    timestamp: number;
    /**
     * Close of the contract's one-minute bar.
     */
    future_price: number;
    /**
     * Close of the index's one-minute value of the same minute.
     */
    index_value: number;
    /**
     * future_price − index_value, index points.
     */
    basis: number;
    /**
     * 100 × basis / index_value.
     */
    basis_percent: number;
    /**
     * The contract's final settlement: 09:30 ET (SOQ) of its last trade date, Unix ms.
     */
    final_settlement_time: number;
    /**
     * Fractional days from the end of the minute to final_settlement_time; 0 from it.
     */
    days_to_expiry: number;
    /**
     * days_to_expiry / 365 (ACT/365).
     */
    years_to_expiry: number;
    /**
     * Risk-free rate r: 3-month Treasury bill (FRED TB3MS) of the minute's month, continuous ACT/365.
     */
    rate: number;
    /**
     * The index's continuous dividend yield q this service assumes.
     */
    dividend_yield: number;
    /**
     * rate − dividend_yield.
     */
    model_carry: number;
    /**
     * ln(future_price / index_value) / years_to_expiry, annualised r − q; null at settlement.
     */
    implied_carry: number | null;
    /**
     * implied_carry + dividend_yield; null at settlement.
     */
    implied_rate: number | null;
    /**
     * index_value × exp(model_carry × years_to_expiry).
     */
    fair_value: number;
    /**
     * fair_value − index_value.
     */
    fair_basis: number;
    /**
     * future_price − fair_value, index points.
     */
    mispricing: number;
};
/**
 * FuturesBasisResponse
 */
export type FuturesBasisResponse = {
    /**
     * Points by contract, then time.
     */
    data: Array<FuturesBasis>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * FuturesBarSymbol
 *
 * A futures contract (ESZ26, or its Globex form ESZ6) or a continuous symbol (root, roll rule c/v/n, rank 0 to 9: ES.c.0).
 */
export type FuturesBarSymbol = string;
/**
 * FuturesBarSession
 *
 * globex: all Globex hours of a trade date (18:00 ET the evening before to 17:00 ET); rth: the index's regular session, 09:30 to 16:00 ET (13:00 on an early close).
 */
export type FuturesBarSession = 'globex' | 'rth';
/**
 * FuturesPriceAdjustment
 *
 * Back-adjustment of a continuous series at its rolls: none, difference (add the later rolls' price gaps), ratio (multiply by the later rolls' price ratios). The newest contract is never adjusted.
 */
export type FuturesPriceAdjustment = 'none' | 'difference' | 'ratio';
/**
 * FuturesRollRule
 *
 * calendar (c: CME's roll date), volume (v: largest previous-day cleared volume) or open_interest (n: largest previous-day open interest).
 */
export type FuturesRollRule = 'calendar' | 'volume' | 'open_interest';
/**
 * FuturesRollPriceSource
 *
 * Where a roll price comes from: settlement (the contract's daily settlement of price_date), last_close (its last one-minute bar of that trade date, with no settlement stored) or missing (neither is stored).
 */
export type FuturesRollPriceSource = 'settlement' | 'last_close' | 'missing';
/**
 * FuturesBar
 *
 * One bar of a contract or a continuous series: prices as served are raw × price_factor + price_offset.
 */
export type FuturesBar = {
    /**
     * Bucket start, Unix ms (1d: the start of the trade date's first window).
     */
    timestamp: number;
    /**
     * The CME trade date of the minutes.
     */
    trade_date: string;
    /**
     * The contract the bar was made from (canonical symbol).
     */
    contract_symbol: string;
    /**
     * The first minute's open, adjusted.
     */
    open: number;
    /**
     * The highest high of the minutes, adjusted.
     */
    high: number;
    /**
     * The lowest low of the minutes, adjusted.
     */
    low: number;
    /**
     * The last minute's close, adjusted.
     */
    close: number;
    /**
     * Contracts traded in the minutes.
     */
    volume: number;
    /**
     * One-minute bars the bar was made from.
     */
    minutes: number;
    /**
     * Start of the minute whose close is the bar's close, Unix ms.
     */
    close_timestamp: number;
    /**
     * The bar's contract differs from the previous bar's (across pages); false on the first bar of a query.
     */
    roll: boolean;
    /**
     * On a roll, the previous bar's contract; else null.
     */
    previous_contract_symbol: string | null;
    /**
     * Points added to the raw prices (difference adjustment); 0 otherwise.
     */
    price_offset: number;
    /**
     * Factor the raw prices were multiplied by (ratio adjustment); 1 otherwise.
     */
    price_factor: number;
};
/**
 * FuturesBarPage
 */
export type FuturesBarPage = {
    /**
     * Bars, oldest first.
     */
    data: Array<FuturesBar>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * FuturesRollFigure
 *
 * One candidate contract's figure on the basis date.
 */
export type FuturesRollFigure = {
    /**
     * Candidate contract (canonical symbol).
     */
    contract_symbol: string;
    /**
     * Its cleared volume (volume rule) or open interest (open_interest rule).
     */
    value: number;
};
/**
 * FuturesRollBasis
 *
 * Why the interval's first trade date maps to its contract.
 */
export type FuturesRollBasis = {
    /**
     * The trade date whose figures ranked the candidates; null under the calendar rule or its fallback.
     */
    figure_date: string | null;
    /**
     * True when a volume or open-interest rule found no figures in five trade dates and took the calendar rule's contract.
     */
    fallback: boolean;
    /**
     * The candidates with a figure that day, by rank (largest first, ties to the nearer expiry).
     */
    figures: Array<FuturesRollFigure>;
};
/**
 * FuturesRollPrices
 *
 * The prices of the roll into an interval, which the bars route back-adjusts with.
 */
export type FuturesRollPrices = {
    /**
     * The trade date whose prices are read: the one before the interval.
     */
    price_date: string;
    /**
     * The contract rolled out of.
     */
    previous_contract_symbol: string;
    /**
     * Its price on price_date.
     */
    previous_price: number | null;
    previous_price_source: FuturesRollPriceSource;
    /**
     * The new contract's price on price_date.
     */
    price: number | null;
    price_source: FuturesRollPriceSource;
    /**
     * price − previous_price: what difference adjustment adds before the roll.
     */
    difference: number | null;
    /**
     * price / previous_price: what ratio adjustment multiplies by before the roll.
     */
    ratio: number | null;
};
/**
 * FuturesMappingInterval
 *
 * A run of trade dates on which a continuous symbol maps to one contract.
 */
export type FuturesMappingInterval = {
    /**
     * The continuous symbol.
     */
    symbol: string;
    rule: FuturesRollRule;
    /**
     * The rank asked.
     */
    rank: number;
    /**
     * First trade date of the interval.
     */
    start_date: string;
    /**
     * Last trade date of the interval, inclusive.
     */
    end_date: string;
    /**
     * Start of the first trade date's Globex session (18:00 ET the evening before), Unix ms.
     */
    start_time: number;
    /**
     * Close of the last trade date's Globex session, Unix ms (exclusive).
     */
    end_time: number;
    /**
     * The contract (canonical symbol).
     */
    contract_symbol: string;
    /**
     * Its CME Globex symbol.
     */
    globex_symbol: string;
    /**
     * Contract month, YYYY-MM.
     */
    contract_month: string;
    /**
     * The contract's last trade date.
     */
    last_trade_date: string;
    /**
     * The contract's CME roll date (the calendar rule leaves it on this date).
     */
    roll_date: string;
    basis: FuturesRollBasis;
    /**
     * The roll into this interval; null on the first interval.
     */
    roll: FuturesRollPrices | null;
};
/**
 * FuturesContinuousResponse
 */
export type FuturesContinuousResponse = {
    /**
     * The mapping intervals, oldest first.
     */
    data: Array<FuturesMappingInterval>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * FuturesAggressorSide
 *
 * The side of the order that took liquidity: buy (lifted the offer), sell (hit the bid), none (the feed gives no aggressor).
 */
export type FuturesAggressorSide = 'buy' | 'sell' | 'none';
/**
 * FuturesTrade
 */
export type FuturesTrade = {
    /**
     * Canonical symbol of the contract: root, month code, two-digit year.
     */
    symbol: string;
    /**
     * CME Globex symbol, one-digit year.
     */
    globex_symbol: string;
    root: FuturesRoot;
    /**
     * Contract month, YYYY-MM.
     */
    contract_month: string;
    /**
     * CME trade date of the trade (its Globex session).
     */
    trade_date: string;
    timestamp: UnixMs;
    /**
     * Trade price, index points.
     */
    price: number;
    /**
     * Contracts traded.
     */
    size: number;
    aggressor_side: FuturesAggressorSide;
    /**
     * US dollars per index point of the contract.
     */
    multiplier: number;
    /**
     * price × multiplier × size, USD.
     */
    notional: number;
    /**
     * The venue's packet sequence number, shared by the trades of one match event.
     */
    sequence: number;
    /**
     * Number of the trade within its contract and sequence, from 0, in feed order.
     */
    match: number;
};
/**
 * FuturesTradePage
 */
export type FuturesTradePage = {
    /**
     * The trades of this page, in the order asked.
     */
    data: Array<FuturesTrade>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * CalendarDay
 */
export type CalendarDay = {
    /**
     * Equity close.
     */
    close_timestamp: number | null;
    /**
     * The date asked for.
     */
    date: string;
    /**
     * Equity open.
     */
    open_timestamp: number | null;
    /**
     * open, early_close or closed.
     */
    status: CalendarDayStatus;
    /**
     * Close of index and ETF options, 15 minutes after the equity close.
     */
    options_close_timestamp: number | null;
    /**
     * Holiday, closure or early-close name; null on a plain day.
     */
    reason: string | null;
};
/**
 * OvernightRoot
 */
export type OvernightRoot = {
    /**
     * Option root.
     */
    root: string;
    /**
     * Family the root belongs to (SPX for SPX and SPXW).
     */
    family: string;
    /**
     * Underlying symbol.
     */
    underlying_symbol: string;
    /**
     * The date the windows are of.
     */
    trading_date: string;
    /**
     * The overnight, regular and curb windows of the date; empty on a weekend or holiday.
     */
    sessions: Array<MarketSession>;
};
/**
 * Count
 *
 * A count (requests or bytes).
 */
export type Count = number;
/**
 * UsageBucket
 */
export type UsageBucket = {
    /**
     * Response bytes sent, after compression.
     */
    bytes_out: Count;
    /**
     * Responses with status 400 to 499, rate-limited ones included.
     */
    client_errors: Count;
    end_time: UnixMs;
    /**
     * Responses with status 500 or above.
     */
    errors: Count;
    /**
     * Responses with status 429.
     */
    rate_limited: Count;
    /**
     * Requests received.
     */
    requests: Count;
    start_time: UnixMs;
    /**
     * Per-route breakdown, most requests first; present only with by_route=true and when the bucket has requests.
     */
    routes?: Array<RouteUsage>;
};
/**
 * CatalogEntry
 */
export type CatalogEntry = {
    /**
     * Dataset release the route needs.
     */
    dataset: CatalogDataset;
    /**
     * Details: the route's description in this document.
     */
    description?: string;
    family: RouteFamily;
    /**
     * Parameters bounded by the plan's history window (x-history-params).
     */
    history_params?: Array<string>;
    /**
     * The operationId.
     */
    id: string;
    /**
     * Served as a tool of the MCP server at POST /v1/mcp, named by `id`.
     */
    mcp: boolean;
    /**
     * HTTP method.
     */
    method: string;
    /**
     * Accepts the overnight session.
     */
    overnight: boolean;
    /**
     * Takes limit and cursor_id.
     */
    paginated: boolean;
    /**
     * Query parameters.
     */
    params: Array<CatalogParameter>;
    /**
     * Route path.
     */
    path: string;
    /**
     * Needs no key.
     */
    public: boolean;
    /**
     * Available as a stream channel (GET /v1/stream).
     */
    streamable: boolean;
    /**
     * One-line summary.
     */
    summary: string;
};
/**
 * Plan
 *
 * The account's plan; pro includes overnight data.
 */
export type Plan = 'basic' | 'pro';
/**
 * DatasetRelease
 *
 * A dataset release an account may hold.
 */
export type DatasetRelease = 'options' | 'futures' | 'equities' | 'indices';
/**
 * LimitValues
 *
 * The limit values in force for the account (configured per deployment; the same on every plan but export_bytes_held_max, set per plan).
 */
export type LimitValues = {
    /**
     * Requests per rolling 60 seconds (X-RateLimit-Limit).
     */
    requests_per_minute: number;
    /**
     * Requests per rolling second (X-RateLimit-Burst-Limit).
     */
    requests_per_second: number;
    /**
     * Simultaneous requests.
     */
    requests_in_flight: number;
    /**
     * Requests per minute per client network without a key or with bad credentials.
     */
    keyless_requests_per_minute: number;
    /**
     * Time a route has before it answers 504 (ms).
     */
    endpoint_timeout_ms: number;
    /**
     * Exports queued or running at once.
     */
    exports_queued_or_running: number;
    /**
     * Rows in a JSON export file at most (the spec's 100,000).
     */
    export_max_rows: number;
    /**
     * Bytes in a JSON export file at most (64 MiB).
     */
    export_max_bytes: number;
    /**
     * Rows in a CSV or Parquet export file at most (EXPORT_FLAT_MAX_ROWS; 3,000,000 by default). The export body's limit may be up to this in those formats.
     */
    export_flat_max_rows: number;
    /**
     * Bytes in a CSV or Parquet export file at most (EXPORT_FLAT_MAX_BYTES; 512 MiB by default).
     */
    export_flat_max_bytes: number;
    /**
     * Parameters in an export query at most.
     */
    export_max_query_params: number;
    /**
     * Bytes the account's export files not yet expired may hold, its plan's cap (LIMIT_EXPORT_BYTES_BASIC or LIMIT_EXPORT_BYTES_PRO); at it a new export is refused 429 export_limit.
     */
    export_bytes_held_max: number;
};
/**
 * Account
 */
export type Account = {
    /**
     * Account id.
     */
    id: string;
    /**
     * Account name.
     */
    name: string;
    /**
     * Plan.
     */
    plan: Plan;
    /**
     * Dataset releases the account holds.
     */
    datasets: Array<DatasetRelease>;
    /**
     * Entitlements beyond the plan.
     */
    entitlements: Entitlements;
    /**
     * active or suspended.
     */
    status: AccountStatus;
    created_timestamp: UnixMs;
    /**
     * The key that made this request.
     */
    key: ApiKeyInfo;
    /**
     * Limit values in force.
     */
    limits: LimitValues;
};
/**
 * AccountLimits
 */
export type AccountLimits = {
    /**
     * Limit values in force.
     */
    limits: LimitValues;
    /**
     * The rolling 60-second window.
     */
    minute_window: RateWindow;
    /**
     * The rolling one-second window.
     */
    second_window: RateWindow;
    /**
     * Simultaneous requests.
     */
    in_flight: InFlightLimit;
    /**
     * Unix ms when a cooldown ends; null when none.
     */
    cooldown_until: number | null;
    /**
     * Exports queued or running.
     */
    exports_active: number;
    /**
     * Bytes of the account's export files not yet expired (limits.export_bytes_held_max at most, but for exports accepted before the cap was reached).
     */
    export_bytes_held: number;
};
/**
 * Status
 *
 * Answered within a second whatever the database and its tables do. When the database does not
 * answer, `database.status` is `down` (and `status` degraded) and `datasets` are the figures of
 * the last read that succeeded; when the figures cannot be read within the time (a table held by
 * a lock, a slow disk), they are the last read's too, `datasets_timestamp` says when that was, and
 * `status` is degraded.
 *
 */
export type Status = {
    /**
     * ok when the database answers and the dataset figures were read for this answer; degraded otherwise.
     */
    status: ServiceStatus;
    /**
     * Service version.
     */
    version: string;
    started_timestamp: UnixMs;
    /**
     * Database health (the primary).
     */
    database: DatabaseHealth;
    /**
     * The read replicas (DATABASE_REPLICA_URLS), each with its health and lag as this process last
     * polled them (every second); empty when none is configured. Reads that tolerate lag (trades
     * pages, contract history, flow and leaders, chain and positioning reads) go to a replica that
     * is up only once it has replayed what the request must see: everything committed on the
     * primary before the request's first read, or, for a following page, before its first page's
     * (the cursor carries it). A replica that has not within 250 ms leaves the read to the
     * primary, so an answer is never older on a replica than on the primary.
     *
     */
    replicas: Array<ReplicaHealth>;
    /**
     * When the dataset figures were read (Unix ms); null when no read has succeeded since the service started. Figures are read again when the data they come from changed (every call checks, in one statement, the market data change log, the file ledger, the splits and the simulator runs) and at least once a minute (the row counts are the planner's estimates, which move without a write); in between, a call that finds the data unchanged serves the figures of that read, which still hold.
     */
    datasets_timestamp: number | null;
    /**
     * Per dataset, the newest data held and its size.
     */
    datasets: Array<DatasetFreshness>;
    /**
     * Whether the market data is simulated or loaded from files, read with the dataset figures (the last read's when they are); null when no read has succeeded since the service started.
     */
    data_source: DataOrigin | null;
    /**
     * paused while the free space of the disk export files are written to is below the service's floor (EXPORT_DISK_FLOOR_BYTES); new exports are then refused 503 upstream_busy and queued ones wait. ok otherwise.
     */
    exports: ExportsStatus;
};
/**
 * DataOrigin
 *
 * Where the market data held comes from, as the store records it: the ingest ledger counts the
 * files loaded, and a file written by the project's market simulator (first start of `make run`,
 * `npm run simulate`, or a minute of the live simulated market) is told by the folder the simulator
 * recorded it wrote to. A session loaded back from its archive is not counted again, and stock
 * splits (a shipped list of real splits) are not counted.
 *
 */
export type DataOrigin = {
    kind: DataOriginKind;
    /**
     * Market files loaded that the simulator wrote (a live minute's files included).
     */
    simulated_files: number;
    /**
     * Market files loaded from elsewhere (`npm run ingest`): data of one's own.
     */
    loaded_files: number;
    /**
     * Seed of the latest simulator run that wrote into this store (the same seed gives the same market); null when none did.
     */
    simulator_seed: number | null;
    /**
     * Scale of that run (default or full); null when none.
     */
    simulator_scale: string | null;
    /**
     * True when the live simulated market (LIVE_MODE=live, the default of `make run`) has written into this store: it adds simulated quotes and prints minute by minute while its sessions are open, counted in simulated_files.
     */
    live_simulation: boolean;
};
/**
 * DataOriginKind
 *
 * simulated: every market file loaded was written by the simulator (the live simulated market's minutes included); files: every one came from elsewhere; mixed: both; empty: no market file was loaded.
 */
export type DataOriginKind = 'simulated' | 'files' | 'mixed' | 'empty';
/**
 * ExportQueryValue
 *
 * A parameter value: text, a number or a boolean, and for a list parameter an array of such values or comma-separated text. Any JSON value is taken here; each is checked against the target route's own parameter schema (400 naming `query.<name>`), so this schema stays one that every client generator can represent (an anyOf with an array branch is not).
 */
export type ExportQueryValue = unknown;
/**
 * ExportRequest
 */
export type ExportRequest = {
    /**
     * Path of a data endpoint of the catalog (not a platform or account route).
     */
    path: string;
    /**
     * The endpoint's query parameters; limit is the file's row limit on a paginated endpoint (1 to 100,000 in JSON, 1 to 3,000,000 by default in CSV and Parquet); cursor_id is refused.
     */
    query?: ExportQuery;
    /**
     * The file's format: json (the default), csv (gzip-compressed) or parquet; csv and parquet only for a route whose data is rows.
     */
    format?: ExportFormat;
};
/**
 * ExportJob
 */
export type ExportJob = {
    /**
     * Export id.
     */
    id: string;
    /**
     * Endpoint path exported.
     */
    path: string;
    /**
     * The query as requested: one string per parameter, numbers and booleans as text, lists comma-separated.
     */
    query: ExportQuery;
    /**
     * The file's format, as requested (json when not given).
     */
    format: ExportFormat;
    /**
     * queued: waiting for a worker, running, or waiting for its data to be loaded; retrying: its
     * last run failed or its worker died, and it runs again; failed: for good (error_code,
     * failure_reason, failed_timestamp); ready: the file is at download_url until
     * expires_timestamp. awaiting_configuration is not used by this service (no export waits on
     * configuration); it stays in the enumeration because the interface lists it.
     *
     */
    status: ExportStatus;
    /**
     * Increases with every state change.
     */
    revision: number;
    created_timestamp: UnixMs;
    /**
     * File size once ready (bytes, as stored and sent: compressed for csv).
     */
    bytes?: number;
    /**
     * Relative URL of the file once ready.
     */
    download_url?: string;
    /**
     * The endpoint's error code (such as no_data or invalid_parameter); export_too_large when an answer that is not rows passes 64 MiB; data_pending when its data was still loading after 30 minutes; internal_error after three failed runs.
     */
    error_code?: string;
    /**
     * When the file of a ready export is deleted (24 hours after it was ready); its download answers 410 after it.
     */
    expires_timestamp?: UnixMs;
    /**
     * Failure description when failed.
     */
    failure_reason?: string;
    failed_timestamp?: UnixMs;
    last_attempt_timestamp?: UnixMs;
    /**
     * Pages of the endpoint read, once ready.
     */
    pages?: number;
    /**
     * Summary of what the file holds, once ready.
     */
    resolution?: string;
    /**
     * Rows in the file, once ready.
     */
    rows?: number;
    /**
     * Once ready: true when rows were cut at the row or size limit.
     */
    truncated?: boolean;
};
/**
 * ExportFormat
 *
 * Format of an export file: json (one JSON document), csv (gzip-compressed CSV, RFC 4180) or parquet (Apache Parquet); see POST /v1/exports.
 */
export type ExportFormat = 'json' | 'csv' | 'parquet';
/**
 * ExportJobResponse
 */
export type ExportJobResponse = {
    /**
     * The export job.
     */
    data: ExportJob;
    /**
     * Only the request id.
     */
    meta: RequestMeta;
};
/**
 * ExportFile
 */
export type ExportFile = {
    /**
     * The rows (or object) of the exported endpoint.
     */
    data: unknown;
    /**
     * The meta of the first page read, with the export id.
     */
    meta: ExportFileMeta;
    /**
     * Pages of the endpoint read.
     */
    pages: number;
    /**
     * True when rows were cut at the row or size limit.
     */
    truncated: boolean;
};
/**
 * ErrorCode
 *
 * Machine-readable error code.
 */
export type ErrorCode = 'invalid_parameter' | 'invalid_cursor' | 'invalid_body' | 'unauthorized' | 'forbidden' | 'account_suspended' | 'not_found' | 'method_not_allowed' | 'no_data' | 'export_not_ready' | 'export_expired' | 'export_too_large' | 'rate_limited' | 'burst_limited' | 'cooldown' | 'export_limit' | 'internal_error' | 'data_pending' | 'upstream_busy' | 'upstream_timeout' | 'upgrade_required';
/**
 * ErrorResponse
 */
export type ErrorResponse = {
    /**
     * The error.
     */
    error: ApiError;
};
/**
 * Coverage
 */
export type Coverage = {
    /**
     * False when the answer holds less than the query asks of this page: a print page whose scan ended before the page filled (scan_complete false), or a contract implied-volatility page with buckets that hold no sample (see reason).
     */
    complete: boolean;
    /**
     * Print feeds: false when the scan budget ran out before the page filled; the page is then not complete either, and its cursor continues the scan.
     */
    scan_complete?: boolean;
    /**
     * Usage: false when the request log is held only in memory and resets on restart.
     */
    durable?: boolean;
    /**
     * Why complete is false, when a route says more than the flags above: contract implied-volatility history names how many buckets of the page's span hold no quote sample.
     */
    reason?: string;
};
/**
 * DataSource
 *
 * Origin of the figures: opra (option prints and quotes of the options feed, as loaded), sip (consolidated equity feed), cme (CME Globex market data of the futures, as loaded), derived (computed by the service from other data, or not market data).
 */
export type DataSource = 'opra' | 'sip' | 'cme' | 'derived';
/**
 * PrintFlag
 *
 * A condition flag of a print; see `flags` of OptionPrint.
 */
export type PrintFlag = 'iso' | 'auction' | 'cross' | 'floor' | 'complex' | 'tied' | 'implied' | 'ext_hours' | 'late' | 'cancelled' | 'aggressor_hint' | 'post_cash_close' | 'vol_gt_oi' | 'size_gt_oi' | 'no_side';
/**
 * Sentiment
 *
 * bullish (calls bought or puts sold: an ask-side print of a call, a bid-side print of a put), bearish (puts bought or calls sold), neutral (a mid print), unknown (side unknown).
 */
export type Sentiment = 'bullish' | 'bearish' | 'neutral' | 'unknown';
/**
 * PrintSession
 *
 * Session of the print: rth (09:30 to the options close), gth (overnight, 20:15 ET the evening before to 09:25 ET; the print belongs to the next trading date), curb (16:15-17:00 ET for SPX, XSP and VIX options), other (any other time).
 */
export type PrintSession = 'rth' | 'gth' | 'curb' | 'other';
/**
 * PrintSide
 *
 * Where the price lies against the NBBO in force; see `side` of OptionPrint for the bands.
 */
export type PrintSide = 'above_ask' | 'at_ask' | 'near_ask' | 'mid' | 'near_bid' | 'at_bid' | 'below_bid' | 'unknown';
/**
 * PrintTradeType
 *
 * multileg (a complex order leg), cross, floor, sweep (an order filled on two or more exchanges), split (an order filled in parts on one exchange), or single; in that order of precedence.
 */
export type PrintTradeType = 'sweep' | 'split' | 'single' | 'multileg' | 'cross' | 'floor';
/**
 * RecordedTrade
 */
export type RecordedTrade = {
    /**
     * Numeric sale condition code.
     */
    condition: number;
    /**
     * Numeric exchange code.
     */
    exchange: number;
    /**
     * Further condition codes; empty when none.
     */
    extended_conditions: Array<number>;
    /**
     * Price per contract in dollars: price_per_share times the contract multiplier (100 for a standard contract).
     */
    price: number;
    /**
     * Execution price per share, as quoted and as a print's price on the trades route.
     */
    price_per_share: number;
    /**
     * Sequence number in the consolidated feed.
     */
    sequence: number;
    /**
     * Contracts traded.
     */
    size: number;
    timestamp: UnixMs;
};
/**
 * SkewPoint
 */
export type SkewPoint = {
    /**
     * Spot delta of the call at its mid volatility; null without that volatility or an underlying price.
     */
    call_delta: number | null;
    /**
     * Implied volatility of the call's mid; null without a mid or when no volatility reprices it.
     */
    call_implied_volatility: number | null;
    /**
     * ln(strike / forward); null when the forward is unknown.
     */
    moneyness: number | null;
    /**
     * Mid volatility of the out-of-the-money leg: the put below the forward, the call at or above it.
     */
    otm_implied_volatility: number | null;
    /**
     * Spot delta of the put at its mid volatility; null without that volatility or an underlying price.
     */
    put_delta: number | null;
    /**
     * Implied volatility of the put's mid; null without a mid or when no volatility reprices it.
     */
    put_implied_volatility: number | null;
    /**
     * The fitted smile's volatility at the strike, σ = √(w(k)/T) with k = ln(strike / forward): the one volatility the levels and heat map routes value both of this strike's contracts at; null without a smile or forward.
     */
    smile_implied_volatility: number | null;
    /**
     * Strike in USD.
     */
    strike: number;
};
/**
 * SmileFallbackReason
 */
export type SmileFallbackReason = 'too_few_quotes' | 'fit_failed' | 'butterfly_arbitrage' | 'calendar_arbitrage';
/**
 * SmileFitMethod
 */
export type SmileFitMethod = 'svi' | 'interpolated';
/**
 * OpenInterestGrouping
 *
 * strike: one row per strike (summed over the selected expirations); expiration: one row per expiration (summed over strikes).
 */
export type OpenInterestGrouping = 'strike' | 'expiration';
/**
 * OpenInterestRow
 */
export type OpenInterestRow = {
    /**
     * Call open interest (contracts).
     */
    call_open_interest: number;
    /**
     * Put open interest (contracts).
     */
    put_open_interest: number;
    /**
     * Calls plus puts (contracts).
     */
    total_open_interest: number;
    /**
     * Present only when grouped by strike.
     */
    strike?: number;
    /**
     * Present only when grouped by expiration.
     */
    date_of_expiry?: string;
};
/**
 * OpenInterestTotals
 */
export type OpenInterestTotals = {
    /**
     * Call open interest over all rows (contracts).
     */
    call: number;
    /**
     * Put open interest over all rows (contracts).
     */
    put: number;
    /**
     * put over call; null without call open interest.
     */
    put_call_ratio: number | null;
};
/**
 * DriftInterval
 *
 * Bucket length: one or five minutes.
 */
export type DriftInterval = '1m' | '5m';
/**
 * VolatilityDriftPoint
 */
export type VolatilityDriftPoint = {
    /**
     * Realized volatility of the underlying's one-minute log returns from the window's open to the bucket's end, scaled to a day by the window's share of daily variance and annualised over 252 days (decimal); null before five returns.
     */
    adjusted_realized_volatility: number | null;
    /**
     * At-the-money (k = 0) implied volatility on the calendar clock (ACT/365), from the bucket's quotes (decimal); null when no forward or volatility is found.
     */
    implied_volatility: number | null;
    /**
     * 30-day constant-maturity volatility, Cboe VIX weighting of the two expirations that bracket 30 days (decimal); null when either is missing.
     */
    implied_volatility_30d: number | null;
    /**
     * The same total variance as implied_volatility over the years to settlement on the trading-variance clock, √(w/τ) (decimal); null with it.
     */
    implied_volatility_trading_clock: number | null;
    timestamp: UnixMs;
    /**
     * Close of the last underlying bar ended by the bucket's end (USD); null when none.
     */
    underlying_price: number | null;
};
/**
 * RealizedVolatilityBasis
 *
 * How the regular session's share of a day's variance was estimated for the realized volatility and the trading-variance clock.
 */
export type RealizedVolatilityBasis = {
    /**
     * Sessions of history the share was estimated from (up to 30).
     */
    days: number;
    /**
     * True when fewer than 10 sessions were available and the default share 0.75 was used.
     */
    default_used: boolean;
    /**
     * Share of a day's variance that falls in the regular session, Σ intraday² / Σ(overnight gap² + intraday²) of the sessions' log returns; null when it cannot be determined.
     */
    regular_session_share: number | null;
};
/**
 * Greek
 *
 * The greek whose exposure is measured.
 */
export type Greek = 'gamma' | 'delta' | 'vanna' | 'charm';
/**
 * ExpectedMove
 */
export type ExpectedMove = {
    /**
     * The nearest expiration with contracts still to settle.
     */
    date_of_expiry: string;
    /**
     * S·σ·√T in USD, σ the smile at the forward and T the ACT/365 years to settlement; null without σ.
     */
    expected_move: number | null;
    /**
     * σ: the fitted smile at the forward (k = 0), decimal; null without a smile.
     */
    implied_volatility: number | null;
    /**
     * [S − m, S + m], m the expected move (or straddle_expected_move when σ is unknown).
     */
    one_sigma_band: [
        number,
        number
    ];
    /**
     * Mid of the call plus mid of the put at the listed strike nearest S where both have a mid (the lower on a tie), USD per share; null when none.
     */
    straddle: number | null;
    /**
     * 0.85 × straddle (USD); null with it.
     */
    straddle_expected_move: number | null;
    /**
     * [S − 2m, S + 2m].
     */
    two_sigma_band: [
        number,
        number
    ];
};
/**
 * MaxPain
 */
export type MaxPain = {
    /**
     * The nearest expiration with contracts still to settle.
     */
    date_of_expiry: string;
    /**
     * The listed strike K* minimising Σ_calls OI·max(K* − K, 0) + Σ_puts OI·max(K − K*, 0) (USD).
     */
    strike: number;
};
/**
 * RegimeLabel
 *
 * positive when regime.ratio >= 0.05, negative when <= -0.05, otherwise neutral (also when there is no exposure).
 */
export type RegimeLabel = 'positive' | 'negative' | 'neutral';
/**
 * PriceVersusFlip
 *
 * Where the underlying price lies against gamma_flip: above (at or above), below, or none when there is no flip.
 */
export type PriceVersusFlip = 'above' | 'below' | 'none';
/**
 * GammaRegime
 *
 * Net and absolute modeled exposure of the selected contracts to the requested greek, and their ratio.
 */
export type GammaRegime = {
    /**
     * Σ|value| of the contracts' exposure to the requested greek (a strike's calls and puts do not offset), in the response's unit and perspective; null without contracts.
     */
    absolute: number | null;
    /**
     * Regime label from ratio.
     */
    label: RegimeLabel;
    /**
     * Σ value of the contracts' exposure to the requested greek, in the response's unit and perspective; null without contracts.
     */
    net: number | null;
    /**
     * net / absolute; null when absolute is 0 or null.
     */
    ratio: number | null;
    /**
     * above when the underlying price S >= gamma_flip, below when S < gamma_flip, none without a flip.
     */
    underlying_vs_gamma_flip: PriceVersusFlip;
};
/**
 * VannaLevels
 */
export type VannaLevels = {
    /**
     * Strike of the largest positive net vanna (USD); null when none is positive.
     */
    max: number | null;
    /**
     * Strike of the most negative net vanna (USD); null when none is negative.
     */
    min: number | null;
};
/**
 * Levels
 *
 * Levels read off the modeled exposure by strike (see the levels route's description for each rule). A strike level is null when no strike qualifies.
 */
export type Levels = {
    /**
     * Strike of the largest positive call exposure (USD); null when none is positive.
     */
    call_wall: number | null;
    /**
     * Among strikes at or above the underlying price, the strike of the largest positive net exposure; null when none.
     */
    call_wall_above: number | null;
    /**
     * Strike of the largest absolute net charm; null unless include names charm.
     */
    charm_max_absolute_strike: number | null;
    /**
     * Strike of the largest absolute net delta; null unless include names delta.
     */
    delta_key_strike: number | null;
    /**
     * Expected move of the nearest expiration; null when no expiration is still to settle.
     */
    expected_move: null | ExpectedMove;
    /**
     * Of gamma_flip_candidates, the underlying price nearest S at which net modeled gamma changes sign (sticky strike: each contract keeps its volatility); null when it keeps one sign over 0.8·S to 1.2·S. A model estimate.
     */
    gamma_flip: number | null;
    /**
     * Every price in 0.8·S to 1.2·S where net modeled gamma changes sign, ascending (801 samples, each crossing refined by bisection to 1e-10·S).
     */
    gamma_flip_candidates: Array<number>;
    /**
     * gamma_flip with the contracts expiring on the trading date left out; null when there is none.
     */
    gamma_flip_excluding_0dte: number | null;
    /**
     * True when net gamma keeps one sign over the whole sweep (0.8·S to 1.2·S), so any flip lies beyond it; null when there is no gamma.
     */
    gamma_flip_far_from_underlying: boolean | null;
    /**
     * Σ positive call gamma exposure over |Σ negative put gamma exposure|, by strike; null when there is no negative put exposure.
     */
    gamma_tilt: number | null;
    /**
     * Strikes from the underlying price towards the peak net exposure (S's side inclusive, the peak excluded) whose |net| is at least gatekeeper_ratio × |peak net|, in the order met from S.
     */
    gatekeepers: Array<number>;
    /**
     * Strike of the largest |call| + |put| exposure; null when every value is 0.
     */
    largest_absolute_strike: number | null;
    /**
     * The (expiration, strike) cell of largest |net| exposure (ties: the earlier expiration, then the lower strike); null when every value is 0.
     */
    largest_cell: null | ExpiryCell;
    /**
     * Strike of the most negative net exposure, anywhere; null when none is negative.
     */
    major_negative: number | null;
    /**
     * Strike of the largest positive net exposure, anywhere; null when none is positive.
     */
    major_positive: number | null;
    /**
     * Max pain of the nearest expiration; null when no expiration is still to settle.
     */
    max_pain: null | MaxPain;
    /**
     * Σ|gamma exposure| of the nearest expiration over Σ|gamma exposure| of all selected (0 to 1); null when there is no gamma.
     */
    next_expiration_share: number | null;
    /**
     * The strike of the largest |net| exposure and its signed net; null when every value is 0.
     */
    peak_net_exposure: null | StrikeValue;
    /**
     * Strike of the most negative put exposure (USD); null when none is negative.
     */
    put_wall: number | null;
    /**
     * Among strikes at or below the underlying price, the strike of the most negative net exposure; null when none.
     */
    put_wall_below: number | null;
    /**
     * Net against absolute exposure, and the label.
     */
    regime: GammaRegime;
    /**
     * Strikes of the extreme net vanna; null unless include names vanna.
     */
    vanna_levels: null | VannaLevels;
};
/**
 * RankedStrikes
 *
 * Per leg, the five strikes of largest absolute exposure (zero values left out), largest first.
 */
export type RankedStrikes = {
    /**
     * Call leg, largest |value| first.
     */
    calls: Array<RankedStrike>;
    /**
     * Put leg, largest |value| first.
     */
    puts: Array<RankedStrike>;
    /**
     * Net (call + put), largest |value| first.
     */
    net: Array<RankedStrike>;
    /**
     * |call| + |put|, largest first.
     */
    gross: Array<RankedStrike>;
};
/**
 * HeatmapCell
 */
export type HeatmapCell = {
    /**
     * Expiration (column).
     */
    date_of_expiry: string;
    /**
     * Calendar days from the trading date to the expiration.
     */
    days_to_expiry: number;
    /**
     * Strike (row) in USD.
     */
    strike: number;
    /**
     * The metric summed over the cell's contracts of the leg (every root of that date at that strike); on the net leg calls plus puts for the greeks and net_premium, calls minus puts for open_interest, volume, premium and trades; 0 when a listed contract has nothing to show. Exposure in the response's unit; open_interest, volume and trades in contracts or prints; premium and net_premium in USD.
     */
    value: number;
};
/**
 * ExpirationWindow
 *
 * The expirations (columns) of the grid shown among those selected.
 */
export type ExpirationWindow = {
    /**
     * Expirations shown (at most max_expirations).
     */
    count: number;
    /**
     * Index of the first shown among the selected (expiration_offset).
     */
    offset: number;
    /**
     * Expirations selected.
     */
    total_expirations: number;
};
/**
 * HeatmapLeg
 *
 * net (calls and puts combined), call or put.
 */
export type HeatmapLeg = 'net' | 'call' | 'put';
/**
 * StrikeRange
 *
 * The strikes (rows) of the grid shown.
 */
export type StrikeRange = {
    /**
     * Highest strike shown (USD); null without a cell.
     */
    highest_strike: number | null;
    /**
     * Lowest strike shown (USD); null without a cell.
     */
    lowest_strike: number | null;
    /**
     * Strikes shown.
     */
    total_strikes: number;
};
/**
 * SplitType
 *
 * forward when split_to > split_from, reverse when split_to < split_from, other when equal.
 */
export type SplitType = 'forward' | 'reverse' | 'other';
/**
 * AssetClass
 *
 * Asset class of a session window.
 */
export type AssetClass = 'stocks' | 'options' | 'futures';
/**
 * MarketSessionName
 *
 * Session name: stocks pre_market, regular, after_hours; options regular, overnight, curb; futures globex.
 */
export type MarketSessionName = 'pre_market' | 'regular' | 'after_hours' | 'overnight' | 'curb' | 'globex';
/**
 * SessionHours
 *
 * regular, or early_close on a day the market closes early (13:00 ET).
 */
export type SessionHours = 'regular' | 'early_close';
/**
 * CalendarDayStatus
 *
 * open (a regular day), early_close (a close before 16:00 ET), closed (a weekend or holiday).
 */
export type CalendarDayStatus = 'open' | 'early_close' | 'closed';
/**
 * RouteUsage
 */
export type RouteUsage = {
    /**
     * Response bytes sent on the route, after compression.
     */
    bytes_out: Count;
    /**
     * Responses with status 400 to 499.
     */
    client_errors: Count;
    /**
     * Responses with status 500 or above.
     */
    errors: Count;
    /**
     * Responses with status 429.
     */
    rate_limited: Count;
    /**
     * Requests received.
     */
    requests: Count;
    /**
     * Route template (such as /v1/exports/{id}).
     */
    route: string;
};
/**
 * CatalogDataset
 *
 * Dataset release a route needs, or none (platform, account and market routes).
 */
export type CatalogDataset = 'options' | 'futures' | 'equities' | 'indices' | 'none';
/**
 * CatalogParameterType
 *
 * Type of a catalog parameter: string, int, number, decimal (a number with at most three decimals, such as a strike), bool, ms (Unix ms), date (YYYY-MM-DD), enum, list (comma-separated; see item).
 */
export type CatalogParameterType = 'string' | 'int' | 'number' | 'decimal' | 'bool' | 'ms' | 'date' | 'enum' | 'list';
/**
 * CatalogParameter
 */
export type CatalogParameter = {
    /**
     * Parameter name.
     */
    name: string;
    /**
     * Parameter type.
     */
    type: CatalogParameterType;
    /**
     * Whether the route needs it.
     */
    required: boolean;
    /**
     * Meaning, as in this document.
     */
    description: string;
    /**
     * Default value; absent when none.
     */
    default?: unknown;
    /**
     * Allowed values (enum, or the items of a list of enum).
     */
    enum?: Array<string>;
    /**
     * Type of a list's items.
     */
    item?: string;
    /**
     * Largest value allowed.
     */
    max?: number;
    /**
     * Smallest value allowed.
     */
    min?: number;
    /**
     * Most items of a list.
     */
    max_items?: number;
};
/**
 * Entitlements
 *
 * Entitlements granted beyond the plan.
 */
export type Entitlements = {
    /**
     * Overnight data and instants (Pro plan or granted).
     */
    overnight: boolean;
};
/**
 * AccountStatus
 *
 * active, or suspended (every data request then answers 403 account_suspended).
 */
export type AccountStatus = 'active' | 'suspended';
/**
 * ApiKeyInfo
 *
 * The API key that made this request (never the key itself).
 */
export type ApiKeyInfo = {
    /**
     * Key id.
     */
    id: string;
    /**
     * The visible prefix of the key, for support.
     */
    prefix: string;
    /**
     * Name given when the key was made; null when none.
     */
    name: string | null;
    created_timestamp: UnixMs;
};
/**
 * RateWindow
 *
 * A rolling request window of the account.
 */
export type RateWindow = {
    /**
     * Requests the window allows.
     */
    limit: number;
    /**
     * Requests left in the window now.
     */
    remaining: number;
    reset: UnixMs;
};
/**
 * InFlightLimit
 *
 * The account's simultaneous requests.
 */
export type InFlightLimit = {
    /**
     * Simultaneous requests allowed.
     */
    limit: number;
    /**
     * Requests in flight now, this one included.
     */
    current: number;
};
/**
 * ServiceStatus
 */
export type ServiceStatus = 'ok' | 'degraded';
/**
 * DatabaseStatus
 */
export type DatabaseStatus = 'ok' | 'down';
/**
 * ExportsStatus
 */
export type ExportsStatus = 'ok' | 'paused';
/**
 * ReplicaHealth
 *
 * A read replica: whether it serves reads, and how far it is behind the primary.
 */
export type ReplicaHealth = {
    /**
     * host:port/database of the replica (no credentials).
     */
    name: string;
    /**
     * up: in rotation; down: left out (its health poll or a read failed, or it is more than 30 s behind); taken back once a poll succeeds within 30 s of lag.
     */
    status: ReplicaState;
    /**
     * Bytes of WAL the primary has written that the replica has not replayed (the primary's pg_current_wal_lsn() against the replica's pg_last_wal_replay_lsn()); null when unknown (down).
     */
    lag_bytes: number | null;
    /**
     * Seconds since the last transaction the replica replayed while it is behind (pg_last_xact_replay_timestamp()); 0 when it has replayed all the primary wrote; null when unknown.
     */
    lag_seconds: number | null;
    /**
     * Whether its replay is paused (pg_wal_replay_pause()); null when unknown.
     */
    replay_paused: boolean | null;
    /**
     * Statements it has served for the process that answered, since that process started.
     */
    reads: number;
};
/**
 * ReplicaState
 */
export type ReplicaState = 'up' | 'down';
/**
 * DatabaseHealth
 *
 * Whether the database answers, and how fast.
 */
export type DatabaseHealth = {
    /**
     * down when the database does not answer (the service reconnects by itself).
     */
    status: DatabaseStatus;
    /**
     * Round trip of a trivial query; null when down.
     */
    latency_ms: number | null;
};
/**
 * DatasetFreshness
 */
export type DatasetFreshness = {
    /**
     * Dataset: options.prints, options.quotes, options.open_interest, equities.bars, indices.bars, equities.splits, futures.trades (CME equity-index futures trades), futures.bars (their one-minute bars) or futures.settlements (their daily settlements, open interest and cleared volume).
     */
    dataset: string;
    /**
     * Time of the newest row (Unix ms): the newest print not cancelled, the newest futures trade, the newest bar's start, or for futures.settlements the publication time of the newest trade date's settlement; null for date-only datasets or when empty.
     */
    newest_timestamp: number | null;
    /**
     * Date of the newest data (trading date, New York date of the newest bar; for the futures datasets the CME trade date, which for a Globex evening is the next day); null when empty.
     */
    newest_date: string | null;
    /**
     * Approximate row count.
     */
    rows: number | null;
};
/**
 * ExportQuery
 *
 * The query of the exported endpoint: parameter name to value, at most 32 entries.
 */
export type ExportQuery = {
    [key: string]: ExportQueryValue;
};
/**
 * ExportStatus
 *
 * State of an export job; see `status` of ExportJob.
 */
export type ExportStatus = 'queued' | 'retrying' | 'awaiting_configuration' | 'failed' | 'ready';
/**
 * RequestMeta
 *
 * The meta of an export job answer: only the request id.
 */
export type RequestMeta = {
    /**
     * Identifier of this request (X-Request-Id).
     */
    request_id: string;
};
/**
 * ExportFileMeta
 *
 * The meta of the exported endpoint's first page, with the export id.
 */
export type ExportFileMeta = {
    [key: string]: unknown;
};
/**
 * ParameterError
 */
export type ParameterError = {
    /**
     * Parameter name (query.name for export bodies).
     */
    parameter: string;
    /**
     * What is wrong with it.
     */
    message: string;
};
/**
 * ApiError
 *
 * What went wrong, for people (message) and programs (code, details).
 */
export type ApiError = {
    code: ErrorCode;
    /**
     * A sentence for people; never internals.
     */
    message: string;
    /**
     * HTTP status of the response.
     */
    status: number;
    /**
     * Identifier of this request (X-Request-Id); quote it to support.
     */
    request_id: string;
    /**
     * One element per bad parameter (400); empty otherwise.
     */
    details: Array<ParameterError>;
    /**
     * Milliseconds to wait (429 and 503); null otherwise.
     */
    retry_after_ms: number | null;
};
/**
 * RegularOrGlobalSession
 */
export type RegularOrGlobalSession = 'rth' | 'gth';
/**
 * SessionFilter
 */
export type SessionFilter = 'rth' | 'gth' | 'all';
/**
 * ExpiryMode
 */
export type ExpiryMode = '0dte' | '1dte' | 'weekly' | 'monthly' | 'lte30' | 'lte90';
/**
 * TradeTypeFilter
 */
export type TradeTypeFilter = 'sweep' | 'block' | 'split' | 'single' | 'golden' | 'multileg' | 'cross' | 'floor' | 'auction' | 'iso';
/**
 * SideFilter
 */
export type SideFilter = 'above_ask' | 'at_ask' | 'near_ask' | 'ask' | 'mid' | 'near_bid' | 'at_bid' | 'bid' | 'below_bid' | 'unknown';
/**
 * CoarseSideFilter
 */
export type CoarseSideFilter = 'above_ask' | 'ask' | 'mid' | 'bid' | 'below_bid' | 'unknown';
/**
 * LeaderGrain
 */
export type LeaderGrain = 'root' | 'contract';
/**
 * LeaderSort
 */
export type LeaderSort = 'net' | 'bullish' | 'bearish' | 'premium' | 'volume' | 'trades' | 'change_percent';
/**
 * SortOrder
 */
export type SortOrder = 'desc' | 'asc';
/**
 * PremiumDriftInterval
 */
export type PremiumDriftInterval = '1m' | '5m' | '15m' | '30m' | '1h';
/**
 * VolatilityInterval
 */
export type VolatilityInterval = '1m' | '5m' | '10m' | '15m' | '30m' | '1h';
/**
 * LevelsExtra
 */
export type LevelsExtra = 'vanna' | 'charm' | 'delta';
/**
 * HeatmapMetric
 */
export type HeatmapMetric = 'gamma' | 'delta' | 'vanna' | 'charm' | 'open_interest' | 'volume' | 'premium' | 'net_premium' | 'trades';
/**
 * UsageGranularity
 */
export type UsageGranularity = 'hour' | 'day';
/**
 * DocumentInfo
 *
 * The document's info object.
 */
export type DocumentInfo = {
    [key: string]: unknown;
};
/**
 * OpenApiPaths
 *
 * The routes of the contract.
 */
export type OpenApiPaths = {
    [key: string]: unknown;
};
/**
 * AsyncApiChannels
 *
 * The channels of the streams.
 */
export type AsyncApiChannels = {
    [key: string]: unknown;
};
/**
 * FlowLeadersResponse
 */
export type FlowLeadersResponse = {
    /**
     * Ranked rows; each carries underlying_symbol and the fields of its grain only.
     */
    data: Array<FlowLeaderRow>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * PremiumDriftResponse
 */
export type PremiumDriftResponse = {
    /**
     * Buckets that have started, oldest first.
     */
    data: Array<PremiumDriftBucket>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * ImpliedVolatilityPage
 */
export type ImpliedVolatilityPage = {
    /**
     * Samples of this page, oldest first.
     */
    data: Array<ImpliedVolatilitySample>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * TradeAtTimeResponse
 */
export type TradeAtTimeResponse = {
    /**
     * The contract and its last trade at or before the instant.
     */
    data: TradeAtTime;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * IndexTenor
 *
 * Tenor of a volatility index: 1, 9 or 30 calendar days.
 */
export type IndexTenor = '1d' | '9d' | '30d';
/**
 * IndexVolatility
 *
 * A volatility index computed by this service from its stored option chains by the method of Cboe's VIX white paper (a model, never Cboe's published index), with its inputs.
 */
export type IndexVolatility = {
    /**
     * What the value is, in words: a model computed by this service, never Cboe's published index.
     */
    label: string;
    /**
     * Always false: this is not an index published by Cboe (VIX, VIX9D, VIX1D), only the same method applied to this service's data.
     */
    published_index: boolean;
    /**
     * The method's source.
     */
    method_source: string;
    /**
     * Family or root as requested, upper-cased.
     */
    underlying_symbol: string;
    /**
     * The roots whose expirations were considered (the family's, or `root` alone).
     */
    roots: Array<string>;
    /**
     * Trading date valued.
     */
    trading_date: string;
    /**
     * Tenor of the index.
     */
    tenor: IndexTenor;
    /**
     * The tenor in minutes (N_tenor).
     */
    tenor_minutes: number;
    /**
     * The index: 100 × √variance (annualised volatility in percent points).
     */
    value: number;
    /**
     * Annualised variance at the tenor (step 7, before the square root).
     */
    variance: number;
    /**
     * How the terms were combined.
     */
    method: IndexVolatilityMethod;
    /**
     * The interpolation weights.
     */
    weights: IndexInterpolationWeights;
    /**
     * The near term (settling less than the tenor after the valuation instant); null for nearest_term.
     */
    near_term: IndexVolatilityTerm | null;
    /**
     * The next term (the first settling at or after the tenor).
     */
    next_term: IndexVolatilityTerm;
    /**
     * When and on what the chain was valued.
     */
    valuation: IndexVolatilityValuation;
    /**
     * Every listed expiration (root and date) settling after the valuation instant, nearest first, with its own value.
     */
    term_structure: Array<IndexTermPoint>;
};
/**
 * IndexVolatilityTerm
 *
 * One expiration's model-free variance (steps 1 to 6 of the route's method) with every input.
 */
export type IndexVolatilityTerm = {
    /**
     * Option root of the expiration.
     */
    root: string;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * am: settles at the 09:30 ET open of the expiration date; pm: at the close.
     */
    settlement_style: SettlementTime;
    /**
     * Settlement instant (Unix ms).
     */
    settles_at: number;
    /**
     * N: New York wall-clock minutes from the valuation time to settlement.
     */
    minutes: number;
    /**
     * T = N / 525,600.
     */
    years: number;
    /**
     * R, continuously compounded.
     */
    rate: number;
    /**
     * e^{RT}.
     */
    growth: number;
    /**
     * K*: the strike where |C − P| of the mids is smallest.
     */
    forward_strike: number;
    /**
     * The call mid C at K*.
     */
    forward_call: number;
    /**
     * The put mid P at K*.
     */
    forward_put: number;
    /**
     * F = K* + e^{RT}(C − P).
     */
    forward: number;
    /**
     * K0: the greatest listed strike at or below F.
     */
    k0: number;
    /**
     * The strikes used, ascending.
     */
    strikes: Array<IndexStrikeContribution>;
    /**
     * Quotes without a mid the walks skipped before they stopped or ran out, ascending.
     */
    skipped: Array<IndexSkippedQuote>;
    /**
     * The strike of the second consecutive zero bid where the put walk stopped; null when it ran off the chain.
     */
    put_walk_stopped_at: number | null;
    /**
     * The strike where the call walk stopped likewise; null when it ran off the chain.
     */
    call_walk_stopped_at: number | null;
    /**
     * Σ contributions.
     */
    sum: number;
    /**
     * (1/T)(F/K0 − 1)².
     */
    forward_term: number;
    /**
     * σ² = (2/T)·sum − forward_term.
     */
    variance: number;
    /**
     * The expiration's own index 100 × √σ².
     */
    value: number;
};
/**
 * IndexStrikeContribution
 *
 * One strike of an expiration's sum.
 */
export type IndexStrikeContribution = {
    /**
     * K_i.
     */
    strike: number;
    /**
     * Which quote priced it: the put below K0, the call above, the average of both mids at K0.
     */
    side: IndexStrikeSide;
    /**
     * Q(K_i): the mid (the average of the call and put mids at K0).
     */
    price: number;
    /**
     * ΔK_i.
     */
    delta_k: number;
    /**
     * ΔK_i/K_i² · e^{RT} · Q(K_i).
     */
    contribution: number;
};
/**
 * IndexTermPoint
 *
 * One listed expiration's own value, or why it has none.
 */
export type IndexTermPoint = {
    /**
     * Option root.
     */
    root: string;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * Settlement instant (Unix ms).
     */
    settles_at: number;
    /**
     * N: wall-clock minutes from the valuation time to settlement.
     */
    minutes: number;
    /**
     * Whether the requested tenor's rule counts this expiration (see the route's description).
     */
    counts_for_tenor: boolean;
    /**
     * 100 × √σ² of the expiration alone; null when refused.
     */
    value: number | null;
    /**
     * σ² of the expiration (step 6); null when refused.
     */
    variance: number | null;
    /**
     * Why the expiration has no value (e.g. no_parity_strike: no strike with both mids; empty_wing: no out-of-the-money quote with a bid); null when it has one.
     */
    refusal: IndexTermRefusal | null;
};
/**
 * IndexVolatilityMethod
 *
 * interpolated: between a near term before the tenor and a next term at or after it; nearest_term: no expiration settles before the tenor, the nearest term's variance is held flat from now (near_term null).
 */
export type IndexVolatilityMethod = 'interpolated' | 'nearest_term';
/**
 * IndexInterpolationWeights
 *
 * The interpolation weights w1 = (N2 − N_tenor)/(N2 − N1) and w2 = (N_tenor − N1)/(N2 − N1) (N1 = 0 for nearest_term).
 */
export type IndexInterpolationWeights = {
    /**
     * Weight of the near term's total variance T1σ1².
     */
    near: number;
    /**
     * Weight of the next term's total variance T2σ2².
     */
    next: number;
};
/**
 * IndexVolatilityValuation
 *
 * When and on what the chain was valued.
 */
export type IndexVolatilityValuation = {
    /**
     * Valuation time (Unix ms): the end of the chain's minute, not after the instant; minutes to settlement run from it.
     */
    timestamp: number;
    /**
     * Time of the newest quote read (Unix ms).
     */
    chain_timestamp: number | null;
    /**
     * R: the continuously compounded (ACT/365) rate of the service's rate table for the trading date, used for every expiration.
     */
    risk_free_rate: number;
};
/**
 * IndexSkippedQuote
 *
 * A quote without a mid that a walk skipped.
 */
export type IndexSkippedQuote = {
    /**
     * Strike.
     */
    strike: number;
    /**
     * The side skipped.
     */
    side: ContractType;
};
/**
 * IndexStrikeSide
 *
 * Which quote priced a strike: the put below K0, the call above, the average of both mids at K0.
 */
export type IndexStrikeSide = 'put' | 'call' | 'average';
/**
 * IndexTermRefusal
 *
 * Why an expiration has no value of its own.
 */
export type IndexTermRefusal = {
    /**
     * The reason's code.
     */
    reason: string;
    /**
     * A sentence naming the expiration and what was missing.
     */
    detail: string;
};
/**
 * IndexVolatilityResponse
 */
export type IndexVolatilityResponse = {
    /**
     * The volatility index.
     */
    data: IndexVolatility;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * IndexVolatilityBar
 *
 * One bar of a computed volatility index's per-minute series (a model by the VIX white paper's method, never Cboe's published index).
 */
export type IndexVolatilityBar = {
    /**
     * Bucket start, Unix ms (1d: the session's start).
     */
    timestamp: number;
    /**
     * The trading date of the minutes.
     */
    trading_date: string;
    /**
     * Family or root as requested, upper-cased.
     */
    underlying_symbol: string;
    /**
     * The one root the index is restricted to; null for the whole family.
     */
    root: string | null;
    /**
     * Tenor of the index.
     */
    tenor: IndexTenor;
    /**
     * What the values are, in words: a model computed by this service, never Cboe's published index.
     */
    label: string;
    /**
     * Always false: not an index published by Cboe.
     */
    published_index: boolean;
    /**
     * The first minute's value (index points).
     */
    open: number;
    /**
     * The greatest minute value.
     */
    high: number;
    /**
     * The least minute value.
     */
    low: number;
    /**
     * The last minute's value.
     */
    close: number;
    /**
     * Minute values the bar was made from.
     */
    minutes: number;
    /**
     * Start of the minute whose value is the close, Unix ms (the value is the index at its end).
     */
    close_timestamp: number;
    /**
     * The inputs of the close's minute, summarised.
     */
    close_inputs: IndexMinuteInputs;
};
/**
 * IndexMinuteInputs
 *
 * The inputs of one minute's value, summarised (the whole set: `/v1/indices/volatility` with `at` at the minute's end).
 */
export type IndexMinuteInputs = {
    /**
     * Valuation time (Unix ms): the end of the chain's minute.
     */
    valuation_timestamp: number;
    /**
     * Time of the newest quote read (Unix ms).
     */
    chain_timestamp: number | null;
    /**
     * R of the rate table.
     */
    risk_free_rate: number | null;
    /**
     * How the terms were combined; null for a refused minute.
     */
    method: IndexVolatilityMethod | null;
    /**
     * The near term (T1); null for nearest_term.
     */
    near_term: IndexMinuteTerm | null;
    /**
     * The next term (T2).
     */
    next_term: IndexMinuteTerm | null;
    /**
     * Why the method refused the minute; null when it has a value.
     */
    refusal: string | null;
};
/**
 * IndexMinuteTerm
 *
 * One term of a minute's value, summarised.
 */
export type IndexMinuteTerm = {
    /**
     * Option root of the expiration.
     */
    root: string;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * N: minutes from the valuation time to settlement.
     */
    minutes: number;
    /**
     * T = N / 525,600.
     */
    years: number;
    /**
     * F.
     */
    forward: number;
    /**
     * K0.
     */
    k0: number;
    /**
     * Strikes that entered the sum.
     */
    strikes_used: number;
};
/**
 * IndexVolatilityBarPage
 */
export type IndexVolatilityBarPage = {
    /**
     * Bars, oldest first.
     */
    data: Array<IndexVolatilityBar>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * IndexSymbol
 *
 * An index symbol: a letter followed by up to 7 letters, digits or dots (case-insensitive); the indices served are those of `/v1/indices`.
 */
export type IndexSymbol = string;
/**
 * IndexCalculationHours
 *
 * When the index is calculated: the regular session, on the exchange calendar's trading dates.
 */
export type IndexCalculationHours = {
    /**
     * The clock of the times below (IANA name).
     */
    time_zone: string;
    /**
     * First minute calculated, HH:MM.
     */
    open: string;
    /**
     * End of calculation on a full day, HH:MM (the last minute starts one minute before).
     */
    close: string;
    /**
     * End of calculation on an early-close day (/v1/market/calendar status early_close), HH:MM.
     */
    early_close: string;
};
/**
 * IndexSession
 *
 * The calculation window of the current trading date at the request's instant (before today's open, the previous trading date).
 */
export type IndexSession = {
    /**
     * The trading date.
     */
    trading_date: string;
    /**
     * Start of calculation (09:30 ET), Unix ms.
     */
    start_time: number;
    /**
     * End of calculation (16:00 ET, or 13:00 on an early close), Unix ms, exclusive.
     */
    end_time: number;
    /**
     * regular or early_close, as /v1/market/sessions says.
     */
    status: SessionHours;
    /**
     * Whether the request's instant lies in the window.
     */
    calculating: boolean;
};
/**
 * IndexSource
 *
 * Where an index's stored values come from, by the ingest ledger's bar files: simulated (the market simulator), files (loaded vendor or canonical files), mixed (both); none while no value of the index is stored.
 */
export type IndexSource = 'simulated' | 'files' | 'mixed' | 'none';
/**
 * IndexComputedVolatility
 *
 * The volatility indices this service computes from the index's option chains (/v1/indices/volatility): a model, never the published index.
 */
export type IndexComputedVolatility = {
    /**
     * The route computing them.
     */
    path: string;
    /**
     * The route of their per-minute series, as bars (kept per minute of data).
     */
    bars_path: string;
    /**
     * Its underlying_symbol for this index's option family.
     */
    underlying_symbol: string;
    /**
     * The tenors it computes.
     */
    tenors: Array<IndexTenor>;
    /**
     * Always true: computed by this service from its stored chains (per request at an instant; per minute of data for the series, kept).
     */
    computed_here: boolean;
    /**
     * Always false: not Cboe's VIX, VIX9D or VIX1D.
     */
    published_index: boolean;
    /**
     * How to name it.
     */
    label: string;
};
/**
 * IndexVendorTickers
 *
 * The index's ticker in the vendor feeds the loaders read.
 */
export type IndexVendorTickers = {
    /**
     * In Massive's minute aggregates (loaded without the I: prefix).
     */
    massive: string;
};
/**
 * IndexListEntry
 *
 * One index the service serves.
 */
export type IndexListEntry = {
    /**
     * The symbol the index routes take.
     */
    symbol: string;
    /**
     * The index's name.
     */
    name: string;
    /**
     * Who calculates and publishes the index.
     */
    calculated_by: string;
    /**
     * Whether this service computes the values (false: they are the provider's, loaded or simulated).
     */
    computed_here: boolean;
    source: IndexSource;
    vendor_tickers: IndexVendorTickers;
    /**
     * Currency of the index level.
     */
    currency: string;
    calculation_hours: IndexCalculationHours;
    session: IndexSession;
    /**
     * The option roots on the index the service lists (SPX: SPX and SPXW).
     */
    option_roots: Array<string>;
    /**
     * Start of the first stored minute, Unix ms; null when none.
     */
    first_timestamp: number | null;
    /**
     * Start of the last stored minute, Unix ms; null when none.
     */
    last_timestamp: number | null;
    computed_volatility: IndexComputedVolatility;
};
/**
 * IndexListResponse
 */
export type IndexListResponse = {
    /**
     * The indices, SPX, NDX, RUT.
     */
    data: Array<IndexListEntry>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * IndexBar
 *
 * One bar of an index.
 */
export type IndexBar = {
    /**
     * Bucket start, Unix ms (1d: the trading date's 09:30 ET open).
     */
    timestamp: number;
    /**
     * The trading date of the minutes.
     */
    trading_date: string;
    /**
     * The first minute's open.
     */
    open: number;
    /**
     * The highest high of the minutes.
     */
    high: number;
    /**
     * The lowest low of the minutes.
     */
    low: number;
    /**
     * The last minute's close.
     */
    close: number;
    /**
     * Always null: an index has no volume.
     */
    volume: number | null;
    /**
     * One-minute values the bar was made from.
     */
    minutes: number;
    /**
     * Start of the minute whose close is the bar's close, Unix ms.
     */
    close_timestamp: number;
};
/**
 * IndexBarPage
 */
export type IndexBarPage = {
    /**
     * Bars, oldest first.
     */
    data: Array<IndexBar>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * IndexSnapshot
 *
 * One index on the quote board (numbers are null where no value is stored).
 */
export type IndexSnapshot = {
    /**
     * The index.
     */
    symbol: string;
    /**
     * The close of the newest stored minute ended by the instant.
     */
    value: number | null;
    /**
     * Start of that minute, Unix ms.
     */
    timestamp: number | null;
    /**
     * The trading date whose session has begun by the instant.
     */
    trading_date: string;
    /**
     * The session's first stored minute's open.
     */
    open: number | null;
    /**
     * The session's highest high up to the instant.
     */
    high: number | null;
    /**
     * The session's lowest low up to the instant.
     */
    low: number | null;
    /**
     * The previous trading date's close (its last stored minute of the calculation window).
     */
    previous_close: number | null;
    /**
     * The previous trading date.
     */
    previous_close_date: string;
    /**
     * value − previous_close, index points, rounded to 6 decimals.
     */
    change: number | null;
    /**
     * 100 × change / previous_close, rounded to 6 decimals.
     */
    change_percent: number | null;
    /**
     * Whether the instant lies in the trading date's calculation window.
     */
    calculating: boolean;
};
/**
 * IndexSnapshotResponse
 */
export type IndexSnapshotResponse = {
    /**
     * One per index asked, in the order asked.
     */
    data: Array<IndexSnapshot>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * SkewResponse
 */
export type SkewResponse = {
    /**
     * The skew of the requested expirations.
     */
    data: Skew;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * VolatilityDriftResponse
 */
export type VolatilityDriftResponse = {
    /**
     * The drift of the tracked expiration.
     */
    data: VolatilityDrift;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * OpenInterestResponse
 */
export type OpenInterestResponse = {
    /**
     * Open interest by strike or expiration.
     */
    data: OpenInterest;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * KeyLevelsResponse
 */
export type KeyLevelsResponse = {
    /**
     * Key levels of the modeled exposure.
     */
    data: KeyLevels;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * HeatmapResponse
 */
export type HeatmapResponse = {
    /**
     * The strike-by-expiration grid.
     */
    data: Heatmap;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * OvernightRootsResponse
 */
export type OvernightRootsResponse = {
    /**
     * Roots with an overnight session, with the windows of the date.
     */
    data: Array<OvernightRoot>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * StockSplitPage
 */
export type StockSplitPage = {
    /**
     * Splits of this page, newest first (ties by symbol).
     */
    data: Array<StockSplit>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * OptionContract
 *
 * One listed option contract.
 */
export type OptionContract = {
    /**
     * call or put.
     */
    contract_type: ContractType;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    exercise_style: ExerciseStyle;
    /**
     * Shares (or index units) per contract.
     */
    multiplier: number;
    option_symbol: OptionSymbol;
    /**
     * Option root.
     */
    root: string;
    settlement: SettlementTime;
    /**
     * Strike in USD.
     */
    strike: number;
    /**
     * Underlying security (SPX for SPX and SPXW).
     */
    underlying_symbol: string;
};
/**
 * ExerciseStyle
 *
 * european for index options (cash-settled, exercised only at expiration), american for ETF and equity options.
 */
export type ExerciseStyle = 'european' | 'american';
/**
 * SettlementTime
 *
 * am when the contract settles on the opening price of its expiration date (the standard monthlies of SPX, NDX, RUT and VIX), pm when on the close.
 */
export type SettlementTime = 'am' | 'pm';
/**
 * OptionContractPage
 */
export type OptionContractPage = {
    /**
     * Contracts of this page, by root, expiration, type (call first) and strike.
     */
    data: Array<OptionContract>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * OptionBar
 *
 * The counted prints of one bucket.
 */
export type OptionBar = {
    /**
     * Price of the bucket's last print (by timestamp, then sequence); null in aggregate.
     */
    close: number | null;
    /**
     * Highest price; null in aggregate.
     */
    high: number | null;
    /**
     * Lowest price; null in aggregate.
     */
    low: number | null;
    /**
     * Price of the bucket's first print (by timestamp, then sequence); null in aggregate.
     */
    open: number | null;
    /**
     * USD: Σ price × size × multiplier, to the cent.
     */
    premium: number;
    timestamp: UnixMs;
    /**
     * Prints counted.
     */
    trades: number;
    /**
     * Trading date of the prints (overnight prints belong to the next trading date).
     */
    trading_date: string;
    /**
     * Contracts traded.
     */
    volume: number;
    /**
     * Σ(price × size) / volume, per share, rounded to 6 decimals; null in aggregate.
     */
    vwap: number | null;
};
/**
 * BarInterval
 *
 * Bar length: 1m, 5m and 1h on the clock's grid, 1d one bar per trading date.
 */
export type BarInterval = '1m' | '5m' | '1h' | '1d';
/**
 * OptionBarPage
 */
export type OptionBarPage = {
    /**
     * Bars of this page, oldest first (ties of timestamp by trading date).
     */
    data: Array<OptionBar>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query.
     */
    pagination: Pagination;
};
/**
 * ChainMoneyness
 *
 * Which side of the forward a chain snapshot keeps: itm (calls with strike below it, puts above), otm (the others) or all.
 */
export type ChainMoneyness = 'all' | 'itm' | 'otm';
/**
 * ChainLastTrade
 *
 * The contract's last print of the session before the valuation time.
 */
export type ChainLastTrade = {
    /**
     * Price per share (USD).
     */
    price: number;
    /**
     * Contracts.
     */
    size: number;
    /**
     * Time of the print (Unix ms).
     */
    timestamp: number;
};
/**
 * OptionChainContract
 *
 * One contract of a chain snapshot, as of valuation.timestamp.
 */
export type OptionChainContract = {
    /**
     * OCC symbol (root padded to six characters).
     */
    option_symbol: string;
    /**
     * Option root.
     */
    root: string;
    /**
     * call or put.
     */
    contract_type: ContractType;
    /**
     * Strike (USD).
     */
    strike: number;
    /**
     * Expiration date.
     */
    date_of_expiry: string;
    /**
     * Bid of the newest quote sample (USD); null without one.
     */
    bid: number | null;
    /**
     * Ask of the newest quote sample (USD); null without one.
     */
    ask: number | null;
    /**
     * Contracts bid; null without a quote or a size.
     */
    bid_size: number | null;
    /**
     * Contracts offered; null without a quote or a size.
     */
    ask_size: number | null;
    /**
     * (bid + ask) / 2 of a two-sided, uncrossed quote; null otherwise.
     */
    mid: number | null;
    /**
     * Time of the quote (Unix ms); null without one.
     */
    quote_timestamp: number | null;
    /**
     * Parity forward of the expiration date at the valuation (USD); null when the chain does not determine one.
     */
    forward: number | null;
    /**
     * Black-76 volatility of the mid on the forward (0.16 = 16 vol points); null when it cannot be solved.
     */
    implied_volatility: number | null;
    /**
     * Spot delta per 1 unit of the underlying.
     */
    delta: number | null;
    /**
     * Gamma per unit of the underlying per unit.
     */
    gamma: number | null;
    /**
     * Change of value over one calendar day, other inputs held (USD per share).
     */
    theta: number | null;
    /**
     * Change of value per volatility point (USD per share).
     */
    vega: number | null;
    /**
     * Open interest published for the trading date (the close valuation.open_interest_date); null without it.
     */
    open_interest: number | null;
    /**
     * Contracts traded in the session's regular prints before the valuation time, cancelled prints left out.
     */
    volume: number;
    /**
     * The last such print; null without one.
     */
    last_trade: ChainLastTrade | null;
    /**
     * Where and when the chain was valued: the same on every row of a cursor walk.
     */
    valuation: Valuation;
};
/**
 * OptionChainPage
 */
export type OptionChainPage = {
    /**
     * Contracts of this page, by root, expiration, type (call first) and strike.
     */
    data: Array<OptionChainContract>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
    /**
     * The next page of the same query (the same minute).
     */
    pagination: Pagination;
};
/**
 * MarketSessionsResponse
 */
export type MarketSessionsResponse = {
    /**
     * Session windows of the date, by asset class and start.
     */
    data: Array<MarketSession>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * CalendarDayResponse
 */
export type CalendarDayResponse = {
    /**
     * The calendar day.
     */
    data: CalendarDay;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * AccountResponse
 */
export type AccountResponse = {
    /**
     * The calling account.
     */
    data: Account;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * AccountLimitsResponse
 */
export type AccountLimitsResponse = {
    /**
     * Limit values and the live state of the windows.
     */
    data: AccountLimits;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * UsageResponse
 */
export type UsageResponse = {
    /**
     * Buckets of the range, oldest first; empty buckets included.
     */
    data: Array<UsageBucket>;
    /**
     * Meta; coverage.durable is false when the request log is held only in memory.
     */
    meta: Meta;
};
/**
 * CatalogResponse
 */
export type CatalogResponse = {
    /**
     * The routes, optionally of one family.
     */
    data: Array<CatalogEntry>;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * StatusResponse
 */
export type StatusResponse = {
    data: Status;
    /**
     * Meta of the answer.
     */
    meta: Meta;
};
/**
 * OpenApiDocument
 */
export type OpenApiDocument = {
    /**
     * OpenAPI version of the document.
     */
    openapi: string;
    /**
     * Title, version and description of the API.
     */
    info: DocumentInfo;
    /**
     * The routes.
     */
    paths: OpenApiPaths;
};
/**
 * AsyncApiDocument
 */
export type AsyncApiDocument = {
    /**
     * AsyncAPI version of the document.
     */
    asyncapi: string;
    /**
     * Title, version and description of the streams.
     */
    info: DocumentInfo;
    /**
     * The stream channels.
     */
    channels: AsyncApiChannels;
};
/**
 * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
 */
export type UnderlyingSymbolRequired = UnderlyingSymbol;
/**
 * Option root or family. Give this or underlying_symbols, not both.
 */
export type UnderlyingSymbolOptional = UnderlyingSymbol;
/**
 * Several underlyings (roots or families). A list, comma-separated in one parameter (`underlying_symbols=a,b`) or the parameter repeated (`underlying_symbols=a&underlying_symbols=b`).
 */
export type UnderlyingSymbols = Array<UnderlyingSymbol>;
/**
 * One exact option root of at most six characters (SPX and SPXW are different roots).
 */
export type RootRequired = string;
/**
 * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
 */
export type TradingDate = CalendarDate;
/**
 * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
 */
export type ValuationAt = UnixMsParam;
/**
 * rth (regular) or gth (the overnight session before the trading date; Pro plan).
 */
export type SessionRthGth = RegularOrGlobalSession;
/**
 * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
 */
export type SessionRthGthAll = SessionFilter;
/**
 * Window start, inclusive, Unix ms.
 */
export type StartTime = UnixMsParam;
/**
 * Window end, exclusive, Unix ms.
 */
export type EndTime = UnixMsParam;
/**
 * call or put; omit for both.
 */
export type ContractTypeParam = ContractType;
/**
 * call or put.
 */
export type ContractTypeRequired = ContractType;
/**
 * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
 */
export type DateOfExpiry = ExpiryDate;
/**
 * Expiration date of the contract (2000-01-01 through 2099-12-31).
 */
export type DateOfExpiryRequired = ExpiryDate;
/**
 * Strike in dollars, at most three decimals.
 */
export type StrikeRequired = number;
/**
 * Only these expirations (1 to 64 dates, each from 2000-01-01 through 2099-12-31); unlisted dates are ignored. A list, comma-separated in one parameter (`expirations=a,b`) or the parameter repeated (`expirations=a&expirations=b`).
 */
export type Expirations64 = Array<ExpiryDate>;
/**
 * Expiration set: 0dte (the trading date), 1dte (the next listed expiration after it), weekly (within 7 days), monthly (third-Friday expirations), lte30 and lte90 (within 30 or 90 days).
 */
export type ExpiryModeParam = ExpiryMode;
/**
 * Minimum days to expiration; 0 means expiring on the trading date.
 */
export type MinDte = number;
/**
 * Maximum days to expiration.
 */
export type MaxDte = number;
/**
 * Minimum premium of a print in USD.
 */
export type MinPremium = number;
/**
 * Maximum premium of a print in USD.
 */
export type MaxPremium = number;
/**
 * Minimum print size in contracts.
 */
export type MinSize = number;
/**
 * Maximum print size in contracts.
 */
export type MaxSize = number;
/**
 * A print matches when any listed type applies. A list, comma-separated in one parameter (`trade_type=a,b`) or the parameter repeated (`trade_type=a&trade_type=b`).
 */
export type TradeType = Array<TradeTypeFilter>;
/**
 * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid. A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
 */
export type SideDetailed = Array<SideFilter>;
/**
 * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid (the at/near split is requested only on trades and flow/overnight). A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
 */
export type SideCoarse = Array<CoarseSideFilter>;
/**
 * Only prints of these sentiments (bullish, bearish, neutral, unknown; see the print's `sentiment`). A list, comma-separated in one parameter (`sentiment=a,b`) or the parameter repeated (`sentiment=a&sentiment=b`).
 */
export type SentimentParam = Array<Sentiment>;
/**
 * Only out-of-the-money contracts; prints without a known underlying price are excluded.
 */
export type OtmOnly = boolean;
/**
 * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
 */
export type IncludeComplexDefaultTrue = boolean;
/**
 * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
 */
export type IncludeComplexDefaultFalse = boolean;
/**
 * Only prints marked is_unusual (day volume above open interest within 45 days, 250,000 USD of premium, or an ask-side out-of-the-money sweep).
 */
export type UnusualOnly = boolean;
/**
 * Minimum strike in dollars.
 */
export type MinStrike = number;
/**
 * Maximum strike in dollars.
 */
export type MaxStrike = number;
/**
 * Only prints executed on these exchanges (applied within the bounded scan; see `meta.coverage.scan_complete`). A list, comma-separated in one parameter (`exchange=a,b`) or the parameter repeated (`exchange=a&exchange=b`).
 */
export type Exchange = Array<ExchangeName>;
/**
 * Max rows per page.
 */
export type TradesLimit = number;
/**
 * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
 */
export type CursorId = string;
/**
 * Value scale: dollars of dealer hedging per 1% move, per 1 dollar move, or raw (shares, or per unit of the greek).
 */
export type Unit = ExposureUnit;
/**
 * Dealer positioning: classic_oi assumes the dealer is long calls and short puts of the open interest; flow_adjusted adjusts it by classified prints since the open interest date.
 */
export type PositioningModel = PositioningModelName;
/**
 * dealer, or customer (which negates the values only).
 */
export type PerspectiveParam = Perspective;
/**
 * Export id.
 */
export type ExportId = string;
export type ListOptionTradesData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Option root or family. Give this or underlying_symbols, not both.
         */
        underlying_symbol?: UnderlyingSymbol;
        /**
         * Several underlyings (roots or families). A list, comma-separated in one parameter (`underlying_symbols=a,b`) or the parameter repeated (`underlying_symbols=a&underlying_symbols=b`).
         */
        underlying_symbols?: Array<UnderlyingSymbol>;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
         */
        session?: SessionFilter;
        /**
         * Window start, inclusive, Unix ms.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum premium of a print in USD.
         */
        min_premium?: number;
        /**
         * Maximum premium of a print in USD.
         */
        max_premium?: number;
        /**
         * Minimum print size in contracts.
         */
        min_size?: number;
        /**
         * Maximum print size in contracts.
         */
        max_size?: number;
        /**
         * A print matches when any listed type applies. A list, comma-separated in one parameter (`trade_type=a,b`) or the parameter repeated (`trade_type=a&trade_type=b`).
         */
        trade_type?: Array<TradeTypeFilter>;
        /**
         * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid. A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
         */
        side?: Array<SideFilter>;
        /**
         * Only prints of these sentiments (bullish, bearish, neutral, unknown; see the print's `sentiment`). A list, comma-separated in one parameter (`sentiment=a,b`) or the parameter repeated (`sentiment=a&sentiment=b`).
         */
        sentiment?: Array<Sentiment>;
        /**
         * Only out-of-the-money contracts; prints without a known underlying price are excluded.
         */
        otm_only?: boolean;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
        /**
         * Only prints marked is_unusual (day volume above open interest within 45 days, 250,000 USD of premium, or an ask-side out-of-the-money sweep).
         */
        unusual_only?: boolean;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
        /**
         * Only prints executed on these exchanges (applied within the bounded scan; see `meta.coverage.scan_complete`). A list, comma-separated in one parameter (`exchange=a,b`) or the parameter repeated (`exchange=a&exchange=b`).
         */
        exchange?: Array<ExchangeName>;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/trades';
};
export type ListOptionTradesErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOptionTradesError = ListOptionTradesErrors[keyof ListOptionTradesErrors];
export type ListOptionTradesResponses = {
    /**
     * A page of prints, newest first.
     */
    200: PrintPage;
};
export type ListOptionTradesResponse = ListOptionTradesResponses[keyof ListOptionTradesResponses];
export type ListOptionFlowData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Several underlyings (roots or families). A list, comma-separated in one parameter (`underlying_symbols=a,b`) or the parameter repeated (`underlying_symbols=a&underlying_symbols=b`).
         */
        underlying_symbols?: Array<UnderlyingSymbol>;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
         */
        session?: SessionFilter;
        /**
         * Window start, inclusive, Unix ms.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum premium of a print in USD.
         */
        min_premium?: number;
        /**
         * Maximum premium of a print in USD.
         */
        max_premium?: number;
        /**
         * Minimum print size in contracts.
         */
        min_size?: number;
        /**
         * Maximum print size in contracts.
         */
        max_size?: number;
        /**
         * A print matches when any listed type applies. A list, comma-separated in one parameter (`trade_type=a,b`) or the parameter repeated (`trade_type=a&trade_type=b`).
         */
        trade_type?: Array<TradeTypeFilter>;
        /**
         * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid (the at/near split is requested only on trades and flow/overnight). A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
         */
        side?: Array<CoarseSideFilter>;
        /**
         * Only prints of these sentiments (bullish, bearish, neutral, unknown; see the print's `sentiment`). A list, comma-separated in one parameter (`sentiment=a,b`) or the parameter repeated (`sentiment=a&sentiment=b`).
         */
        sentiment?: Array<Sentiment>;
        /**
         * Only out-of-the-money contracts; prints without a known underlying price are excluded.
         */
        otm_only?: boolean;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
        /**
         * Only prints marked is_unusual (day volume above open interest within 45 days, 250,000 USD of premium, or an ask-side out-of-the-money sweep).
         */
        unusual_only?: boolean;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
        /**
         * Only prints executed on these exchanges (applied within the bounded scan; see `meta.coverage.scan_complete`). A list, comma-separated in one parameter (`exchange=a,b`) or the parameter repeated (`exchange=a&exchange=b`).
         */
        exchange?: Array<ExchangeName>;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/flow';
};
export type ListOptionFlowErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOptionFlowError = ListOptionFlowErrors[keyof ListOptionFlowErrors];
export type ListOptionFlowResponses = {
    /**
     * A page of prints, newest first.
     */
    200: PrintPage;
};
export type ListOptionFlowResponse = ListOptionFlowResponses[keyof ListOptionFlowResponses];
export type ListOvernightOptionFlowData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Several underlyings (roots or families). A list, comma-separated in one parameter (`underlying_symbols=a,b`) or the parameter repeated (`underlying_symbols=a&underlying_symbols=b`).
         */
        underlying_symbols?: Array<UnderlyingSymbol>;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Window start, inclusive, Unix ms.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum premium of a print in USD.
         */
        min_premium?: number;
        /**
         * Maximum premium of a print in USD.
         */
        max_premium?: number;
        /**
         * Minimum print size in contracts.
         */
        min_size?: number;
        /**
         * Maximum print size in contracts.
         */
        max_size?: number;
        /**
         * A print matches when any listed type applies. A list, comma-separated in one parameter (`trade_type=a,b`) or the parameter repeated (`trade_type=a&trade_type=b`).
         */
        trade_type?: Array<TradeTypeFilter>;
        /**
         * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid. A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
         */
        side?: Array<SideFilter>;
        /**
         * Only prints of these sentiments (bullish, bearish, neutral, unknown; see the print's `sentiment`). A list, comma-separated in one parameter (`sentiment=a,b`) or the parameter repeated (`sentiment=a&sentiment=b`).
         */
        sentiment?: Array<Sentiment>;
        /**
         * Only out-of-the-money contracts; prints without a known underlying price are excluded.
         */
        otm_only?: boolean;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
        /**
         * Only prints marked is_unusual (day volume above open interest within 45 days, 250,000 USD of premium, or an ask-side out-of-the-money sweep).
         */
        unusual_only?: boolean;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
        /**
         * Only prints executed on these exchanges (applied within the bounded scan; see `meta.coverage.scan_complete`). A list, comma-separated in one parameter (`exchange=a,b`) or the parameter repeated (`exchange=a&exchange=b`).
         */
        exchange?: Array<ExchangeName>;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/flow/overnight';
};
export type ListOvernightOptionFlowErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOvernightOptionFlowError = ListOvernightOptionFlowErrors[keyof ListOvernightOptionFlowErrors];
export type ListOvernightOptionFlowResponses = {
    /**
     * A page of overnight prints, newest first.
     */
    200: PrintPage;
};
export type ListOvernightOptionFlowResponse = ListOvernightOptionFlowResponses[keyof ListOvernightOptionFlowResponses];
export type ListFlowLeadersData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * What is ranked.
         */
        grain?: LeaderGrain;
        /**
         * Ranking key; the default depends on the grain (net for root, change_percent for contract).
         */
        sort?: LeaderSort;
        /**
         * Direction of the ranking.
         */
        order?: SortOrder;
        /**
         * Rows returned.
         */
        limit?: number;
        /**
         * Minimum premium of a row in USD (the underlying's or the contract's session total); rows below it are left out, the prints of a row are not filtered.
         */
        min_premium?: number;
        /**
         * Contract grain only; default is every underlying the platform tabulates. A list, comma-separated in one parameter (`underlying_symbols=a,b`) or the parameter repeated (`underlying_symbols=a&underlying_symbols=b`).
         */
        underlying_symbols?: Array<UnderlyingSymbol>;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
         */
        session?: SessionFilter;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
    };
    url: '/v1/options/flow/leaders';
};
export type ListFlowLeadersErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFlowLeadersError = ListFlowLeadersErrors[keyof ListFlowLeadersErrors];
export type ListFlowLeadersResponses = {
    /**
     * Leader rows in ranking order.
     */
    200: FlowLeadersResponse;
};
export type ListFlowLeadersResponse = ListFlowLeadersResponses[keyof ListFlowLeadersResponses];
export type GetPremiumDriftData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Bucket size.
         */
        interval?: PremiumDriftInterval;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
         */
        session?: SessionFilter;
        /**
         * Window start, inclusive, Unix ms.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum premium of a print in USD.
         */
        min_premium?: number;
        /**
         * Maximum premium of a print in USD.
         */
        max_premium?: number;
        /**
         * Minimum print size in contracts.
         */
        min_size?: number;
        /**
         * Maximum print size in contracts.
         */
        max_size?: number;
        /**
         * A print matches when any listed type applies. A list, comma-separated in one parameter (`trade_type=a,b`) or the parameter repeated (`trade_type=a&trade_type=b`).
         */
        trade_type?: Array<TradeTypeFilter>;
        /**
         * Aggressor sides; ask selects at_ask and near_ask, bid selects near_bid and at_bid (the at/near split is requested only on trades and flow/overnight). A list, comma-separated in one parameter (`side=a,b`) or the parameter repeated (`side=a&side=b`).
         */
        side?: Array<CoarseSideFilter>;
        /**
         * Only prints of these sentiments (bullish, bearish, neutral, unknown; see the print's `sentiment`). A list, comma-separated in one parameter (`sentiment=a,b`) or the parameter repeated (`sentiment=a&sentiment=b`).
         */
        sentiment?: Array<Sentiment>;
        /**
         * Only out-of-the-money contracts; prints without a known underlying price are excluded.
         */
        otm_only?: boolean;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
        /**
         * Only prints marked is_unusual (day volume above open interest within 45 days, 250,000 USD of premium, or an ask-side out-of-the-money sweep).
         */
        unusual_only?: boolean;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
    };
    url: '/v1/options/flow/premium-drift';
};
export type GetPremiumDriftErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetPremiumDriftError = GetPremiumDriftErrors[keyof GetPremiumDriftErrors];
export type GetPremiumDriftResponses = {
    /**
     * Buckets, oldest first.
     */
    200: PremiumDriftResponse;
};
export type GetPremiumDriftResponse = GetPremiumDriftResponses[keyof GetPremiumDriftResponses];
export type ListContractImpliedVolatilityData = {
    body?: never;
    path?: never;
    query: {
        /**
         * One exact option root of at most six characters (SPX and SPXW are different roots).
         */
        underlying_symbol: string;
        /**
         * call or put.
         */
        contract_type: ContractType;
        /**
         * Strike in dollars, at most three decimals.
         */
        strike: number;
        /**
         * Expiration date of the contract (2000-01-01 through 2099-12-31).
         */
        date_of_expiry: ExpiryDate;
        /**
         * Sampling interval.
         */
        interval?: VolatilityInterval;
        /**
         * Window start, inclusive, Unix ms.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * One trading date instead of start_time/end_time, within the exchange calendar (2000-01-01 through 2035-12-31); with session gth or all the window starts 20:15 ET the evening before.
         */
        date?: CalendarDate;
        /**
         * rth (default; the regular session, as without it), gth (the overnight session of the trading date, 20:15 ET the evening before to 09:25 ET; 422 for a root without one) or all (both). gth and all need the Pro plan or the overnight entitlement; overnight buckets align to 20:15 ET, regular ones to 09:30 ET.
         */
        session?: SessionFilter;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/contract/implied-volatility';
};
export type ListContractImpliedVolatilityErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListContractImpliedVolatilityError = ListContractImpliedVolatilityErrors[keyof ListContractImpliedVolatilityErrors];
export type ListContractImpliedVolatilityResponses = {
    /**
     * Samples, oldest first.
     */
    200: ImpliedVolatilityPage;
};
export type ListContractImpliedVolatilityResponse = ListContractImpliedVolatilityResponses[keyof ListContractImpliedVolatilityResponses];
export type GetContractTradeAtTimeData = {
    body?: never;
    path?: never;
    query: {
        /**
         * One exact option root of at most six characters (SPX and SPXW are different roots).
         */
        underlying_symbol: string;
        /**
         * call or put.
         */
        contract_type: ContractType;
        /**
         * Strike in dollars, at most three decimals.
         */
        strike: number;
        /**
         * Expiration date of the contract (2000-01-01 through 2099-12-31).
         */
        date_of_expiry: ExpiryDate;
        /**
         * The instant, Unix ms.
         */
        timestamp: UnixMsParam;
    };
    url: '/v1/options/contract/trade-at-time';
};
export type GetContractTradeAtTimeErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetContractTradeAtTimeError = GetContractTradeAtTimeErrors[keyof GetContractTradeAtTimeErrors];
export type GetContractTradeAtTimeResponses = {
    /**
     * The trade-at-time object.
     */
    200: TradeAtTimeResponse;
};
export type GetContractTradeAtTimeResponse = GetContractTradeAtTimeResponses[keyof GetContractTradeAtTimeResponses];
export type GetVolatilitySkewData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
        /**
         * rth (regular) or gth (the overnight session before the trading date; Pro plan).
         */
        session?: RegularOrGlobalSession;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Only these expirations (1 to 8 dates, each from 2000-01-01 through 2099-12-31). A list, comma-separated in one parameter (`expirations=a,b`) or the parameter repeated (`expirations=a&expirations=b`).
         */
        expirations?: Array<ExpiryDate>;
    };
    url: '/v1/options/volatility/skew';
};
export type GetVolatilitySkewErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetVolatilitySkewError = GetVolatilitySkewErrors[keyof GetVolatilitySkewErrors];
export type GetVolatilitySkewResponses = {
    /**
     * The skew object.
     */
    200: SkewResponse;
};
export type GetVolatilitySkewResponse = GetVolatilitySkewResponses[keyof GetVolatilitySkewResponses];
export type GetVolatilityDriftData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
        /**
         * rth (regular) or gth (the overnight session before the trading date; Pro plan).
         */
        session?: RegularOrGlobalSession;
        /**
         * The tracked expiration (2000-01-01 through 2099-12-31); default the nearest.
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Bucket size.
         */
        interval?: DriftInterval;
    };
    url: '/v1/options/volatility/drift';
};
export type GetVolatilityDriftErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetVolatilityDriftError = GetVolatilityDriftErrors[keyof GetVolatilityDriftErrors];
export type GetVolatilityDriftResponses = {
    /**
     * The drift object.
     */
    200: VolatilityDriftResponse;
};
export type GetVolatilityDriftResponse = GetVolatilityDriftResponses[keyof GetVolatilityDriftResponses];
export type GetOpenInterestData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Only these expirations (1 to 64 dates, each from 2000-01-01 through 2099-12-31); unlisted dates are ignored. A list, comma-separated in one parameter (`expirations=a,b`) or the parameter repeated (`expirations=a&expirations=b`).
         */
        expirations?: Array<ExpiryDate>;
        /**
         * Expiration set: 0dte (the trading date), 1dte (the next listed expiration after it), weekly (within 7 days), monthly (third-Friday expirations), lte30 and lte90 (within 30 or 90 days).
         */
        expiry_mode?: ExpiryMode;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
        /**
         * This many listed strikes either side of the strike nearest the underlying price.
         */
        strikes_around?: number;
        /**
         * Only strikes within this percent of the underlying price (inclusive).
         */
        strike_percent_window?: number;
        /**
         * Rows per strike or per expiration.
         */
        group_by?: OpenInterestGrouping;
    };
    url: '/v1/options/open-interest';
};
export type GetOpenInterestErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetOpenInterestError = GetOpenInterestErrors[keyof GetOpenInterestErrors];
export type GetOpenInterestResponses = {
    /**
     * The open interest object.
     */
    200: OpenInterestResponse;
};
export type GetOpenInterestResponse = GetOpenInterestResponses[keyof GetOpenInterestResponses];
export type GetExposureLevelsData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
        /**
         * rth (regular) or gth (the overnight session before the trading date; Pro plan).
         */
        session?: RegularOrGlobalSession;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Only these expirations (1 to 64 dates, each from 2000-01-01 through 2099-12-31); unlisted dates are ignored. A list, comma-separated in one parameter (`expirations=a,b`) or the parameter repeated (`expirations=a&expirations=b`).
         */
        expirations?: Array<ExpiryDate>;
        /**
         * Expiration set: 0dte (the trading date), 1dte (the next listed expiration after it), weekly (within 7 days), monthly (third-Friday expirations), lte30 and lte90 (within 30 or 90 days).
         */
        expiry_mode?: ExpiryMode;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Exposure measured.
         */
        greek?: Greek;
        /**
         * Value scale: dollars of dealer hedging per 1% move, per 1 dollar move, or raw (shares, or per unit of the greek).
         */
        unit?: ExposureUnit;
        /**
         * Dealer positioning: classic_oi assumes the dealer is long calls and short puts of the open interest; flow_adjusted adjusts it by classified prints since the open interest date.
         */
        model?: PositioningModelName;
        /**
         * dealer, or customer (which negates the values only).
         */
        perspective?: Perspective;
        /**
         * Optional key levels to compute. A list, comma-separated in one parameter (`include=a,b`) or the parameter repeated (`include=a&include=b`).
         */
        include?: Array<LevelsExtra>;
        /**
         * Minimum fraction of the peak's absolute exposure for a gatekeeper strike.
         */
        gatekeeper_ratio?: number;
    };
    url: '/v1/options/levels';
};
export type GetExposureLevelsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetExposureLevelsError = GetExposureLevelsErrors[keyof GetExposureLevelsErrors];
export type GetExposureLevelsResponses = {
    /**
     * The key levels object.
     */
    200: KeyLevelsResponse;
};
export type GetExposureLevelsResponse = GetExposureLevelsResponses[keyof GetExposureLevelsResponses];
export type GetExposureHeatmapData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
        /**
         * rth (regular) or gth (the overnight session before the trading date; Pro plan).
         */
        session?: RegularOrGlobalSession;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Only these expirations (1 to 64 dates, each from 2000-01-01 through 2099-12-31); unlisted dates are ignored. A list, comma-separated in one parameter (`expirations=a,b`) or the parameter repeated (`expirations=a&expirations=b`).
         */
        expirations?: Array<ExpiryDate>;
        /**
         * Expiration set: 0dte (the trading date), 1dte (the next listed expiration after it), weekly (within 7 days), monthly (third-Friday expirations), lte30 and lte90 (within 30 or 90 days).
         */
        expiry_mode?: ExpiryMode;
        /**
         * Minimum days to expiration; 0 means expiring on the trading date.
         */
        min_dte?: number;
        /**
         * Maximum days to expiration.
         */
        max_dte?: number;
        /**
         * Minimum strike in dollars.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars.
         */
        max_strike?: number;
        /**
         * Listed strikes either side of the strike nearest the underlying price; 40 when neither min_strike nor max_strike is given (it cannot be combined with them).
         */
        strikes_around?: number;
        /**
         * Expirations (columns) shown.
         */
        max_expirations?: number;
        /**
         * Index of the first expiration shown among the selected ones.
         */
        expiration_offset?: number;
        /**
         * Cell value.
         */
        metric?: HeatmapMetric;
        /**
         * Which leg.
         */
        leg?: HeatmapLeg;
        /**
         * Value scale: dollars of dealer hedging per 1% move, per 1 dollar move, or raw (shares, or per unit of the greek).
         */
        unit?: ExposureUnit;
        /**
         * Dealer positioning: classic_oi assumes the dealer is long calls and short puts of the open interest; flow_adjusted adjusts it by classified prints since the open interest date.
         */
        model?: PositioningModelName;
        /**
         * dealer, or customer (which negates the values only).
         */
        perspective?: Perspective;
    };
    url: '/v1/options/exposure/heatmap';
};
export type GetExposureHeatmapErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetExposureHeatmapError = GetExposureHeatmapErrors[keyof GetExposureHeatmapErrors];
export type GetExposureHeatmapResponses = {
    /**
     * The heat map object.
     */
    200: HeatmapResponse;
};
export type GetExposureHeatmapResponse = GetExposureHeatmapResponses[keyof GetExposureHeatmapResponses];
export type ListOptionOvernightSessionsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Trading date of the windows, within the exchange calendar (2000-01-01 through 2035-12-31); default the current exchange date.
         */
        date?: CalendarDate;
    };
    url: '/v1/options/sessions';
};
export type ListOptionOvernightSessionsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOptionOvernightSessionsError = ListOptionOvernightSessionsErrors[keyof ListOptionOvernightSessionsErrors];
export type ListOptionOvernightSessionsResponses = {
    /**
     * Roots with an overnight session.
     */
    200: OvernightRootsResponse;
};
export type ListOptionOvernightSessionsResponse = ListOptionOvernightSessionsResponses[keyof ListOptionOvernightSessionsResponses];
export type ListOptionContractsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Option root or family (SPX covers SPX and SPXW; SPXW alone covers only itself). Case-insensitive. Omit for every underlying.
         */
        underlying_symbol?: UnderlyingSymbol;
        /**
         * One exact option root of at most six characters (SPX and SPXW are different roots). Case-insensitive.
         */
        root?: string;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Earliest expiration, inclusive (2000-01-01 through 2099-12-31). Not with date_of_expiry.
         */
        min_date_of_expiry?: ExpiryDate;
        /**
         * Latest expiration, inclusive (2000-01-01 through 2099-12-31). Not with date_of_expiry.
         */
        max_date_of_expiry?: ExpiryDate;
        /**
         * Minimum strike in dollars, inclusive.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars, inclusive.
         */
        max_strike?: number;
        /**
         * The date the contracts are listed on, within the exchange calendar (2000-01-01 through 2035-12-31); contracts expiring on or after it are served, those expired since included. Default the current session's trading date, else the most recent completed one.
         */
        as_of?: CalendarDate;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/contracts';
};
export type ListOptionContractsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOptionContractsError = ListOptionContractsErrors[keyof ListOptionContractsErrors];
export type ListOptionContractsResponses = {
    /**
     * Contracts, by root, expiration, type and strike.
     */
    200: OptionContractPage;
};
export type ListOptionContractsResponse = ListOptionContractsResponses[keyof ListOptionContractsResponses];
export type ListOptionBarsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * One contract by its OCC symbol without the padding spaces (`SPY261120C00577000`; an `option_symbol` field of the other routes with its spaces removed, since a space in a query is sent as `+` or `%20` depending on the client). Case-insensitive.
         */
        option_symbol?: string;
        /**
         * The options of an underlying in aggregate; a root or a family (SPX covers SPX and SPXW; SPXW alone covers only itself). Case-insensitive.
         */
        underlying_symbol?: UnderlyingSymbol;
        /**
         * Bar length. The range is at most 7 days at 1m, 31 at 5m, 92 at 1h and 366 at 1d.
         */
        interval?: BarInterval;
        /**
         * One trading date instead of start_time/end_time, within the exchange calendar (2000-01-01 through 2035-12-31); with session gth or all it starts 20:15 ET the evening before.
         */
        date?: CalendarDate;
        /**
         * Range start, inclusive, Unix ms; the range may span several trading dates.
         */
        start_time?: UnixMsParam;
        /**
         * Range end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * rth: the regular session's prints (09:30 ET to the options close); gth: the overnight session's, before the trading date (Pro plan); all: every print of the trading date, those two with the curb session's (16:15 to 17:00 ET) and late reports (Pro plan).
         */
        session?: SessionFilter;
        /**
         * Include prints of complex (multi-leg) orders (trade_type multileg or flag complex).
         */
        include_complex?: boolean;
        /**
         * Max bars per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/bars';
};
export type ListOptionBarsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListOptionBarsError = ListOptionBarsErrors[keyof ListOptionBarsErrors];
export type ListOptionBarsResponses = {
    /**
     * Bars, oldest first.
     */
    200: OptionBarPage;
};
export type ListOptionBarsResponse = ListOptionBarsResponses[keyof ListOptionBarsResponses];
export type GetOptionChainData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option root or family (a family name such as SPX covers its sub-roots SPX and SPXW; a weekly root alone covers only itself). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Value as of this instant (Unix ms) instead of now, at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). An instant after the service's clock is the clock's; an archived session is loaded back (503 data_pending with Retry-After meanwhile).
         */
        at?: UnixMsParam;
        /**
         * One exact option root of the underlying's (SPX and SPXW are different roots). Case-insensitive.
         */
        root?: string;
        /**
         * call or put; omit for both.
         */
        contract_type?: ContractType;
        /**
         * Only contracts expiring on this date (2000-01-01 through 2099-12-31).
         */
        date_of_expiry?: ExpiryDate;
        /**
         * Earliest expiration, inclusive (2000-01-01 through 2099-12-31). Not with date_of_expiry.
         */
        min_date_of_expiry?: ExpiryDate;
        /**
         * Latest expiration, inclusive (2000-01-01 through 2099-12-31). Not with date_of_expiry.
         */
        max_date_of_expiry?: ExpiryDate;
        /**
         * Minimum strike in dollars, inclusive.
         */
        min_strike?: number;
        /**
         * Maximum strike in dollars, inclusive.
         */
        max_strike?: number;
        /**
         * itm: calls below and puts above the forward of their expiration (else the underlying price); otm: the others; all: every contract.
         */
        moneyness?: ChainMoneyness;
        /**
         * Max contracts per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/options/chain';
};
export type GetOptionChainErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetOptionChainError = GetOptionChainErrors[keyof GetOptionChainErrors];
export type GetOptionChainResponses = {
    /**
     * Contracts of the chain, by root, expiration, type and strike.
     */
    200: OptionChainPage;
};
export type GetOptionChainResponse = GetOptionChainResponses[keyof GetOptionChainResponses];
export type GetIndexVolatilityData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option family or root whose chains the index is computed from (SPX covers SPX and SPXW; NDX covers NDX and NDXP; RUT covers RUT and RUTW; SPY, QQQ, IWM). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Only this root of the family (e.g. SPXW for PM-settled SPX options alone); 422 no_data when it is not one of the family's roots (it names no chain of it). Case-insensitive.
         */
        root?: string;
        /**
         * The index's tenor in calendar days: 1d (1,440 minutes), 9d (12,960) or 30d (43,200).
         */
        tenor?: IndexTenor;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current session, else the most recent completed one.
         */
        date?: CalendarDate;
        /**
         * Value as of this instant (Unix ms) instead of now: in the session the instant falls in (its trading date chosen as `date` defaults from now), at the newest minute of data at or before it, reading nothing recorded after it (no look-ahead). Reaches every session the store holds; an archived (older) session is loaded back as for `date` (503 data_pending with Retry-After meanwhile). An instant after the service's clock is the clock's. Give `at` or `date`, not both.
         */
        at?: UnixMsParam;
    };
    url: '/v1/indices/volatility';
};
export type GetIndexVolatilityErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetIndexVolatilityError = GetIndexVolatilityErrors[keyof GetIndexVolatilityErrors];
export type GetIndexVolatilityResponses = {
    /**
     * The index with its inputs and the term structure.
     */
    200: IndexVolatilityResponse;
};
export type GetIndexVolatilityResponse = GetIndexVolatilityResponses[keyof GetIndexVolatilityResponses];
export type ListIndexVolatilityBarsData = {
    body?: never;
    path?: never;
    query: {
        /**
         * Option family or root whose chains the index is computed from, as on `/v1/indices/volatility` (SPX covers SPX and SPXW; NDX covers NDX and NDXP; RUT covers RUT and RUTW; SPY, QQQ, IWM). Case-insensitive.
         */
        underlying_symbol: UnderlyingSymbol;
        /**
         * Only this root of the family (e.g. SPXW); 422 no_data when it is not one of the family's roots. Case-insensitive.
         */
        root?: string;
        /**
         * The index's tenor in calendar days: 1d, 9d or 30d.
         */
        tenor?: IndexTenor;
        /**
         * Bar length.
         */
        interval?: BarInterval;
        /**
         * One trading date's regular session instead of start_time/end_time, within the exchange calendar (2000-01-01 through 2035-12-31).
         */
        date?: CalendarDate;
        /**
         * Range start, inclusive, Unix ms (on the minutes' starts); the range may span several trading dates, at most 7 days.
         */
        start_time?: UnixMsParam;
        /**
         * Range end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * Max bars per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/indices/volatility/bars';
};
export type ListIndexVolatilityBarsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListIndexVolatilityBarsError = ListIndexVolatilityBarsErrors[keyof ListIndexVolatilityBarsErrors];
export type ListIndexVolatilityBarsResponses = {
    /**
     * Bars, oldest first.
     */
    200: IndexVolatilityBarPage;
};
export type ListIndexVolatilityBarsResponse = ListIndexVolatilityBarsResponses[keyof ListIndexVolatilityBarsResponses];
export type ListIndicesData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/indices';
};
export type ListIndicesErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListIndicesError = ListIndicesErrors[keyof ListIndicesErrors];
export type ListIndicesResponses = {
    /**
     * The indices.
     */
    200: IndexListResponse;
};
export type ListIndicesResponse = ListIndicesResponses[keyof ListIndicesResponses];
export type ListIndexBarsData = {
    body?: never;
    path?: never;
    query: {
        /**
         * The index, one of `/v1/indices` (SPX, NDX, RUT); case-insensitive.
         */
        symbol: IndexSymbol;
        /**
         * Bar length. The range is at most 7 days at 1m, 31 at 5m, 92 at 1h and 366 at 1d.
         */
        interval?: BarInterval;
        /**
         * One trading date's calculation window (09:30 to 16:00 ET, 13:00 on an early close) instead of start_time/end_time, within the exchange calendar (2000-01-01 through 2035-12-31).
         */
        date?: CalendarDate;
        /**
         * Range start, inclusive, Unix ms (on the minutes' starts); the range may span several trading dates.
         */
        start_time?: UnixMsParam;
        /**
         * Range end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * Max bars per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/indices/bars';
};
export type ListIndexBarsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListIndexBarsError = ListIndexBarsErrors[keyof ListIndexBarsErrors];
export type ListIndexBarsResponses = {
    /**
     * Bars, oldest first.
     */
    200: IndexBarPage;
};
export type ListIndexBarsResponse = ListIndexBarsResponses[keyof ListIndexBarsResponses];
export type GetIndexSnapshotData = {
    body?: never;
    path?: never;
    query: {
        /**
         * The indices, 1 to 10 (case-insensitive; each one of `/v1/indices`). A list, comma-separated in one parameter (`symbols=SPX,NDX`) or the parameter repeated (`symbols=SPX&symbols=NDX`).
         */
        symbols: Array<IndexSymbol>;
        /**
         * The instant of the board (Unix ms) instead of now; an instant after the service's clock is the clock's.
         */
        at?: UnixMsParam;
    };
    url: '/v1/indices/snapshot';
};
export type GetIndexSnapshotErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetIndexSnapshotError = GetIndexSnapshotErrors[keyof GetIndexSnapshotErrors];
export type GetIndexSnapshotResponses = {
    /**
     * One quote per index asked, in the order asked.
     */
    200: IndexSnapshotResponse;
};
export type GetIndexSnapshotResponse = GetIndexSnapshotResponses[keyof GetIndexSnapshotResponses];
export type ListStockSplitsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Ticker; 1 to 6 letters, optionally a dot and 1 to 4 letters or digits.
         */
        symbol?: string;
        /**
         * Earliest execution date, inclusive; any date from 1970-01-01 through 2099-12-31 (split history is not bound to the exchange calendar).
         */
        start_execution_date?: HistoryDate;
        /**
         * Latest execution date, inclusive; any date from 1970-01-01 through 2099-12-31.
         */
        end_execution_date?: HistoryDate;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/stocks/splits';
};
export type ListStockSplitsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListStockSplitsError = ListStockSplitsErrors[keyof ListStockSplitsErrors];
export type ListStockSplitsResponses = {
    /**
     * Splits, newest first.
     */
    200: StockSplitPage;
};
export type ListStockSplitsResponse = ListStockSplitsResponses[keyof ListStockSplitsResponses];
export type ListFuturesProductsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Only this product.
         */
        root?: FuturesRoot;
    };
    url: '/v1/futures/products';
};
export type ListFuturesProductsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesProductsError = ListFuturesProductsErrors[keyof ListFuturesProductsErrors];
export type ListFuturesProductsResponses = {
    /**
     * The products, ES, NQ, RTY, MES, MNQ, M2K in that order.
     */
    200: FuturesProductsResponse;
};
export type ListFuturesProductsResponse = ListFuturesProductsResponses[keyof ListFuturesProductsResponses];
export type ListFuturesContractsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Only this product's contracts.
         */
        root?: FuturesRoot;
        /**
         * One contract, ESZ26 or ESZ6 (root, month code H/M/U/Z, one- or two-digit year).
         */
        symbol?: string;
        /**
         * The date the listing is described at, within the exchange calendar (2000-01-01 through 2035-12-31); default the current CME trade date.
         */
        as_of?: CalendarDate;
        /**
         * Also each root's eight most recently expired contracts (ignored with `symbol`).
         */
        include_expired?: boolean;
    };
    url: '/v1/futures/contracts';
};
export type ListFuturesContractsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesContractsError = ListFuturesContractsErrors[keyof ListFuturesContractsErrors];
export type ListFuturesContractsResponses = {
    /**
     * The contracts, per root nearest expiration first (expired ones, when asked, before them).
     */
    200: FuturesContractsResponse;
};
export type ListFuturesContractsResponse = ListFuturesContractsResponses[keyof ListFuturesContractsResponses];
export type ListFuturesBarsData = {
    body?: never;
    path?: never;
    query: {
        /**
         * A contract (ESZ26 or ESZ6) or a continuous symbol (ES.c.0, ES.v.0, ES.n.0; rank 0 to 9) of ES, NQ, RTY, MES, MNQ or M2K.
         */
        symbol: FuturesBarSymbol;
        /**
         * Bar length. The range is at most 7 days at 1m, 31 at 5m, 92 at 1h and 366 at 1d.
         */
        interval?: BarInterval;
        /**
         * globex (all Globex hours of each trade date) or rth (09:30 to 16:00 ET, 13:00 on an early close).
         */
        session?: FuturesBarSession;
        /**
         * Back-adjustment of a continuous series at its rolls (none, difference, ratio); with a contract symbol it changes nothing.
         */
        adjust?: FuturesPriceAdjustment;
        /**
         * One CME trade date's session instead of start_time/end_time, within the exchange calendar (2000-01-01 through 2035-12-31).
         */
        date?: CalendarDate;
        /**
         * Range start, inclusive, Unix ms (on the minutes' starts); the range may span several trade dates.
         */
        start_time?: UnixMsParam;
        /**
         * Range end, exclusive, Unix ms.
         */
        end_time?: UnixMsParam;
        /**
         * Max bars per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/futures/bars';
};
export type ListFuturesBarsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesBarsError = ListFuturesBarsErrors[keyof ListFuturesBarsErrors];
export type ListFuturesBarsResponses = {
    /**
     * Bars, oldest first.
     */
    200: FuturesBarPage;
};
export type ListFuturesBarsResponse = ListFuturesBarsResponses[keyof ListFuturesBarsResponses];
export type ListFuturesContinuousData = {
    body?: never;
    path?: never;
    query: {
        /**
         * A continuous symbol (ES.c.0, ES.v.0, ES.n.0; rank 0 to 9) of ES, NQ, RTY, MES, MNQ or M2K.
         */
        symbol: string;
        /**
         * First trade date, inclusive, within the exchange calendar (2000-01-01 through 2035-12-31); default 91 days before end_date.
         */
        start_date?: CalendarDate;
        /**
         * Last trade date, inclusive, within the exchange calendar (2000-01-01 through 2035-12-31); at most 366 days after start_date. Default the current CME trade date, kept within 0 to 366 days after a given start_date (a later start_date maps that date alone; an earlier one its first 367 dates).
         */
        end_date?: CalendarDate;
    };
    url: '/v1/futures/continuous';
};
export type ListFuturesContinuousErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesContinuousError = ListFuturesContinuousErrors[keyof ListFuturesContinuousErrors];
export type ListFuturesContinuousResponses = {
    /**
     * The mapping intervals, oldest first.
     */
    200: FuturesContinuousResponse;
};
export type ListFuturesContinuousResponse = ListFuturesContinuousResponses[keyof ListFuturesContinuousResponses];
export type ListFuturesTradesData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * One contract, ESZ26 or ESZ6 (root, month code H/M/U/Z, one- or two-digit year; a one-digit year is the year ending in that digit from four years before the trade date's year to five after).
         */
        symbol?: string;
        /**
         * Every contract of this product.
         */
        root?: FuturesRoot;
        /**
         * CME trade date, within the exchange calendar (2000-01-01 through 2035-12-31); default the trade date trading now, else the most recent one that has closed.
         */
        date?: CalendarDate;
        /**
         * Window start, inclusive, Unix ms; within the trade date's Globex session.
         */
        start_time?: UnixMsParam;
        /**
         * Window end, exclusive, Unix ms; within the trade date's Globex session.
         */
        end_time?: UnixMsParam;
        /**
         * Only trades of this aggressor (none: the feed gave none).
         */
        aggressor_side?: FuturesAggressorSide;
        /**
         * Minimum trade size in contracts, inclusive.
         */
        min_size?: number;
        /**
         * Maximum trade size in contracts, inclusive.
         */
        max_size?: number;
        /**
         * Minimum notional (price × multiplier × size) in USD, inclusive.
         */
        min_notional?: number;
        /**
         * Maximum notional (price × multiplier × size) in USD, inclusive.
         */
        max_notional?: number;
        /**
         * desc newest first (the default), asc oldest first.
         */
        order?: SortOrder;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/futures/trades';
};
export type ListFuturesTradesErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesTradesError = ListFuturesTradesErrors[keyof ListFuturesTradesErrors];
export type ListFuturesTradesResponses = {
    /**
     * A page of trades in the order asked.
     */
    200: FuturesTradePage;
};
export type ListFuturesTradesResponse = ListFuturesTradesResponses[keyof ListFuturesTradesResponses];
export type ListFuturesSettlementsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Every contract of this product.
         */
        root?: FuturesRoot;
        /**
         * One contract, ESZ26 or ESZ6 (root, month code H/M/U/Z, one- or two-digit year; a one-digit year is read as `/v1/futures/contracts` reads it, from the end of the range).
         */
        symbol?: string;
        /**
         * One CME trade date, within the exchange calendar (2000-01-01 through 2035-12-31); default the newest trade date with a stored row at or before the current one.
         */
        date?: CalendarDate;
        /**
         * First trade date of a range, inclusive, within the exchange calendar (2000-01-01 through 2035-12-31); at most 366 dates with end_date. Default (with end_date alone) 30 days before end_date.
         */
        start_date?: CalendarDate;
        /**
         * Last trade date of a range, inclusive, within the exchange calendar (2000-01-01 through 2035-12-31). Default (with start_date alone) the current trade date, kept within 0 to 365 days after start_date (a later start_date reads that date alone; an earlier one its first 366 dates).
         */
        end_date?: CalendarDate;
        /**
         * Max rows per page.
         */
        limit?: number;
        /**
         * Opaque cursor from pagination.next_cursor_id; repeat the same query with it set. The next page is read from data at least as fresh as the first page's (where the service has read replicas, one that has not caught up with it does not serve the page).
         */
        cursor_id?: string;
    };
    url: '/v1/futures/settlements';
};
export type ListFuturesSettlementsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListFuturesSettlementsError = ListFuturesSettlementsErrors[keyof ListFuturesSettlementsErrors];
export type ListFuturesSettlementsResponses = {
    /**
     * Rows by trade date, then contract expiration.
     */
    200: FuturesSettlementPage;
};
export type ListFuturesSettlementsResponse = ListFuturesSettlementsResponses[keyof ListFuturesSettlementsResponses];
export type GetFuturesBasisData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The product's contracts, as `contracts` chooses.
         */
        root?: FuturesRoot;
        /**
         * One contract, ESZ26 or ESZ6 (a one-digit year read as `/v1/futures/contracts` reads it at the trade date of the instant, or of the series' end).
         */
        symbol?: string;
        /**
         * With root (not with symbol), front (the nearest contract not settled at each minute; the default) or listed (every stored one not settled).
         */
        contracts?: FuturesBasisContracts;
        /**
         * The instant (Unix ms) instead of now; the newest minute with both prices ended by it, up to 7 days back.
         */
        at?: UnixMsParam;
        /**
         * A series from this instant, inclusive, Unix ms (on the minutes' starts); default (with end_time alone) 24 hours before end_time. A range that begins after the newest minute of data is 422 no_data.
         */
        start_time?: UnixMsParam;
        /**
         * End of the series, exclusive, Unix ms; default now (and at most now). Alone, it reads the 24 hours before it.
         */
        end_time?: UnixMsParam;
        /**
         * A series' step, 1m (every minute) or 1h (the last minute of each clock hour); a series' only (without start_time, ignored).
         */
        interval?: FuturesBasisInterval;
    };
    url: '/v1/futures/basis';
};
export type GetFuturesBasisErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * The request is valid but no data exists for it (no_data).
     */
    422: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetFuturesBasisError = GetFuturesBasisErrors[keyof GetFuturesBasisErrors];
export type GetFuturesBasisResponses = {
    /**
     * Points by contract, nearest expiration first, then time.
     */
    200: FuturesBasisResponse;
};
export type GetFuturesBasisResponse = GetFuturesBasisResponses[keyof GetFuturesBasisResponses];
export type ListMarketSessionsData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Asset class; default all classes.
         */
        asset?: AssetClass;
        /**
         * Trading date, within the exchange calendar (2000-01-01 through 2035-12-31); default the current exchange date in New York.
         */
        date?: CalendarDate;
    };
    url: '/v1/market/sessions';
};
export type ListMarketSessionsErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListMarketSessionsError = ListMarketSessionsErrors[keyof ListMarketSessionsErrors];
export type ListMarketSessionsResponses = {
    /**
     * Session windows ordered by asset then start time.
     */
    200: MarketSessionsResponse;
};
export type ListMarketSessionsResponse = ListMarketSessionsResponses[keyof ListMarketSessionsResponses];
export type GetMarketCalendarDayData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * The date, within the exchange calendar (2000-01-01 through 2035-12-31); default today in New York.
         */
        date?: CalendarDate;
    };
    url: '/v1/market/calendar';
};
export type GetMarketCalendarDayErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetMarketCalendarDayError = GetMarketCalendarDayErrors[keyof GetMarketCalendarDayErrors];
export type GetMarketCalendarDayResponses = {
    /**
     * The calendar day.
     */
    200: CalendarDayResponse;
};
export type GetMarketCalendarDayResponse = GetMarketCalendarDayResponses[keyof GetMarketCalendarDayResponses];
export type GetAccountData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/account';
};
export type GetAccountErrors = {
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetAccountError = GetAccountErrors[keyof GetAccountErrors];
export type GetAccountResponses = {
    /**
     * The account.
     */
    200: AccountResponse;
};
export type GetAccountResponse = GetAccountResponses[keyof GetAccountResponses];
export type GetAccountLimitsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/account/limits';
};
export type GetAccountLimitsErrors = {
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type GetAccountLimitsError = GetAccountLimitsErrors[keyof GetAccountLimitsErrors];
export type GetAccountLimitsResponses = {
    /**
     * Limits and windows.
     */
    200: AccountLimitsResponse;
};
export type GetAccountLimitsResponse = GetAccountLimitsResponses[keyof GetAccountLimitsResponses];
export type ListAccountUsageData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Range start, inclusive.
         */
        start_time?: UnixMsParam;
        /**
         * Range end, exclusive.
         */
        end_time?: UnixMsParam;
        /**
         * Bucket size.
         */
        granularity?: UsageGranularity;
        /**
         * Add the per-route breakdown to every bucket that has requests.
         */
        by_route?: boolean;
    };
    url: '/v1/account/usage';
};
export type ListAccountUsageErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListAccountUsageError = ListAccountUsageErrors[keyof ListAccountUsageErrors];
export type ListAccountUsageResponses = {
    /**
     * Usage buckets, oldest first.
     */
    200: UsageResponse;
};
export type ListAccountUsageResponse = ListAccountUsageResponses[keyof ListAccountUsageResponses];
export type ListCatalogData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Only routes of this family; any family a catalog entry can have is accepted, and a family without routes yet (futures) lists none.
         */
        family?: RouteFamily;
    };
    url: '/v1/catalog';
};
export type ListCatalogErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
    /**
     * The endpoint did not answer within 20 seconds (upstream_timeout); its database work was cancelled.
     */
    504: ErrorResponse;
};
export type ListCatalogError = ListCatalogErrors[keyof ListCatalogErrors];
export type ListCatalogResponses = {
    /**
     * Catalog entries ordered by path.
     */
    200: CatalogResponse;
};
export type ListCatalogResponse = ListCatalogResponses[keyof ListCatalogResponses];
export type GetStatusData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/status';
};
export type GetStatusErrors = {
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
};
export type GetStatusError = GetStatusErrors[keyof GetStatusErrors];
export type GetStatusResponses = {
    /**
     * Health and freshness.
     */
    200: StatusResponse;
};
export type GetStatusResponse = GetStatusResponses[keyof GetStatusResponses];
export type GetOpenApiDocumentData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/openapi.json';
};
export type GetOpenApiDocumentErrors = {
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
};
export type GetOpenApiDocumentError = GetOpenApiDocumentErrors[keyof GetOpenApiDocumentErrors];
export type GetOpenApiDocumentResponses = {
    /**
     * The OpenAPI document.
     */
    200: OpenApiDocument;
};
export type GetOpenApiDocumentResponse = GetOpenApiDocumentResponses[keyof GetOpenApiDocumentResponses];
export type GetAsyncApiDocumentData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/asyncapi.json';
};
export type GetAsyncApiDocumentErrors = {
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
};
export type GetAsyncApiDocumentError = GetAsyncApiDocumentErrors[keyof GetAsyncApiDocumentErrors];
export type GetAsyncApiDocumentResponses = {
    /**
     * The AsyncAPI document.
     */
    200: AsyncApiDocument;
};
export type GetAsyncApiDocumentResponse = GetAsyncApiDocumentResponses[keyof GetAsyncApiDocumentResponses];
export type CreateExportData = {
    body: ExportRequest;
    path?: never;
    query?: never;
    url: '/v1/exports';
};
export type CreateExportErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
};
export type CreateExportError = CreateExportErrors[keyof CreateExportErrors];
export type CreateExportResponses = {
    /**
     * The export job, accepted.
     */
    202: ExportJobResponse;
};
export type CreateExportResponse = CreateExportResponses[keyof CreateExportResponses];
export type GetExportData = {
    body?: never;
    path: {
        /**
         * Export id.
         */
        id: string;
    };
    query?: never;
    url: '/v1/exports/{id}';
};
export type GetExportErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * No such resource for this account (not_found).
     */
    404: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
    /**
     * Data temporarily unavailable: an older session is loading (data_pending), or work capacity is full (upstream_busy). Retry after Retry-After seconds.
     */
    503: ErrorResponse;
};
export type GetExportError = GetExportErrors[keyof GetExportErrors];
export type GetExportResponses = {
    /**
     * The export job.
     */
    200: ExportJobResponse;
};
export type GetExportResponse = GetExportResponses[keyof GetExportResponses];
export type DownloadExportData = {
    body?: never;
    path: {
        /**
         * Export id.
         */
        id: string;
    };
    query?: never;
    url: '/v1/exports/{id}/download';
};
export type DownloadExportErrors = {
    /**
     * Invalid, unknown or repeated parameters, invalid cursor, or invalid body (codes invalid_parameter, invalid_cursor, invalid_body); details name each bad parameter.
     */
    400: ErrorResponse;
    /**
     * Missing or invalid API key (code unauthorized).
     */
    401: ErrorResponse;
    /**
     * The plan, dataset release or entitlement does not allow the request (forbidden), or the account is suspended (account_suspended).
     */
    403: ErrorResponse;
    /**
     * No such resource for this account (not_found).
     */
    404: ErrorResponse;
    /**
     * The export is not ready yet (export_not_ready); poll the job.
     */
    409: ErrorResponse;
    /**
     * The export's file was deleted at its expires_timestamp (export_expired); create the export again.
     */
    410: ErrorResponse;
    /**
     * Rate limit (rate_limited, also the fifth simultaneous request and the keyless budget), burst limit (burst_limited), cooldown, or export limit (export_limit). Wait Retry-After seconds.
     */
    429: ErrorResponse;
    /**
     * Internal error (internal_error). Details are logged with the request id, never returned.
     */
    500: ErrorResponse;
};
export type DownloadExportError = DownloadExportErrors[keyof DownloadExportErrors];
export type DownloadExportResponses = {
    /**
     * The export file.
     */
    200: ExportFile;
};
export type DownloadExportResponse = DownloadExportResponses[keyof DownloadExportResponses];
