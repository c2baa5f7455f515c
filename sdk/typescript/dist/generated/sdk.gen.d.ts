import type { Client, Options as Options2, TDataShape } from './client/index.js';
import type { CreateExportData, CreateExportErrors, CreateExportResponses, DownloadExportData, DownloadExportErrors, DownloadExportResponses, GetAccountData, GetAccountErrors, GetAccountLimitsData, GetAccountLimitsErrors, GetAccountLimitsResponses, GetAccountResponses, GetAsyncApiDocumentData, GetAsyncApiDocumentErrors, GetAsyncApiDocumentResponses, GetContractTradeAtTimeData, GetContractTradeAtTimeErrors, GetContractTradeAtTimeResponses, GetExportData, GetExportErrors, GetExportResponses, GetExposureHeatmapData, GetExposureHeatmapErrors, GetExposureHeatmapResponses, GetExposureLevelsData, GetExposureLevelsErrors, GetExposureLevelsResponses, GetFuturesBasisData, GetFuturesBasisErrors, GetFuturesBasisResponses, GetIndexSnapshotData, GetIndexSnapshotErrors, GetIndexSnapshotResponses, GetIndexVolatilityData, GetIndexVolatilityErrors, GetIndexVolatilityResponses, GetMarketCalendarDayData, GetMarketCalendarDayErrors, GetMarketCalendarDayResponses, GetOpenApiDocumentData, GetOpenApiDocumentErrors, GetOpenApiDocumentResponses, GetOpenInterestData, GetOpenInterestErrors, GetOpenInterestResponses, GetOptionChainData, GetOptionChainErrors, GetOptionChainResponses, GetPremiumDriftData, GetPremiumDriftErrors, GetPremiumDriftResponses, GetStatusData, GetStatusErrors, GetStatusResponses, GetVolatilityDriftData, GetVolatilityDriftErrors, GetVolatilityDriftResponses, GetVolatilitySkewData, GetVolatilitySkewErrors, GetVolatilitySkewResponses, ListAccountUsageData, ListAccountUsageErrors, ListAccountUsageResponses, ListCatalogData, ListCatalogErrors, ListCatalogResponses, ListContractImpliedVolatilityData, ListContractImpliedVolatilityErrors, ListContractImpliedVolatilityResponses, ListFlowLeadersData, ListFlowLeadersErrors, ListFlowLeadersResponses, ListFuturesBarsData, ListFuturesBarsErrors, ListFuturesBarsResponses, ListFuturesContinuousData, ListFuturesContinuousErrors, ListFuturesContinuousResponses, ListFuturesContractsData, ListFuturesContractsErrors, ListFuturesContractsResponses, ListFuturesProductsData, ListFuturesProductsErrors, ListFuturesProductsResponses, ListFuturesSettlementsData, ListFuturesSettlementsErrors, ListFuturesSettlementsResponses, ListFuturesTradesData, ListFuturesTradesErrors, ListFuturesTradesResponses, ListIndexBarsData, ListIndexBarsErrors, ListIndexBarsResponses, ListIndexVolatilityBarsData, ListIndexVolatilityBarsErrors, ListIndexVolatilityBarsResponses, ListIndicesData, ListIndicesErrors, ListIndicesResponses, ListMarketSessionsData, ListMarketSessionsErrors, ListMarketSessionsResponses, ListOptionBarsData, ListOptionBarsErrors, ListOptionBarsResponses, ListOptionContractsData, ListOptionContractsErrors, ListOptionContractsResponses, ListOptionFlowData, ListOptionFlowErrors, ListOptionFlowResponses, ListOptionOvernightSessionsData, ListOptionOvernightSessionsErrors, ListOptionOvernightSessionsResponses, ListOptionTradesData, ListOptionTradesErrors, ListOptionTradesResponses, ListOvernightOptionFlowData, ListOvernightOptionFlowErrors, ListOvernightOptionFlowResponses, ListStockSplitsData, ListStockSplitsErrors, ListStockSplitsResponses } from './types.gen.js';
export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean> = Options2<TData, ThrowOnError> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: Record<string, unknown>;
};
/**
 * List classified option prints
 *
 * One row per option execution, newest first, each classified against the NBBO in force.
 * Cancelled prints are never served. Give exactly one of `underlying_symbol` and `underlying_symbols`;
 * a family name (SPX, NDX, RUT, VIX) covers its sub-roots, a weekly root alone covers only itself.
 * Without `date`, the current session is used, else the most recent completed one. Overnight
 * (gth) prints belong to the next trading date and need the Pro plan or overnight entitlement.
 *
 * `start_time`/`end_time` must lie within one session of the chosen date (400 otherwise): for
 * `rth` 09:30 ET to the 16:15 ET close (13:15 on early-close days). Filters on `exchange`
 * and on the at/near split of a side are applied within a bounded scan of at most 20,000 prints per
 * page: when the budget ends before the page fills, `meta.coverage.scan_complete` is false and
 * the cursor continues from where the scan stopped. Cursors are opaque, tamper-evident (a forged
 * or altered cursor is 400) and valid for 24 hours across restarts. Roughly the last five
 * sessions are held; an older session answers 503 `data_pending` while a load job runs.
 *
 * **Classification.** `side` places the price against the NBBO in force: at_ask / at_bid at the
 * quote (within 0.00005 USD), above_ask / below_bid beyond it, mid within ±10% of the spread
 * around the mid (its middle 20%), near_ask / near_bid inside the spread between the mid zone and
 * the quote; unknown without a valid quote (missing, one-sided, zero, crossed, or more than 30 s
 * old). `side_confidence` is 1 at or beyond the quote, 0.6 to 0.9 across the near bands, 0.5 at
 * the mid, times a quote-age factor (1 to 0.5 from 1 s to 30 s) and 0.5 or 0.8 for complex prints.
 * Sweeps are 2 or more prints of one direction on 2 or more exchanges within 50 ms; splits on one
 * exchange within 500 ms. `is_block`: 100 contracts and 50,000 USD, or 250,000 USD, or a
 * negotiated (auction, cross, floor) print of 500 contracts; `is_golden`: a sweep of 1,000,000
 * USD; `is_unusual`: volume above open interest within 45 days, 250,000 USD, or an ask-side
 * out-of-the-money sweep. `implied_volatility` and `delta` are Black-Scholes-Merton at the
 * print, on the rate and the parity forward of its expiration's minute (else the fixed dividend
 * yield) of "Rates and dividend yields". The full rules are in
 * the section "Classification of prints".
 *
 */
export declare const listOptionTrades: <ThrowOnError extends boolean = false>(options?: Options<ListOptionTradesData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOptionTradesResponses, ListOptionTradesErrors, ThrowOnError, "fields">;
/**
 * List market-wide option flow
 *
 * The market-wide feed of classified prints across every underlying the platform holds, newest
 * first, with the same rows, filters, scan budget and cursor rules as `/v1/options/trades`.
 * `underlying_symbols` optionally narrows the feed.
 *
 */
export declare const listOptionFlow: <ThrowOnError extends boolean = false>(options?: Options<ListOptionFlowData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOptionFlowResponses, ListOptionFlowErrors, ThrowOnError, "fields">;
/**
 * List overnight-session option prints
 *
 * Prints of the overnight (gth) session that belongs to `date` (it starts the evening before),
 * newest first, for the roots that have a Global Trading Hours session. Same rows, filters and
 * cursor rules as `/v1/options/trades`, including the at/near side split. Needs the Pro plan or
 * the overnight entitlement (403 otherwise).
 *
 */
export declare const listOvernightOptionFlow: <ThrowOnError extends boolean = false>(options?: Options<ListOvernightOptionFlowData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOvernightOptionFlowResponses, ListOvernightOptionFlowErrors, ThrowOnError, "fields">;
/**
 * Rank underlyings or contracts by flow
 *
 * Ranks underlyings (`grain=root`) by net, bullish or bearish premium, total premium, volume or
 * prints; or contracts (`grain=contract`) by change from the previous close, premium or volume.
 * Rows carry `underlying_symbol` and the fields of their grain only. Root grain accepts `sort`
 * net (default), bullish, bearish, premium, volume, trades; contract grain accepts
 * change_percent (default), premium, volume; another sort is 400. `underlying_symbols` is
 * accepted with contract grain only.
 *
 * `min_premium` keeps the ranked rows whose own premium (the underlying's or the contract's
 * session total) reaches it; every print of a row counts towards its premium, and root-grain
 * shares stay shares of the whole market. A contract without a previous close (not traded in
 * the previous session's regular hours, or that session is not held) or without open interest
 * is ranked with those fields null; without a previous close its `change_percent` is null, and
 * sorted by change_percent it ranks after every contract that has one, in either order. A
 * minimum that no row reaches is 422.
 *
 */
export declare const listFlowLeaders: <ThrowOnError extends boolean = false>(options?: Options<ListFlowLeadersData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFlowLeadersResponses, ListFlowLeadersErrors, ThrowOnError, "fields">;
/**
 * Cumulative signed premium through a session
 *
 * Running totals of customer premium bought on the ask side (at_ask, near_ask, above_ask) minus
 * premium sold on the bid side (at_bid, near_bid, below_bid), for calls and puts, and their
 * difference (sentiment drift), by bucket. Mid and unknown prints add nothing. Buckets that have
 * not started are not returned. Filters share name, type, limits and meaning with
 * `/v1/options/trades`; `include_complex` defaults to false here, and sides are requested as
 * ask/bid (the at/near split is not accepted).
 *
 * The prints counted are those the session holds, as on the trades route, so a session's totals
 * agree with the trades, flow leaders and heat map routes. Buckets run from the session's start:
 * 09:30 ET for `rth` to the latest regular close among the roots (16:15 ET for index and ETF
 * options); 20:15 ET the evening before for `gth` to 09:25 ET; for `all` from 20:15 ET the
 * evening before to the curb's end at 17:00 ET (SPX, XSP, VIX) or the regular close. A print at
 * the close itself, or a late report after it, adds the bucket it falls in.
 *
 */
export declare const getPremiumDrift: <ThrowOnError extends boolean = false>(options: Options<GetPremiumDriftData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetPremiumDriftResponses, GetPremiumDriftErrors, ThrowOnError, "fields">;
/**
 * Implied volatility history of one contract
 *
 * Bid, ask and midpoint of one contract's NBBO sampled at `interval`, oldest first, each with its
 * implied volatility solved by the service (Black-Scholes-Merton with the rate of "Rates and
 * dividend yields" and the carry of the expiration's put-call parity forward in the sample's
 * minute, `forward`, else the fixed dividend yield stated there; time counted to the contract's
 * settlement instant), next to the underlying price used. Give either `date` (one trading date) or `start_time`/`end_time` (at most 31 days);
 * the default is the current session's trading date, else the latest completed one (with `gth`,
 * an overnight session in progress is the current one: it belongs to the next trading date,
 * as on the trades route). `underlying_symbol` is one
 * exact root: monthly and weekly roots (SPX, SPXW) are different roots.
 *
 * `session` chooses the windows sampled. The default, `rth`, computes only during the regular
 * session (09:30 ET to the options close), as the route always has. `gth` and `all` extend it
 * to the overnight session and need the Pro plan or the overnight entitlement (403 otherwise):
 * `gth` is the Cboe Global Trading Hours window of each trading date, 20:15 ET on the calendar
 * evening before (Sunday for Monday) to 09:25 ET on the date, so with `date` it starts the
 * evening before; `all` is both windows of each date, so with `date` it runs from 20:15 ET the
 * evening before to the regular close. With `start_time`/`end_time` the chosen windows of every
 * trading date that meet the range are served, cut to it, oldest first. The curb session is not
 * sampled. Only roots with an overnight session (SPX, SPXW, XSP, VIX, VIXW) have one: `gth` for
 * any other root answers 422, and `all` serves its regular sessions.
 *
 * Buckets start on a grid of `interval` from each window's own open: 09:30 ET for the regular
 * session, 20:15 ET for the overnight one (at 1h: 20:15, 21:15, ... 09:15, the last cut at
 * 09:25). A bucket never spans two windows; `timestamp` is the bucket's start and the cursor
 * continues across windows.
 *
 * A bucket without a quote sample of the contract has no row: the series is not filled in.
 * Contracts near the money of the nearest expirations are sampled every minute; the others
 * only in the chain snapshots (every 15 minutes), so at a shorter interval some buckets are
 * empty. A page with an empty bucket in its span (from where it starts to its last bucket's end,
 * or to the range's end on the last page) has `meta.coverage.complete` false and
 * `meta.coverage.reason` saying how many of its buckets are empty.
 *
 */
export declare const listContractImpliedVolatility: <ThrowOnError extends boolean = false>(options: Options<ListContractImpliedVolatilityData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListContractImpliedVolatilityResponses, ListContractImpliedVolatilityErrors, ThrowOnError, "fields">;
/**
 * Last trade of one contract at an instant
 *
 * The last trade of one contract at or before `timestamp`; `trade` is null when there is none in
 * the retained data. Instants outside a regular session, 09:30 to 16:15 Eastern of a trading
 * date (13:15 on an early-close day), need the Pro plan or the overnight entitlement (403
 * otherwise): overnight hours, weekends, holidays and the hours after an early close.
 *
 * Without the entitlement, overnight (gth) prints are not searched, so the trade served may be
 * older than one made overnight (at 09:31 ET the last trade may be from the evening before):
 * `sessions_searched` names the print sessions the search read, `[rth, curb, other]` then and
 * `[gth, rth, curb, other]` with the entitlement.
 *
 */
export declare const getContractTradeAtTime: <ThrowOnError extends boolean = false>(options: Options<GetContractTradeAtTimeData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetContractTradeAtTimeResponses, GetContractTradeAtTimeErrors, ThrowOnError, "fields">;
/**
 * Volatility skew by expiration
 *
 * Implied volatility by strike for up to eight expirations, solved by the service from the
 * option chain, with at-the-money volatility, 25- and 10-delta risk reversals and butterflies,
 * normalized skew and slope against moneyness. Volatilities are decimals (0.18 means 18%).
 *
 * **Which chain.** The session is the regular one (`rth`: 09:30 ET to the options close, 16:15
 * for index and ETF options, 16:00 for equity options) or the overnight one (`gth`: 20:15 ET the
 * evening before to 09:25 ET; Pro plan, and only for an underlying with an overnight session,
 * else 422). The request's instant is now, or `at`. A session that has ended by then is valued
 * at its close. While it runs, it is valued at the end of the newest minute of data: the newest
 * minute, ended by the request's instant, for which the store holds quote samples of the trading
 * date. So every request between two loads of data values the same minute and gets one answer,
 * and nothing recorded after the request's instant is read. `valuation.timestamp` and
 * `chain_timestamp` (below) say which minute; `meta.as_of` stays the time the response was
 * made. A session that has not begun is 422. The chain is one minute's: the newest minute, at
 * or before the instant, in which at least half of the contracts of the family's every
 * expiration settling after the instant were sampled, the same minute for every route and
 * every selection of expirations (the store keeps a
 * snapshot of every listed contract every 15 minutes and at the open and close, and one-minute
 * samples of the strikes near the money; the two are not mixed across a moving market). Each
 * contract is valued at its last quote of that minute or before it, at most 30 minutes old; a
 * contract without one is left out. `valuation.timestamp` is the end of the chain's minute (not
 * after the instant) and times to settlement run from it; `chain_timestamp` is the newest quote
 * used. `underlying_price` is the close of the last one-minute underlying bar ended by the
 * valuation time (`underlying_timestamp` is that bar's start); `underlying_stale` says that bar
 * started more than 15 minutes before it. `risk_free_rate` is the continuously compounded
 * Treasury bill rate of the trading date.
 *
 * **One book per minute.** The surface is fitted once per family, session and minute of data
 * over every expiration settling after the minute, and kept for the whole deployment (see the
 * Valuation schema): the smiles of the expirations a request selects are those of that one
 * surface, calendar-checked against all of the family's expirations, so skew, levels and heat
 * map agree on every volatility, whichever expirations each asks for.
 *
 * **Which expirations.** Default: the nearest four expirations that settle at least an hour
 * after the instant. `date_of_expiry` names one, `expirations` up to eight (not both); a named
 * expiration that is not listed, or has settled, is left out, and 422 answers when none is left.
 * A family (SPX covers SPX and SPXW) has one element per date: where two of its roots expire on
 * the same date, the chain of the root that settles later (SPXW, PM-settled) is used; `root` says
 * whose chain an element is. Time to settlement is on the ACT/365 calendar clock to the
 * settlement instant (09:30 ET for AM-settled roots, the calendar's close for PM-settled ones:
 * 13:00 ET on an early-close day, so at its 13:15 ET options close that day's expiration has
 * settled and the first is the next one).
 *
 * **Method.**
 * 1. *Forward*: put-call parity F = K + e^{rT}(C − P) from the mids of every strike quoted on
 * both legs; the median over all such strikes, then the median of the eight strikes nearest
 * that in log-moneyness (twice, re-centred). The dividend yield is what F implies.
 * 2. *Quote volatilities*: Black-76 on the forward (the same σ as Black-Scholes-Merton on the
 * spot with the implied dividend yield) for bid, ask and mid. A zero or missing side is no
 * quote; a mid needs both sides, not crossed. The points report each leg's mid volatility
 * and delta; `otm_implied_volatility` is the put below the forward and the call at or above.
 * 3. *Smile*: raw SVI, w(k) = a + b(ρ(k − m) + √((k − m)² + σ²)) in total variance against
 * log-forward moneyness k = ln(K/F), calibrated to the out-of-the-money mids by the
 * quasi-explicit method (Zeliade Systems 2009; De Marco and Martini 2009), each quote
 * weighted by its bid-ask spread measured in volatility (price spread over vega). It needs
 * five quotes and must pass the Gatheral–Jacquier (2014) butterfly condition g(k) ≥ 0 on a
 * grid over the quoted moneyness; then neighbouring expirations are compared for calendar
 * arbitrage (total variance not decreasing with time at fixed k, on the moneyness both
 * quote). A smile with too few quotes, a failed fit, or a failed check is instead linear
 * interpolation of total variance between the quotes (flat beyond the outermost). `fit`
 * says which, why, and how well the curve meets the quotes.
 * 4. *Delta measures*: delta is the Black-Scholes-Merton spot delta with the implied dividend
 * yield, Δc = e^{−qT}Φ(d1), Δp = −e^{−qT}Φ(−d1), at the smile's volatility. The 25-delta
 * call is the strike where Δc = 0.25 on the smile, the 25-delta put where Δp = −0.25 (10
 * likewise). At the money is the forward (k = 0). risk_reversal_x = σ(x call) − σ(x put);
 * butterfly_x = (σ(x call) + σ(x put))/2 − σ_atm; normalized_skew = risk_reversal_25d /
 * atm_implied_volatility; slope = dσ/dk at k = 0 (volatility points per unit of
 * log-moneyness, as a decimal). Deltas need the underlying price: without one the delta
 * measures are null.
 * 5. `days_to_expiry` counts calendar days from the trading date to the expiration.
 *
 */
export declare const getVolatilitySkew: <ThrowOnError extends boolean = false>(options: Options<GetVolatilitySkewData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetVolatilitySkewResponses, GetVolatilitySkewErrors, ThrowOnError, "fields">;
/**
 * At-the-money volatility through a session
 *
 * At-the-money implied volatility of one expiration through the session on calendar and
 * trading-variance clocks, next to adjusted realized volatility and the 30-day constant-maturity
 * volatility. Volatilities are decimals.
 *
 * **Buckets.** The session is the regular one (`rth`, 09:30 ET to the options close) or the
 * overnight one (`gth`, 20:15 ET the evening before to 09:25 ET; Pro plan and an underlying with
 * an overnight session, else 422). The drift runs up to the valuation instant, as on the skew
 * route: the session's close once it has ended by the request's instant (now, or `at`); while it
 * runs, the end of the newest minute of data ended by that instant, so nothing recorded after it
 * is read. Buckets of 1 or 5 minutes start at the session's open; a
 * bucket's figures use the last quote of each contract in the bucket and the last underlying
 * bar ended by the bucket's end; `timestamp` is the bucket's start. Only buckets with a value
 * are listed. The tracked expiration is `date_of_expiry`, default the nearest one that settles
 * after the session opens (for a family, as on the skew route: the later-settling root of a date).
 *
 * **implied_volatility (calendar clock).** At-the-money volatility σ with total variance
 * w = σ²T over T, the ACT/365 years to settlement: the parity forward from the bucket's quotes
 * (as the skew route), the out-of-the-money mid volatilities, and w interpolated linearly in
 * log-forward moneyness to k = 0.
 *
 * **implied_volatility_trading_clock.** The same total variance over τ, the years to settlement
 * on the trading-variance clock: each NYSE trading day carries 1/252 of a year of variance; the
 * regular-session share s of it (`realized_volatility_basis.regular_session_share`) accrues
 * uniformly over the regular session (09:30 to 16:00 ET, 13:00 on early closes), the rest
 * (1 − s) uniformly over the time since the previous trading day's close, so a night, a weekend
 * and a holiday each count as one overnight. σ_trading = √(w/τ): it does not drift as nights and
 * weekends pass on the calendar.
 *
 * **implied_volatility_30d.** 30-day constant maturity as Cboe's VIX method weights its terms:
 * σ30² = [T1σ1²(N2 − N30)/(N2 − N1) + T2σ2²(N30 − N1)/(N2 − N1)] × N365/N30 between the two
 * expirations that bracket 30 calendar days (N minutes to settlement, near term under 30 days,
 * next at or over), each σ their at-the-money volatility in the bucket; null when either is
 * missing.
 *
 * **adjusted_realized_volatility.** Realized variance of the underlying's one-minute log returns
 * from the window's open to the bucket's end, scaled to a whole day by the window's share of a
 * day's variance (s for the regular session's window, 09:30 to 16:00 ET or 13:00 on an early
 * close, where the share is estimated and index bars end; 1 − s for the overnight window, which
 * so also carries the variance of the evening and of the opening gap) and by the part of the
 * window elapsed, annualised over 252 days; null before five returns. The share s is estimated from
 * up to the last 30 sessions' open and close (Σ intraday² / Σ(overnight gap² + intraday²));
 * with fewer than 10 days of history 0.75 is used and `default_used` says so.
 *
 * Sessions older than the retained timelines are archived: asking for one starts its load
 * and answers 503 `data_pending` with Retry-After (retry); a date never held answers 422.
 *
 */
export declare const getVolatilityDrift: <ThrowOnError extends boolean = false>(options: Options<GetVolatilityDriftData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetVolatilityDriftResponses, GetVolatilityDriftErrors, ThrowOnError, "fields">;
/**
 * Open interest by strike or expiration
 *
 * Open interest of the previous close (published each morning; it does not change during a
 * session), by strike or by expiration, with call and put totals and the put/call ratio (put
 * over call; null without call open interest).
 *
 * **Which figure.** The open interest published for the trading date (at most ten days older
 * when none is published for it yet); `open_interest_date` is the date of the close it counts,
 * the trading date before the one it was published for. A contract without that figure is left
 * out; 422 when no selected contract has one.
 *
 * **Which contracts.** The listed contracts of the underlying (a family covers its roots: SPX is
 * SPX and SPXW; a weekly root alone covers only itself) expiring on or after the trading date.
 * Every selector given applies (their intersection): `date_of_expiry`; `expirations` (dates not
 * listed are ignored); `expiry_mode` (0dte the trading date, 1dte the first listed expiration
 * after it, weekly within 7 calendar days, monthly the standard monthly expirations: the third
 * Friday, or the trading day before it when that Friday is a holiday, lte30 and lte90 within 30
 * or 90 days); `min_dte` and `max_dte` on calendar days from the trading date; `min_strike` and
 * `max_strike`; `strikes_around` (that many listed strikes either side of the listed strike
 * nearest the underlying price, the lower on a tie, among the strikes of the selected
 * expirations); `strike_percent_window` (|strike − price| at most that percent of the price).
 *
 * **Underlying price.** The close of the underlying's last one-minute bar ended by the regular
 * session's valuation instant (as on the skew route: the request's instant, now or `at`, moved
 * back to the end of the newest minute of data while the session runs, its close once ended;
 * before the open, the last bar before the request's instant). `strikes_around` and `strike_percent_window` need it (422 without one).
 *
 */
export declare const getOpenInterest: <ThrowOnError extends boolean = false>(options: Options<GetOpenInterestData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetOpenInterestResponses, GetOpenInterestErrors, ThrowOnError, "fields">;
/**
 * Modeled dealer exposure key levels
 *
 * Key levels of modeled dealer exposure: gamma flip, walls, gatekeepers, regime, expected move,
 * max pain and the ranked strikes. **These are model estimates**, not observed positions:
 * `classic_oi` assumes dealers are long the calls and short the puts of the open interest;
 * `flow_adjusted` moves that position by classified prints since the open interest date.
 * `positioning_model` names the assumption and its version; `unit_label` says what one unit is.
 *
 * **Which contracts.** Every listed contract of the underlying's roots (SPX covers SPX and SPXW;
 * monthlies and weeklies of one date are both counted) in the expirations the selectors keep
 * (all apply; as on `/v1/options/open-interest`), narrowed by `contract_type`. Contracts of an
 * expiration that has settled before the valuation time are listed but carry no greeks.
 *
 * **Valuation.** Session, instant, chain minute, underlying price and rate are the skew route's
 * (see `/v1/options/volatility/skew`): the chain of the selected expirations that settle after
 * the instant (one per date, the later-settling root's), its smiles fitted over exactly those
 * expirations; a skew request naming the same expirations reads the same chain and fits the same
 * surface. Each contract is valued with Black-Scholes-Merton at the underlying price S, the rate
 * r, its own ACT/365 time T to its settlement (09:30 ET AM-settled, the close PM-settled) from
 * `valuation.timestamp`, the dividend yield its date's parity forward F implies,
 * q = r − ln(F/S)/T, and one volatility per strike and date: the fitted smile at k = ln(K/F),
 * which the skew route shows as the point's `smile_implied_volatility` (calls and puts of a
 * strike share it). Open interest is the figure published for the trading date
 * (`valuation.open_interest_date` is the close it counts; a contract without it counts 0).
 *
 * **Positions (contracts; dealer view).** classic_oi/v1: +open interest for a call, −open
 * interest for a put. flow_adjusted/v1: that, minus the contracts customers bought on the ask
 * side (above_ask, at_ask, near_ask) and plus those sold on the bid side (near_bid, at_bid,
 * below_bid), over the prints of the trading dates from the open interest's publication through
 * the trading date before the valuation time; mid and unknown prints, and every leg of a complex
 * (multi-leg) order, change nothing; opening and closing trades are not told apart.
 * `perspective=customer` negates the values only: strikes chosen are the dealer's.
 *
 * **Units.** Per contract, with position P and multiplier M (100): gamma per_percent
 * Γ·P·M·S²·0.01 (USD of delta the dealer hedges per 1% move), per_dollar Γ·P·M·S, raw Γ·P·M
 * (shares per $1); delta Δ·P·M·S·0.01 / Δ·P·M / Δ·P·M shares; vanna per volatility point
 * vanna·P·M·S·0.01 / per 1.00 of volatility vanna·P·M·S / vanna·P·M shares; charm per calendar
 * day charm·P·M·S/365 / per year charm·P·M·S / charm·P·M shares per year (vanna ∂Δ/∂σ, charm
 * the change of Δ as a year passes).
 *
 * **Levels.** Call and put legs of a strike sum its contracts over all selected expirations;
 * net = call + put. call_wall and put_wall: largest positive call and most negative put;
 * call_wall_above and put_wall_below: largest positive net at or above S and most negative at or
 * below; major_positive and major_negative: the same anywhere; largest_absolute_strike: largest
 * |call| + |put|; peak_net_exposure: largest |net|; gatekeepers: strikes from S towards the peak
 * (S's side inclusive, the peak excluded) whose |net| is at least gatekeeper_ratio of the
 * peak's; ties go to the strike nearest S, then the lower. regime: net and absolute are Σ and
 * Σ|·| of the contracts' values, ratio net/absolute, positive at ≥ 0.05, negative at ≤ −0.05.
 * ranked: the five largest |value| per leg (gross = |call| + |put|, not negated). largest_cell:
 * the (expiration, strike) cell of largest |net|. vanna_levels, charm_max_absolute_strike and
 * delta_key_strike: only when `include` names them.
 *
 * **Gamma flip (sticky strike).** Net gamma Σ Γ(x)·P·M recomputed at 801 hypothetical prices x
 * evenly from 0.8·S to 1.2·S (every 0.05% of S), each contract keeping its volatility, time and
 * carry; every sign change between neighbouring samples is refined by bisection to 1e-10·S
 * (`gamma_flip_candidates`, ascending); `gamma_flip` is the one nearest S;
 * `gamma_flip_excluding_0dte` the same without the contracts expiring on the trading date;
 * `gamma_flip_far_from_underlying` true when net gamma keeps one sign over the whole sweep. The
 * flip, gamma_tilt (Σ positive call gamma over |Σ negative put gamma|) and
 * next_expiration_share (Σ|gamma| of the nearest expiration over Σ|gamma|) are measured on gamma
 * whatever `greek` is.
 *
 * **Nearest expiration.** The earliest expiration with contracts still to settle. max_pain: the
 * listed strike minimising Σ_calls OI·max(K* − K, 0) + Σ_puts OI·max(K − K*, 0). expected_move:
 * S·σ·√T with σ the smile at the forward (k = 0); straddle the mid of the call plus the put at
 * the listed strike nearest S with both mids; straddle_expected_move 0.85 × straddle; bands
 * S ± m and S ± 2m with m the expected move (or the straddle's when σ is unknown).
 *
 * **Reproducing a figure.** From `/v1/options/open-interest` (`date_of_expiry`, group_by
 * strike: each strike's call and put open interest) and `/v1/options/volatility/skew` with the
 * same `date` and expirations (valuation.timestamp, underlying_price, risk_free_rate, the
 * expiration's forward and each point's smile_implied_volatility): the classic_oi gamma per 1%
 * of a strike is Σ over its dates of Γ(S, K, T, r, q, σ)·(call OI − put OI)·100·S²·0.01.
 *
 */
export declare const getExposureLevels: <ThrowOnError extends boolean = false>(options: Options<GetExposureLevelsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetExposureLevelsResponses, GetExposureLevelsErrors, ThrowOnError, "fields">;
/**
 * Strike-by-expiration exposure heat map
 *
 * Modeled exposure (or open interest, volume, premium, net premium, prints) on a strike by
 * expiration grid; only pairs with a listed contract are cells. `net` combines calls and puts
 * (calls minus puts for open interest, volume, premium and trades). Default window: 40 strikes
 * either side of the underlying price and 12 expirations. `strikes_around` cannot be combined
 * with strike bounds (400). Exposure values are model estimates (see `/v1/options/levels`).
 *
 * **Values.** The contracts, their valuation, positions, units and perspective are exactly the
 * levels route's on the same request (see `/v1/options/levels`): a cell of gamma, delta, vanna
 * or charm sums the exposures of its contracts (every root of that date at that strike), so on
 * the same selectors the cells summed by strike are the levels' net exposure by strike and the
 * largest cell is the levels' `largest_cell`. Net is call + put for the greeks (each already
 * carries the dealer's long or short sign) and for net_premium. Observed metrics are the same
 * for every model and perspective: open_interest (the published figure, contracts), and from
 * the trading date's classified prints from the session's start to the valuation time (a
 * print at that instant belongs to the next minute), cancelled ones left out and complex ones in: volume (contracts), premium (USD, price × size ×
 * multiplier), net_premium (USD the customers bought on the ask side minus sold on the bid side)
 * and trades (prints). `greek` repeats `metric`; `unit_label` says what one unit is.
 *
 * **Window.** The selected expirations ascending; `max_expirations` of them from
 * `expiration_offset` (`expiration_window.total_expirations` counts all selected). Strikes:
 * `strikes_around` listed strikes either side of the listed strike nearest the underlying price
 * (the lower on a tie), among the strikes of the expirations shown; or, with `min_strike` or
 * `max_strike`, the listed strikes within them. A cell with value 0 is a listed contract with
 * nothing to show.
 *
 */
export declare const getExposureHeatmap: <ThrowOnError extends boolean = false>(options: Options<GetExposureHeatmapData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetExposureHeatmapResponses, GetExposureHeatmapErrors, ThrowOnError, "fields">;
/**
 * Option roots with an overnight session
 *
 * The option roots that trade in an overnight (Cboe Global Trading Hours) session, each with its
 * family, underlying and the overnight, regular and curb windows of `date` (default the current
 * exchange date, else the next trading date). A weekend or holiday date has no windows.
 *
 */
export declare const listOptionOvernightSessions: <ThrowOnError extends boolean = false>(options?: Options<ListOptionOvernightSessionsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOptionOvernightSessionsResponses, ListOptionOvernightSessionsErrors, ThrowOnError, "fields">;
/**
 * List listed option contracts
 *
 * The option contracts listed on a date, `as_of` (default the current session's trading date,
 * else the most recent completed one): every contract the store holds whose expiration is on or
 * after that date. An earlier `as_of` therefore includes contracts that have expired since: the
 * contracts listed on 2026-11-20 include those that expired that day. The store keeps no listing
 * date of its own (a contracts file states none), so a contract counts as listed on every date
 * up to its expiration.
 *
 * Rows are ordered by root, expiration, type (call before put) and strike, ascending, and paged
 * with `cursor_id`. The filters combine: a contract is served when every one given holds.
 * `underlying_symbol` follows the underlying rule (a family name such as SPX covers its roots
 * SPX and SPXW; a weekly root alone covers itself); `root` names one exact root, and given with
 * `underlying_symbol` it must be one of its roots. Expiration and strike bounds are inclusive.
 * 422 `no_data` when no contract matches on the first page.
 *
 */
export declare const listOptionContracts: <ThrowOnError extends boolean = false>(options?: Options<ListOptionContractsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOptionContractsResponses, ListOptionContractsErrors, ThrowOnError, "fields">;
/**
 * Price and volume bars of options
 *
 * Bars of option prints, oldest first: for one contract (`option_symbol`) open, high, low, close,
 * volume-weighted average price, volume, trade count and premium; for an underlying's options in
 * aggregate (`underlying_symbol`, a root or a family: SPX covers SPX and SPXW) volume, trade count
 * and premium, with open, high, low, close and vwap null, since prices of different contracts do
 * not make one series. Give exactly one of the two.
 *
 * **Which prints count.** Every print of the selected sessions that is not cancelled, as the trades
 * route serves them: auctions, crosses and floor prints included. Prints of complex (multi-leg)
 * orders (trade_type multileg or flag complex), whose leg prices are implied from a package, count
 * only with `include_complex=true`. `session` selects them as on the trades route: `rth` (default)
 * the regular session's prints (09:30 ET to the options close), `gth` the overnight session's
 * (20:15 ET the evening before to 09:25 ET, belonging to the next trading date), `all` every print
 * of the trading date (those two, the curb session's and late reports); `gth` and `all` need the
 * Pro plan or the overnight entitlement.
 *
 * **Range.** `date` names one trading date (the whole of its session), `start_time`/`end_time` a
 * range [start, end) that may span several trading dates: every print of the selected sessions
 * with its timestamp in the range counts, whatever its date. Given alone, `start_time` reaches the
 * interval's longest range after it and `end_time` starts that long before it. The range is at
 * most 7 days at 1m, 31 days at 5m, 92 days at 1h and 366 days at 1d. The default is the current
 * session's trading date, else the most recent completed one (with `gth`, an overnight session in
 * progress is the current one).
 *
 * **Buckets.** At 1m, 5m and 1h a bar starts on the clock's grid of the interval (New York time:
 * an hour bar runs 09:00 to 10:00 ET, holding the regular session's first half hour), and holds the
 * prints of one trading date. At 1d there is one bar per trading date, starting where the selected
 * session of that date starts (09:30 ET for `rth`, 20:15 ET the evening before for `gth` and
 * `all`). A bucket without a counted print has no bar: the series is not filled in. A bar cut by
 * the range holds only the prints within it.
 *
 * `vwap` is Σ(price × size) / volume per share, rounded to 6 decimals; `premium` Σ(price × size ×
 * multiplier) in USD, summed exactly and rounded to the cent. Only sessions the store holds are
 * read (roughly the last five): a range of one trading date that is archived answers 503
 * `data_pending` while it loads, as the trades route does; a range over several dates serves the
 * dates held and says in `meta.coverage` (complete false, with the reason) how many are archived.
 * 422 `no_data` when `option_symbol` names no listed contract or no print counts.
 *
 */
export declare const listOptionBars: <ThrowOnError extends boolean = false>(options?: Options<ListOptionBarsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListOptionBarsResponses, ListOptionBarsErrors, ThrowOnError, "fields">;
/**
 * Option chain snapshot at an instant
 *
 * A snapshot of an underlying's option chain in the regular session: per listed contract the
 * quote (bid, ask, their sizes, mid and the quote's time), the implied volatility and greeks of
 * the mid, the open interest, the session's volume and the last trade, all as of one minute of
 * data.
 *
 * **Instant.** `at` (Unix ms, default now) picks the regular session it falls in (its trading
 * date chosen as on the levels route: before a session's open, the previous session, valued at
 * its close); the chain is valued at the newest minute of data at or
 * before it, reading nothing recorded after it, exactly as `/v1/options/levels` values it: the
 * answer reads the same valued book of the family and minute. `valuation` (the same object on
 * every row, and on every page of a cursor walk: the cursor keeps the minute) says which
 * minute (`timestamp`, the end of the chain's minute; `chain_timestamp`, its newest quote), the
 * underlying price and its source, the rate and the open interest date. While a session runs, a
 * request for the newest minute whose book is still being valued answers from the previous
 * minute and names the newest in `pending_instant`.
 *
 * **Which contracts.** Every contract listed on the trading date (expiring on it or later) of
 * the underlying's roots (SPX covers SPX and SPXW; a weekly root alone covers itself), narrowed
 * by the filters, which combine: `root` (one of those roots), `date_of_expiry` or the
 * `min_date_of_expiry`/`max_date_of_expiry` range, `min_strike`/`max_strike` (inclusive),
 * `contract_type` and `moneyness`. Rows are ordered by root, expiration, type (call first) and
 * strike, and paged with `cursor_id`. 422 `no_data` when no listed contract matches on the
 * first page (an underlying without listed options included).
 *
 * **Quote.** Each contract's newest quote sample of the session by the valuation time, by the
 * chain rule of the skew and levels routes: at most 30 minutes older than the chain's minute;
 * a contract without one has bid, ask, sizes, mid and quote_timestamp null. `mid` is
 * (bid + ask) / 2 of a two-sided, uncrossed quote (a zero bid is no bid), else null.
 *
 * **Volatility and greeks.** `implied_volatility` is the Black-76 volatility of the mid on
 * `forward`, the put-call parity forward of the contract's expiration date implied by the
 * chain at the valuation (the skew route's `forward`), over the contract's own ACT/365 time to
 * settlement from `valuation.timestamp` (09:30 ET AM-settled, the close PM-settled), at the rate
 * `valuation.risk_free_rate`. Greeks are Black-Scholes-Merton spot greeks at that volatility, the
 * underlying price S and the dividend yield the forward implies, q = r − ln(F/S)/T (the levels
 * route's carry): delta per 1 unit of S, gamma per unit per unit, vega per volatility point (one
 * hundredth of ∂V/∂σ), theta the change of value over one calendar day with S, σ, r and q held
 * (to the payoff at S when fewer than one day is left). They are null without a mid, a
 * forward, a volatility solving the mid, or an underlying price (greeks only), and for a
 * contract settled by the valuation time.
 *
 * **Moneyness.** `itm`: calls with strike < F and puts with strike > F; `otm`: the others;
 * `all` (default) every contract. F is the contract's `forward`, else (an expiration without
 * a parity forward) `valuation.underlying_price`; a contract with neither matches only `all`.
 *
 * **Open interest, volume, last trade.** `open_interest` is the figure published for the
 * trading date (the close `valuation.open_interest_date`), null when the contract has none of
 * that date. `volume` sums the contracts of the session's regular prints before the valuation
 * time, cancelled prints left out (0 without one); `last_trade` is the last such print (by
 * time), null without one.
 *
 */
export declare const getOptionChain: <ThrowOnError extends boolean = false>(options: Options<GetOptionChainData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetOptionChainResponses, GetOptionChainErrors, ThrowOnError, "fields">;
/**
 * Volatility index of an option family, computed here by the VIX white paper's method
 *
 * A volatility index at a tenor (1, 9 or 30 calendar days) computed by this service from its
 * own stored option chains by the method of Cboe's VIX white paper, with every input needed to
 * reproduce it, and a term structure. **It is a model, not Cboe's published index:** it is not
 * VIX, VIX9D or VIX1D as Cboe disseminates them, and differs from them (its quotes are this
 * service's stored quotes at one chain minute, its rate is the service's rate table, not the
 * Treasury curve Cboe interpolates). `label` and `published_index: false` say so in every answer.
 * Volatilities are in index points (20 means 20% annualised); `variance` is σ² as a decimal.
 *
 * **Which chain and instant.** As on the skew route (`/v1/options/volatility/skew`), regular
 * session only: the request's instant is now, or `at`; a session ended by then is valued at its
 * close, one still running at the end of the newest minute of data ended by that instant, and
 * nothing recorded after it is read. The chain is one minute's (the newest minute in which at
 * least half of the family's contracts were sampled), each contract at its last quote of that
 * minute or before it, at most 30 minutes old; `valuation.timestamp` is that minute's end, and
 * minutes to settlement run from it. A session not begun, a symbol without listed contracts, or
 * no quote at the instant is 422 `no_data`; an archived session answers 503 `data_pending`
 * while it is loaded back.
 *
 * **Which roots and expirations.** `underlying_symbol` is a family or a root: SPX covers SPX
 * (AM-settled standard monthlies) and SPXW (PM-settled weeklies and dailies), NDX covers NDX and
 * NDXP, RUT covers RUT and RUTW (when their chains are stored); SPY, QQQ and IWM are their own
 * roots. `root` restricts the index to one root of the family. Each expiration settles at
 * settlement.ts's instant: AM-settled roots (SPX, NDX, RUT standard monthlies) at the 09:30 ET
 * open of the expiration date, PM-settled ones at the calendar's close (16:00 ET, 13:00 ET on an
 * early-close day). The expirations that count for a tenor:
 * - **30d and 9d**: the standard and the weekly expirations, as the VIX and VIX9D use: for each
 * calendar week (Monday to Sunday), the last listed expiration date of the family in it (the
 * Friday, or the Thursday when the Friday is a holiday); on a date where an AM-settled standard
 * root is listed (SPX's third-Friday monthly) its chain is used, else the PM root's. Daily
 * (Monday to Thursday) expirations are left out: they would move the terms used from week to
 * week without changing what the index measures, and a 9- or 30-day tenor is always
 * bracketed by weeklies.
 * - **1d**: every listed expiration date, dailies included, as the VIX1D uses; on a date with
 * two roots the PM-settled one (SPXW, as the VIX1D uses only PM-settled options), so the near
 * term is today's expiration until its close.
 * Of those, the near term is the latest settling less than the tenor after the valuation instant
 * and the next term the first settling at or after it (a term exactly at the tenor takes the whole
 * weight). With no expiration before the tenor (a 1d index after the day's settlement on a Friday:
 * the next expiration is Monday's), the nearest term alone is used with its variance held flat
 * from now (`method: nearest_term`: the formula with a near term of zero minutes and zero
 * variance). With none at or after the tenor the index is refused (422 `no_data`, naming why):
 * the method does not extrapolate past its longest listed term.
 *
 * **Method, per expiration** (the white paper's steps; each term reports every figure):
 * 1. *Minutes*: N from the valuation instant to the settlement instant on the New York wall clock
 * (minutes left today + minutes from midnight to settlement + 1,440 per day between; across a
 * daylight-saving change this differs by 60 from elapsed minutes). T = N / 525,600.
 * 2. *Mid*: (bid + ask)/2 of a quote with a bid above zero and an ask not below it; any other
 * quote has no mid and counts as a zero bid.
 * 3. *Forward*: at the strike K* where |C − P| of the call and put mids is smallest (the lowest
 * on a tie), F = K* + e^{RT}(C − P). K0 is the greatest listed strike at or below F.
 * 4. *Strikes*: K0 priced at the average of its call and put mids; below K0 the puts walking
 * down, above K0 the calls walking up. A quote without a mid is skipped; after two
 * consecutive such quotes the walk stops and no further strike on that side is used
 * (`skipped`, `put_walk_stopped_at`, `call_walk_stopped_at`).
 * 5. ΔK_i = (K_{i+1} − K_{i−1})/2 over the strikes used (a skipped strike widens the gap); at
 * the lowest and highest, the distance to the one neighbour.
 * 6. σ² = (2/T) Σ ΔK_i/K_i² e^{RT} Q(K_i) − (1/T)(F/K0 − 1)². Each strike's `contribution` is
 * ΔK_i/K_i² e^{RT} Q(K_i); `sum` is their total and `forward_term` is (1/T)(F/K0 − 1)².
 * 7. *Index*: with N1 < N_tenor ≤ N2 (N_tenor = 1,440, 12,960 or 43,200),
 * index = 100 × √{[T1σ1²·w1 + T2σ2²·w2] × 525,600 / N_tenor}, w1 = (N2 − N_tenor)/(N2 − N1),
 * w2 = (N_tenor − N1)/(N2 − N1) (`weights`).
 *
 * **Rate.** R is the service's rate table (`valuation.risk_free_rate`): the continuously
 * compounded 3-month Treasury bill rate of the trading date's month, the same for every
 * expiration. Cboe interpolates Treasury constant-maturity yields by a cubic spline to each
 * expiration; a rate 0.25% apart moves a 30-day index by about 1e-4 of itself.
 *
 * **To reproduce a figure.** Read the chain at `valuation.timestamp` (e.g. `/v1/options/chain`
 * with `at` set to it, or the quote samples), take each term's `strikes` with their `price` (Q),
 * recompute ΔK, e^{RT} = `growth` from `rate` and `years`, the sum and σ² by steps 5 and 6, and
 * the index by step 7 from the two terms' `minutes` and `variance`.
 *
 * **Term structure.** `term_structure` lists every listed expiration (root and date) settling
 * after the valuation instant, nearest first, each with its own value 100 × √σ² by steps 1 to 6,
 * or the reason it has none; `counts_for_tenor` says whether the requested tenor's rule above
 * uses it.
 *
 * The response is one object, not paged; an export (`POST /v1/exports`) writes that object, as it
 * does the skew's.
 *
 */
export declare const getIndexVolatility: <ThrowOnError extends boolean = false>(options: Options<GetIndexVolatilityData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetIndexVolatilityResponses, GetIndexVolatilityErrors, ThrowOnError, "fields">;
/**
 * Bars of a computed volatility index's per-minute series (a model by the VIX white paper's method)
 *
 * The history of `/v1/indices/volatility` as bars: the index of a family (or one of its roots) at
 * a tenor, computed by this service at **each minute of data** of the regular session, then
 * aggregated. **It is a model, not Cboe's published index** (not VIX, VIX9D or VIX1D as Cboe
 * disseminates them): every bar says so (`label`, `published_index: false`), and its method is
 * the one `/v1/indices/volatility` states (Cboe's VIX white paper applied to this service's
 * stored chains).
 *
 * **A minute's value.** For each minute of data of the session (a minute in which quote samples
 * of the date are stored), the value is exactly what `/v1/indices/volatility` answers with `at`
 * set to that minute's end and the same `underlying_symbol`, `root` and `tenor`: the same
 * chain minute, expirations, rate and steps. A minute the method refuses (no expiration at or
 * after the tenor, no chain) has no value and is left out of the bars; `minutes` counts the
 * values a bar was made from, so a gap shows. `close_inputs` is the summary of the inputs of
 * the bar's last minute: its valuation time, the near and next terms' T (years and minutes),
 * forward F, K0 and the number of strikes used; the whole figure set of a minute is
 * `/v1/indices/volatility?at=` its end.
 *
 * **Bars.** `open` is the first minute's value, `high` and `low` the greatest and least, `close`
 * the last minute's. A minute is stamped with its start (it covers [ts, ts + 60 s) and its value
 * is the index at its end). At 1m, 5m and 1h a bar starts on the clock's grid (New York is a
 * whole number of hours off UTC, so the grid is the same in both); at 1d there is one bar per
 * trading date, its `timestamp` the session's start (09:30 ET), its `close` the value at the
 * session's last minute of data (16:15 ET for SPX, NDX and RUT options, 16:00 for SPY, QQQ and
 * IWM; earlier on an early close).
 *
 * **How it is kept.** The values are stored per minute in PostgreSQL for every process: while a
 * session runs, the book valuer computes each family's newest minute (every tenor, the whole
 * family) as it loads, with the family's book; a minute not stored yet (a completed session the
 * first time it is asked for, a `root`'s series, minutes loaded while no valuer ran) is computed
 * and stored on demand: by the request itself when at most 30 minutes of a trading date in its
 * range are missing, else in the background while the request answers 503 `data_pending` with
 * Retry-After (a minute costs a chain read and the method, some 0.1 s for SPY and 0.3 s for SPX
 * on a 2-core machine, so a whole session takes one to two minutes once). Stored minutes are
 * kept, so the day is then read. A stored minute is read while no later write of market data changed
 * that trading date before the minute's end (the market data change log, as the valued books
 * are kept): loading later minutes keeps it, a correction or reload of its data has it
 * computed again; nothing stale is served.
 *
 * **Range.** `start_time`/`end_time` is a range [start, end) on the minutes' starts, that may
 * span trading dates, at most 7 days (the sessions kept in the database: the current one and
 * the five before; an archived session answers 503 `data_pending` while it is loaded back).
 * Given alone, `start_time` reaches 7 days after it and `end_time` starts 7 days before it.
 * `date` names one trading date's regular session instead. The default is the current
 * session's trading date (before today's open, the most recent one). Minutes after the
 * request's instant are not read.
 *
 * **Paging.** `limit` bars a page; `pagination.next_cursor_id` is a signed, opaque cursor bound
 * to this query (as on `/v1/indices/bars`: 400 `invalid_cursor` when altered, for another
 * query or older than 24 hours). A next page starts after the last bar served.
 *
 * A symbol without listed options, a `root` outside the family, a `date` that does not trade,
 * and a range without any computed value are 422 `no_data`.
 *
 */
export declare const listIndexVolatilityBars: <ThrowOnError extends boolean = false>(options: Options<ListIndexVolatilityBarsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListIndexVolatilityBarsResponses, ListIndexVolatilityBarsErrors, ThrowOnError, "fields">;
/**
 * The indices this service serves, with their source, hours, option roots and stored range
 *
 * The cash indices whose one-minute values the service stores and serves on `/v1/indices/bars`
 * and `/v1/indices/snapshot`: SPX (S&P 500), NDX (Nasdaq-100) and RUT (Russell 2000), in that
 * order, each listed whether or not values of it are stored (`first_timestamp` and
 * `last_timestamp` are null until some are). Not paged: the list is short and fixed by the
 * service (a symbol outside it is a 422 `no_data` on the other index routes, naming this list).
 *
 * **Values.** Each is the index provider's published value (`calculated_by`), loaded as one-minute
 * bars through the ordinary ingest path (Massive's minute aggregates, ticker `I:SPX` and the like;
 * or the canonical bars layout) or written by the market simulator; `computed_here` is false for
 * all three. `source` says which, from the ingest ledger of the bar files: `simulated` when every
 * bar file loaded is a simulator run's, `files` when none is, `mixed` when both; `none` while no
 * value of the index is stored. The ledger records files, not symbols, so `source` is the store's
 * and the same for every index that has values. An index has no volume: none is served.
 *
 * **Computed here.** The volatility indices of `/v1/indices/volatility` are this service's own
 * model computed from its stored option chains by the method of Cboe's VIX white paper, never
 * Cboe's published VIX, VIX9D or VIX1D: `computed_volatility` on each index says so
 * (`computed_here: true`, `published_index: false`) and names the route, its tenors, and the
 * route of their per-minute series as bars (`bars_path`, `/v1/indices/volatility/bars`).
 *
 * **Hours.** Each index is calculated in the regular session only: 09:30 to 16:00
 * America/New_York, to 13:00 on the exchange calendar's early closes
 * (`/v1/market/calendar`), none on weekends and holidays; a value at other times is the last
 * one of the session before. `session` is the calculation window of the current trading date
 * at the request's instant (before today's open, the previous one), with whether the index is
 * being calculated now.
 *
 */
export declare const listIndices: <ThrowOnError extends boolean = false>(options?: Options<ListIndicesData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListIndicesResponses, ListIndicesErrors, ThrowOnError, "fields">;
/**
 * Open, high, low and close bars of an index
 *
 * Bars of one index (`symbol`, one of `/v1/indices`), oldest first, made from its stored
 * one-minute values in one statement: a bar's `open` is its first minute's open, `high` and
 * `low` the highest high and lowest low of its minutes, `close` its last minute's close.
 * `volume` is always null: an index has no volume (the store's bar files may carry 0 for one;
 * it is not read). `minutes` counts the one-minute values a bar was made from, so a gap in the
 * stored series shows.
 *
 * **Which minutes.** Only the minutes of each trading date's calculation window: 09:30 to the
 * equity close, 16:00 America/New_York (13:00 on an early close); a value stored outside it is
 * not read. A minute stored at `ts` covers [ts, ts + 60 s).
 *
 * **Buckets.** At 1m, 5m and 1h a bar starts on the exchange clock's grid (New York is a whole
 * number of hours off UTC, so the grid is the same in both): the 1h bar of 09:00 holds the
 * minutes 09:30 to 09:59, the 15:00 bar 15:00 to 15:59. At 1d there is one bar per trading date,
 * its `timestamp` that date's 09:30 open, its `close` the index's last value of the regular
 * session (the close of its last stored minute before 16:00, or 13:00 on an early close). A
 * bucket without a stored minute has no bar: the series is not filled in.
 *
 * **Range.** `start_time`/`end_time` is a range [start, end) on the minutes' starts, that may
 * span trading dates; a bar cut by it holds only the minutes within it (a 1d bar of a range
 * ending at noon closes at the last minute before noon). Given alone, `start_time` reaches the
 * interval's longest range after it and `end_time` starts that long before it. The range is at
 * most 7 days at 1m, 31 at 5m, 92 at 1h and 366 at 1d. `date` names one trading date's window
 * instead. The default is the current session's trading date (before today's open, the
 * most recent one) at 1m, 5m and 1h, and the 366 days up to now at 1d.
 *
 * **Paging.** `limit` bars a page; `pagination.next_cursor_id` is a signed, opaque cursor bound
 * to this query (as on the trades and option bars routes: 400 `invalid_cursor` when altered, for
 * another query or older than 24 hours). A next page starts after the last bar served, so
 * following cursors to the end gives the bars of one page as large.
 *
 * A symbol outside `/v1/indices` is 422 `no_data` naming the indices, as the other routes answer a
 * well-formed symbol they hold nothing of; so is a known index without a stored minute in the
 * range, and a `date` that does not trade.
 *
 * **Streamed.** The `index_values` channel of `GET /v1/stream` (the AsyncAPI document at
 * `/v1/asyncapi.json`) sends the one-minute bars of this route (interval 1m) of 1 to 10 indices
 * as their minutes are loaded.
 *
 */
export declare const listIndexBars: <ThrowOnError extends boolean = false>(options: Options<ListIndexBarsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListIndexBarsResponses, ListIndexBarsErrors, ThrowOnError, "fields">;
/**
 * Quote board of indices at an instant
 *
 * For each index asked (`symbols`, in the order given), its value at the request's instant with
 * the session's open, high and low, the previous close and the change from it: the desk's quote
 * board.
 *
 * **Instant.** `at`, else now (the service's clock); an instant after the clock is the clock's.
 * Nothing recorded after the instant is read. `value` is the close of the index's newest stored
 * minute ended by the instant (a minute [ts, ts + 60 s) is known from its end), `timestamp` that
 * minute's start; null when none is stored.
 *
 * **Session.** The trading date whose session has begun by the instant (before today's 09:30
 * open, the previous trading date): `open` is its first stored minute's open, `high` and `low`
 * the highest high and lowest low of its minutes ended by the instant, within its calculation
 * window (09:30 to 16:00 ET, 13:00 on an early close); null when none is stored.
 * `previous_close` is the previous trading date's close: the close of its last stored minute of
 * that window (`previous_close_date` names the date). `change` is value − previous_close in index
 * points, `change_percent` 100 × change / previous_close (each rounded to 6 decimals: an index is
 * quoted to 2, and a float difference carries noise past that); null without either. `calculating` says
 * whether the instant lies in the trading date's calculation window (the index is being
 * calculated now); outside it the value is the last of the session before.
 *
 * A symbol outside `/v1/indices` is 422 `no_data` naming it and the indices (as the other routes
 * answer a well-formed symbol they hold nothing of). An index with no value stored at the instant
 * is served with nulls; 422 `no_data` when none of those asked has one.
 *
 */
export declare const getIndexSnapshot: <ThrowOnError extends boolean = false>(options: Options<GetIndexSnapshotData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetIndexSnapshotResponses, GetIndexSnapshotErrors, ThrowOnError, "fields">;
/**
 * List historical stock splits
 *
 * Historical stock splits, newest first (ties by symbol), paginated. `type` is forward when
 * `split_to > split_from`, reverse when `split_to < split_from`, other when equal. Execution-date
 * bounds are inclusive. 422 when `symbol` names a ticker with no split in range.
 *
 */
export declare const listStockSplits: <ThrowOnError extends boolean = false>(options?: Options<ListStockSplitsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListStockSplitsResponses, ListStockSplitsErrors, ThrowOnError, "fields">;
/**
 * CME equity-index futures products
 *
 * The equity-index futures products this service describes, from CME Group's contract
 * specifications: the E-mini S&P 500 (ES), E-mini Nasdaq-100 (NQ) and E-mini Russell 2000
 * (RTY), and their Micro E-minis (MES, MNQ, M2K). Each gives its underlying index, the
 * multiplier in US dollars per index point, the minimum price fluctuation of an outright
 * (`tick_size`, index points) and its dollar value (`tick_value` = multiplier × tick_size), the
 * settlement method (cash, to the index's Special Opening Quotation on the last trade date), the
 * listing cycle (March quarterly months H, M, U, Z and how many consecutive quarters are listed
 * at once: 21 for ES, 5 for the others), the trading session template (`globex`: its windows and
 * CME holiday schedule are those of `GET /v1/market/sessions?asset=futures`), the termination
 * time of an expiring contract and CME's roll convention. Reference data: the same for every
 * date; `root` narrows it to one product.
 *
 */
export declare const listFuturesProducts: <ThrowOnError extends boolean = false>(options?: Options<ListFuturesProductsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesProductsResponses, ListFuturesProductsErrors, ThrowOnError, "fields">;
/**
 * Quarterly futures contracts listed at a date
 *
 * The quarterly contracts of the equity-index futures listed at a date (`as_of`), by the
 * listing rules of CME Group's contract specifications, nearest expiration first for each root
 * (roots in the order of `/v1/futures/products`). Without `root` or `symbol`, every product's.
 *
 * **Dates.** A contract is listed from its `first_trade_date` (the CME trade date after the
 * contract `listed_contracts` quarters before it expired: the next quarter is listed when the
 * nearest expires) through its `last_trade_date`: the third Friday of the contract month, or the
 * trade date before it when that Friday is not a CME trade date (e.g. Good Friday, or Juneteenth
 * observed on 2027-06-18). Trading terminates at 09:30 ET that day (`last_trade_time`, Unix ms);
 * `expiration_date` and `final_settlement_date` are the same date, on which the final settlement
 * price is the index's Special Opening Quotation. `roll_date` is CME's equity-index roll
 * convention, eight calendar days before the third Friday (the trade date before when that
 * Thursday does not trade); from it the next contract is the `lead` month. First trade dates
 * follow today's listed counts back in time (CME listed fewer ES quarters before it extended the
 * schedule), and outside the exchange calendar (before 2000, after 2035) the third Friday is
 * taken as is.
 *
 * **At `as_of`.** `status` is listed (first trade date ≤ as_of ≤ last trade date; `active`
 * true: on its last trade date a contract is still listed though it stops trading at 09:30 ET),
 * expired or not_listed; `rank` numbers the listed contracts of a root from 0 (nearest); `lead`
 * marks one per root. `as_of` defaults to the current CME trade date: the trade date of the
 * present instant, which after the 17:00 ET close is the next one. `include_expired` adds each
 * root's eight most recently expired contracts (two years), oldest first, before the listed ones.
 *
 * **Symbols.** The canonical `symbol` is root, month code and two-digit year (ESZ26);
 * `globex_symbol` is CME Globex's one-digit form (ESZ6). `symbol` takes either and answers that
 * one contract at `as_of`, whatever its status; a one-digit year is the year ending in that digit
 * from four years before `as_of`'s year to five after. `symbol` names its root, so it is not
 * given with `root` (400 naming both).
 *
 */
export declare const listFuturesContracts: <ThrowOnError extends boolean = false>(options?: Options<ListFuturesContractsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesContractsResponses, ListFuturesContractsErrors, ThrowOnError, "fields">;
/**
 * Bars of a futures contract or of a continuous contract
 *
 * Open, high, low, close and volume bars, oldest first, of one contract (`ESZ26` or its Globex
 * form `ESZ6`) or of a continuous contract (`ES.c.0`, `ES.v.0`, `ES.n.0`: root, roll rule,
 * rank), made in one statement from the stored one-minute bars: a bar's `open` is its first
 * minute's open, `high`/`low` the extremes of its minutes, `close` its last minute's close,
 * `volume` the sum of its minutes' volumes; `minutes` counts them. A bucket with no stored
 * minute has no bar (the series is not filled in).
 *
 * **Continuous symbols** (Databento's notation; the intervals themselves:
 * `/v1/futures/continuous`). Each CME trade date maps to one contract, so a bar is always one
 * contract's:
 * - `c`, calendar: the contracts that have not reached their roll date, nearest first. The roll
 * date is CME's equity-index convention, eight calendar days before the third-Friday expiry
 * (the Thursday of the week before; the trade date before when that Thursday does not trade),
 * so `ES.c.0` is the `lead` month of `/v1/futures/contracts`. Databento's own `c` follows the
 * nearest expiration instead.
 * - `v`, volume: the contract with the largest cleared volume of the previous trade date
 * (Databento's rule); `n`, open interest: the largest open interest of the previous trade
 * date. Candidates are the contracts listed that trade the whole date (one on its last trade
 * date stops at 09:30 ET and is left out); ties go to the nearer expiration; a contract with
 * no figure ranks after those with one. A previous trade date with no figures at all is
 * skipped for the one before it, at most five trade dates back; with none, the calendar
 * rule's contract is taken (`/v1/futures/continuous` says so). There is no hysteresis: the
 * series may roll back.
 * - The rank (0 to 9) takes the next contract by the same ordering: `ES.c.1` is the contract
 * after the lead. A date on which fewer contracts qualify has no bars.
 *
 * **Which contract, and rolls.** Every bar names its `contract_symbol` (canonical, ESZ26). A bar
 * whose contract differs from the previous bar's (across pages too) has `roll` true and
 * names `previous_contract_symbol`; the first bar of a query has no previous bar.
 *
 * **Adjustment** (continuous symbols only; a contract's bars are never adjusted: with a contract
 * symbol, which has no roll, `adjust` changes nothing). The price of a roll is the daily settlement of both
 * contracts on the last trade date before the new contract's first date (the eve of the roll:
 * the settlement CME publishes for both, final when final, else preliminary), as a
 * back-adjusting desk reads them; a contract with no stored settlement that date is read at
 * the close of its last one-minute bar of that trade date. `difference`: every bar before a
 * roll is shifted by the new contract's price minus the old one's, summed over the later rolls
 * of the query; `ratio`: multiplied by new / old, the product over the later rolls. The newest
 * contract of the query is never adjusted, so the answer depends on its range (not on the
 * clock): `adjusted = raw × price_factor + price_offset`, both given on every bar, unrounded.
 * A roll without both prices adjusts nothing.
 *
 * **Sessions.** `globex`: all Globex hours of each trade date, 18:00 ET the evening before to
 * 17:00 ET (13:15 on an early close; a holiday's abbreviated morning session belongs to the next
 * trade date, as on `/v1/market/sessions?asset=futures`). `rth`: the index's regular session of
 * the trade date, 09:30 to 16:00 ET (13:00 on an early close).
 *
 * **Buckets.** 1m, 5m and 1h bars start on the clock's grid (a 1h bar at 18:00 holds 18:00 to
 * 18:59). At 1d there is one bar per trade date, its `timestamp` the start of the trade date's
 * first window (18:00 ET the evening before under globex, 09:30 under rth), its `close` the last
 * traded minute's close (not the settlement: `/v1/futures/settlements`).
 *
 * **Range.** `start_time`/`end_time` is a range [start, end) on the minutes' starts; a bar cut
 * by it holds only the minutes within it. Given alone, `start_time` reaches the interval's
 * longest range after it and `end_time` starts that long before it. The range is at most 7 days
 * at 1m, 31 at 5m, 92 at 1h and 366 at 1d. `date` names one trade date's session instead. The
 * default is the trade date of the newest Globex session begun by now at 1m, 5m and 1h, and the
 * 366 days up to now at 1d. The mapping is that of the trade dates the range meets.
 *
 * **Paging.** `limit` bars a page; `pagination.next_cursor_id` is a signed, opaque cursor bound
 * to this query (400 `invalid_cursor` when altered, for another query or older than 24 hours).
 *
 * 422 `no_data` when no bar is stored in the range (a contract with no stored definition or
 * bars; a `date` that is no CME trade date).
 *
 */
export declare const listFuturesBars: <ThrowOnError extends boolean = false>(options: Options<ListFuturesBarsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesBarsResponses, ListFuturesBarsErrors, ThrowOnError, "fields">;
/**
 * Mapping intervals of a continuous futures symbol
 *
 * Which contract a continuous symbol (`ES.c.0`, `ES.v.0`, `ES.n.0`: root, roll rule, rank 0 to
 * 9) maps to over a range of CME trade dates: one interval per run of trade dates on one
 * contract, oldest first, with why (the roll rule's figures) and the roll into it. The rules are
 * those of `/v1/futures/bars` (calendar: CME's roll date, eight calendar days before the
 * third-Friday expiry; volume / open interest: the largest cleared volume / open interest of the
 * previous trade date, ties to the nearer expiry, a day with no figures skipped up to five trade
 * dates back, then the calendar rule's contract).
 *
 * **An interval.** `start_date`/`end_date` are its first and last trade dates (inclusive;
 * weekends and holidays inside it belong to it); `start_time`/`end_time` the Globex instants
 * it covers, [18:00 ET the evening before its first trade date, the close of its last), Unix
 * ms. `basis` gives the figures that chose its first date's contract: `figure_date`, each
 * candidate's figure that day by rank (contracts with no figure left out), or `fallback` true
 * when there were none and the calendar rule decided; under the calendar rule, the contract's
 * `roll_date` decides and `basis` carries no figures. `roll` (null on the first interval)
 * gives the prices of the roll into it that `/v1/futures/bars` back-adjusts with: the previous
 * and the new contract's settlements on `price_date` (the trade date before the interval),
 * else the close of their last one-minute bar that trade date (`price_source` says which of
 * both), `difference` = price − previous_price and `ratio` = price / previous_price (null
 * without both).
 *
 * **Range.** `start_date`/`end_date`, inclusive, at most 366 days apart; default the 92 days
 * ending on the current CME trade date (after the 17:00 ET close, the next one). A range with
 * no trade date, or a rank beyond the contracts that qualify, answers an empty list.
 *
 */
export declare const listFuturesContinuous: <ThrowOnError extends boolean = false>(options: Options<ListFuturesContinuousData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesContinuousResponses, ListFuturesContinuousErrors, ThrowOnError, "fields">;
/**
 * Futures trades of a contract or a root
 *
 * Time and sales of the CME equity-index futures as loaded (Databento GLBX.MDP3 trades, or the
 * canonical layout): one row per trade, for one contract (`symbol`, ESZ26 or ESZ6) or for every
 * contract of a product (`root`, ES: outrights of every month, so a calendar roll's legs appear
 * in both months). Give exactly one of them. Continuous symbols (ES.c.0) are not taken here: a
 * trade belongs to a contract, and `GET /v1/futures/continuous` says which contract a
 * continuous symbol meant when.
 *
 * **Trade date and window.** A page reads one CME trade date (`date`): the Globex session that
 * opens at 18:00 ET the evening before and closes at 17:00 ET (earlier on holidays and early
 * closes, and after an abbreviated holiday the trade date holds that day's session too: the
 * windows of `GET /v1/market/sessions?asset=futures`). Without `date`, the trade date trading
 * now, else the most recent one that has closed. `start_time` (inclusive) and `end_time`
 * (exclusive) narrow it and must lie within the trade date's session, start before end (400
 * otherwise); without `date`, a window names the trade date its start falls in. A `date` that
 * is not a CME trade date has no trades (422 `no_data`).
 *
 * **Order and paging.** `order=desc` (the default) is newest first, as the tape is read;
 * `order=asc` is oldest first. Trades are ordered by exchange time, then the feed's sequence,
 * then `match` (the trades of one match event, its price levels, in feed order), then, for a
 * root, the contract: a total order, so a cursor continues exactly after the last trade served
 * whatever ties there are. Cursors are opaque, tamper-evident and valid for 24 hours across
 * restarts; a page is read in the index's order, never by sorting the day.
 *
 * **Fields.** `aggressor_side` is the side of the order that took liquidity (CME MDP3
 * AggressorSide; Databento's side A/B): buy when a buyer lifted the offer, sell when a seller
 * hit the bid, none when the feed gives no aggressor (an opening or implied trade).
 * `notional` = price × multiplier × size in USD (the contract's multiplier, $50 per point for
 * ES), as Bloomberg and CME report the value traded. `sequence` is the venue's packet sequence
 * number, shared by the trades of one match event; `match` numbers those trades from 0.
 *
 * **Filters.** `min_size`/`max_size` (contracts) and `min_notional`/`max_notional` (USD) are
 * inclusive; `aggressor_side` keeps one side. A page that matches nothing on the first page is
 * 422 `no_data`.
 *
 * **Stream.** The `futures_trades` channel of `GET /v1/stream` sends the trades of each load as
 * it commits, with these filters (without `date`, `start_time`, `end_time`, `order`, `limit`,
 * `cursor_id`), oldest first; loads of a trade date before the default one are not streamed.
 *
 */
export declare const listFuturesTrades: <ThrowOnError extends boolean = false>(options?: Options<ListFuturesTradesData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesTradesResponses, ListFuturesTradesErrors, ThrowOnError, "fields">;
/**
 * Daily settlements, open interest and cleared volume of futures contracts
 *
 * CME's daily statistics of the equity-index futures by trade date, as its settlement report
 * (DataMine's settlement files, Databento's statistics schema) publishes them: one row per
 * contract and trade date holding the settlement price with its status, the contract's
 * settlement of its previous trade date and the change from it, open interest and its change,
 * and cleared volume. `root` gives every contract of the product with a stored row on the date;
 * `symbol` (ESZ26 or ESZ6) one contract. Rows are ordered by trade date, then contract expiration
 * (nearest first), and paged by cursor; the route is exportable.
 *
 * **Dates.** A trade date is CME's: the Globex day that opens at 18:00 ET the evening before and
 * closes at 17:00 ET (`GET /v1/market/sessions?asset=futures`). `date` gives one trade date;
 * `start_date` and `end_date` (both included, at most 366 dates) a range; without either, the
 * newest trade date with a stored row of the root at or before the current trade date (after the
 * 17:00 ET close, the next one). A range whose dates hold no row of the root, or a root with no
 * stored row at all, is 422 `no_data`.
 *
 * **Settlement.** `settlement_status` is preliminary (CME's settlement published after the close,
 * around 16:00 to 17:00 ET) or final (the cleared settlement published later that evening); a
 * final settlement replaces a preliminary one and never the reverse. On the last trade date the
 * final settlement is the index's Special Opening Quotation. `settlement_timestamp` is when the
 * stored settlement was published, when the file said. A row may carry open interest or volume
 * without a settlement (null price and status) while the settlement is not yet published.
 *
 * **Previous and change.** `previous_trade_date` is the trade date before `trade_date` in the
 * Globex calendar (holidays skipped); `previous_settlement_price` and `previous_open_interest` are
 * the same contract's figures of that date (null when no row of it is stored, e.g. on the
 * contract's first trade date). `change` = settlement_price − previous_settlement_price (index
 * points), `change_percent` = 100 × change / previous_settlement_price, each rounded to 6
 * decimals; `open_interest_change` = open_interest − previous_open_interest. Each is null when
 * either figure is. Open interest is the figure the statistics give for the trade date (CME
 * publishes a trade date's open interest the next morning; the loaders store it under the trade
 * date it belongs to).
 *
 */
export declare const listFuturesSettlements: <ThrowOnError extends boolean = false>(options?: Options<ListFuturesSettlementsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListFuturesSettlementsResponses, ListFuturesSettlementsErrors, ThrowOnError, "fields">;
/**
 * Futures basis against the index, implied carry and fair value
 *
 * An equity-index future against its cash index: ES and MES against SPX, NQ and MNQ against
 * NDX, RTY and M2K against RUT. For each contract, the future's price and the index's value of
 * the same minute, the basis, the days to expiry, the carry the basis implies, the fair value by
 * cost of carry from this service's rate and the index's dividend yield, and the mispricing.
 *
 * **Prices.** `future_price` is the close of the contract's one-minute bar (its last trade of the
 * minute) and `index_value` the close of the index's one-minute value of the same minute
 * (`/v1/indices/bars`); `timestamp` is the start of that minute. Only minutes with both are used,
 * so points lie in the index's calculation hours (09:30 to 16:00 ET).
 *
 * **At an instant** (default): the newest such minute ended by `at` (default now; an instant after
 * the service's clock is the clock's), looked for up to 7 days back; one row per contract.
 * **A series**: with `start_time` (and `end_time`, default now), every such minute with a start in
 * [start_time, end_time) at `interval` 1m, or at 1h the last such minute of each clock hour; at
 * most 7 days at 1m and 92 days at 1h. Rows are by contract (nearest expiration first), then
 * time. A contract or root with no such minute is 422 `no_data`.
 *
 * **Contracts.** `symbol` (ESZ26 or ESZ6) gives one contract; `root` with `contracts=front`
 * (default) the nearest contract not yet settled at each minute (a series that spans an expiry
 * moves to the next contract, and each row names its contract), with `contracts=listed` every
 * stored contract of the root not settled at the minute.
 *
 * **Conventions.**
 * - `basis` = future_price − index_value (index points); `basis_percent` = 100 × basis /
 * index_value.
 * - Time: `days_to_expiry` runs from the end of the minute (timestamp + 60 s) to
 * `final_settlement_time`, the contract's final settlement: the index's Special Opening
 * Quotation at 09:30 ET of the last trade date (the third Friday of the contract month, or the
 * trade date before it), in fractional days of 86 400 s; `years_to_expiry` = days / 365
 * (ACT/365, the clock of this service's option analytics).
 * - Carry: continuous compounding, F = S·exp((r − q)·T). `implied_carry` = ln(F/S)/T, the
 * annualised r − q the price implies; `implied_rate` = implied_carry + q, the financing rate
 * it implies. Both null when T is 0.
 * - `rate` r: the 3-month Treasury bill (FRED TB3MS, the month of the minute's New York date),
 * converted from its discount basis (ACT/360) to a continuously compounded ACT/365 rate: the
 * rate the options' valuations use, the same tenor whatever the contract's expiry.
 * - `dividend_yield` q: the index's annual continuous dividend yield this service assumes for
 * the index and its options (SPX 1.3%, NDX 0.6%, RUT 1.2%): a modelling default, not data.
 * - `fair_value` = index_value·exp((rate − dividend_yield)·years_to_expiry); `fair_basis` =
 * fair_value − index_value; `mispricing` = future_price − fair_value (positive: the future is
 * rich to its carry). No transaction costs or financing spread.
 * - basis, basis_percent, fair_value, fair_basis and mispricing are rounded to 6 decimals (the
 * float difference of two quotes carries noise past that); the rates, carries and times are
 * not rounded.
 *
 */
export declare const getFuturesBasis: <ThrowOnError extends boolean = false>(options?: Options<GetFuturesBasisData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetFuturesBasisResponses, GetFuturesBasisErrors, ThrowOnError, "fields">;
/**
 * Session windows of a trading date
 *
 * Session windows of a trading date. Stocks: pre_market 04:00-09:30, regular 09:30-16:00 and
 * after_hours 16:00-20:00 Eastern (NYSE Arca / Nasdaq extended hours). Options: regular 09:30 to
 * 16:15 (the close of index and ETF options; equity options close at 16:00), curb 16:15-17:00
 * (Cboe curb session for SPX, XSP and VIX options), overnight 20:15 the previous evening to 09:25
 * (Cboe Global Trading Hours). Futures: the CME Globex equity-index session of the trade date,
 * 18:00 the previous evening to 17:00 Eastern, with the daily 17:00-18:00 halt between
 * sessions, on CME's holiday schedule: a trade date is an NYSE trading day; on New Year's Day,
 * Good Friday and Christmas Globex does not trade (Good Fridays of an employment report trade to
 * 09:15); on the other NYSE holidays it trades to 13:00 (12:00 CT) and that session belongs to
 * the next trade date, which then has two `globex` windows; on NYSE early-close days it closes at
 * 13:15. A futures window's status is early_close when it ends before 17:00. On early-close days
 * regular trading ends at 13:00 (13:15 for index and ETF options, whose curb session does not
 * run) and status is early_close. Weekends and holidays have no sessions. Default date: the
 * current exchange date.
 *
 */
export declare const listMarketSessions: <ThrowOnError extends boolean = false>(options?: Options<ListMarketSessionsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListMarketSessionsResponses, ListMarketSessionsErrors, ThrowOnError, "fields">;
/**
 * Whether the equity market trades on a date
 *
 * Whether the US equity market (NYSE calendar) is open, closes early or is closed on a date, with
 * its open and close times when it trades. Options on indexes and ETFs trade 15 minutes beyond
 * the equity close (`options_close_timestamp`). Covers 2000-01-01 through 2035-12-31; the
 * default date is today in New York.
 *
 */
export declare const getMarketCalendarDay: <ThrowOnError extends boolean = false>(options?: Options<GetMarketCalendarDayData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetMarketCalendarDayResponses, GetMarketCalendarDayErrors, ThrowOnError, "fields">;
/**
 * The calling account
 *
 * The account behind the key, its plan, dataset releases, entitlements, the key's visible prefix, and the limits in force.
 */
export declare const getAccount: <ThrowOnError extends boolean = false>(options?: Options<GetAccountData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetAccountResponses, GetAccountErrors, ThrowOnError, "fields">;
/**
 * Limits in force and live window state
 *
 * The limit values in force and the live state of the account's windows. This request is not
 * counted in the minute or second windows (it spends no data call) but is still subject to the
 * in-flight limit and recorded in the request log.
 *
 */
export declare const getAccountLimits: <ThrowOnError extends boolean = false>(options?: Options<GetAccountLimitsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetAccountLimitsResponses, GetAccountLimitsErrors, ThrowOnError, "fields">;
/**
 * Request usage of the account
 *
 * Counts of the account's own requests (all its keys, every route, rejected requests included)
 * per UTC hour or day bucket, from the durable request log. Empty buckets are present. The log
 * keeps seven days: a start earlier than that is raised to the retention window. Defaults: end
 * now; start 24 hours (hourly) or 7 days (daily) before end. `start_time` must be before
 * `end_time` (400 otherwise). Requests are written to the log in batches within about a second,
 * so the current bucket may lag by that much.
 *
 */
export declare const listAccountUsage: <ThrowOnError extends boolean = false>(options?: Options<ListAccountUsageData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListAccountUsageResponses, ListAccountUsageErrors, ThrowOnError, "fields">;
/**
 * Catalog of routes
 *
 * Every route with its parameters, dataset release, pagination and streaming support, read from this contract.
 */
export declare const listCatalog: <ThrowOnError extends boolean = false>(options?: Options<ListCatalogData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListCatalogResponses, ListCatalogErrors, ThrowOnError, "fields">;
/**
 * Service health and data freshness
 *
 * Service and database health, per dataset the newest data held, and where the market data comes
 * from (`data_source`: simulated by the project's deterministic simulator, loaded from files, or
 * both; see "Where the data comes from"). Needs no key; counts
 * against the client network's budget of the routes that need none (not the budget of requests
 * with bad credentials). Answers 503 (with the same body shape as an
 * error) when the database does not answer.
 *
 */
export declare const getStatus: <ThrowOnError extends boolean = false>(options?: Options<GetStatusData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetStatusResponses, GetStatusErrors, ThrowOnError, "fields">;
/**
 * This contract as JSON
 *
 * The OpenAPI 3.1 document of this service, as JSON, for client generation. Needs no key. The body is the document itself, not an envelope.
 */
export declare const getOpenApiDocument: <ThrowOnError extends boolean = false>(options?: Options<GetOpenApiDocumentData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetOpenApiDocumentResponses, GetOpenApiDocumentErrors, ThrowOnError, "fields">;
/**
 * The streams document as JSON
 *
 * The AsyncAPI 3 document of the WebSocket streams at GET /v1/stream (channels prints,
 * premium_drift and levels; their messages, limits, close codes, resume and replay), as JSON.
 * Needs no key. The body is the document itself, not an envelope. The routes a channel streams
 * are those the catalog marks `streamable`.
 *
 */
export declare const getAsyncApiDocument: <ThrowOnError extends boolean = false>(options?: Options<GetAsyncApiDocumentData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetAsyncApiDocumentResponses, GetAsyncApiDocumentErrors, ThrowOnError, "fields">;
/**
 * Queue a file export of a data endpoint
 *
 * Queues an export of any data endpoint of the catalog. The query is validated by the target
 * endpoint's own parameter rules before acceptance (400 naming each bad parameter, prefixed
 * `query.`). Platform and account endpoints cannot be exported (400). On a paginated endpoint
 * `limit` is the maximum rows of the file (1 to 100,000 in JSON, 1 to the flat formats' row cap
 * in CSV and Parquet; without `limit`, the file holds every row up to that cap, never the
 * endpoint's default page size) and `cursor_id` is not accepted. At most
 * 5 exports may be queued or running per account (429 `export_limit`, `Retry-After` 5), and the
 * account's export files not yet expired may hold at most its plan's cap of bytes
 * (`export_bytes_held_max` of `/v1/account/limits`: 1 GiB on basic, 4 GiB on pro by default;
 * settings `LIMIT_EXPORT_BYTES_BASIC`, `LIMIT_EXPORT_BYTES_PRO`): at the cap a new export is
 * refused 429 `export_limit`, its message naming the cap and its setting, with `Retry-After`
 * until the soonest file expires. The exports already accepted are not cut, so the files may pass
 * the cap by those exports' files. While the free space of the service's disk is below its floor
 * (`EXPORT_DISK_FLOOR_BYTES`), exports wait rather than fail: a new export is refused 503
 * `upstream_busy` with `Retry-After` 10, an accepted one stays queued (its attempts not counted)
 * and runs once the disk is above the floor again, failing with `upstream_busy` only after 30
 * minutes of waiting; `/v1/status` shows `exports: paused` meanwhile. A pool of background
 * workers runs the endpoint, follows its pages and writes one file, streaming (a run holds a page
 * and, for Parquet, one row group, never the whole file), in the `format` asked:
 *
 * - `json` (the default): one JSON document `{data, meta, pages, truncated}` of at most 100,000
 * rows and 64 MiB, whatever the shape of the answer: rows are cut at either limit
 * (`truncated` true), and an answer that is not rows and passes 64 MiB fails the export
 * (`export_too_large`).
 * - `csv`: a gzip-compressed CSV file (`.csv.gz`, downloaded as `application/gzip`: the file as
 * stored, not a `Content-Encoding`), one gzip member. A header row of the row schema's field
 * names in the contract's order, then one line per row, RFC 4180: lines end in CRLF, a field
 * holding a comma, a double quote, CR or LF is quoted with its quotes doubled. Values are
 * those of the JSON export: numbers as JSON writes them, timestamps as Unix ms, booleans
 * `true`/`false`, dates as `YYYY-MM-DD`, arrays and objects (such as `flags`) as their JSON
 * text; null is an empty field, an empty string `""`.
 * - `parquet`: an Apache Parquet file (Snappy-compressed, row groups of 50,000 rows). Columns in
 * the contract's order, each OPTIONAL: Unix-ms timestamps as `TIMESTAMP(MICROS,
 * isAdjustedToUTC=true)`, dates as `DATE`, integers as `INT64`, numbers as `DOUBLE`, booleans
 * as `BOOLEAN`, text and enumerations as `STRING`, arrays and objects as `JSON` text. Prices,
 * premiums and other amounts are `DOUBLE`, not `DECIMAL`: the service computes and serves
 * them as IEEE-754 doubles (`format: double`), so the file holds exactly the values of the JSON
 * export, where a `DECIMAL` would need a scale the contract does not fix and would round. The
 * key-value metadata `oads.export` holds the JSON export's `meta`, `pages` and `truncated`.
 *
 * The two flat formats take routes whose `data` is an array of rows (400 `invalid_body` naming
 * `body.format` otherwise) and have their own caps, sized for a whole trading date of the
 * largest underlying's prints in one file (SPX with SPXW at full scale, `session=all`): at most
 * 3,000,000 rows (`EXPORT_FLAT_MAX_ROWS`) and 512 MiB (`EXPORT_FLAT_MAX_BYTES`) counted in the
 * file's own bytes, compressed CSV or Parquet with its footer; `limit` of a paginated endpoint
 * may then be up to that row cap. A file never passes its byte cap: CSV lines are taken while the
 * compressed file is sure to stay under it, and a Parquet row group that would pass it is cut to
 * the rows that fit; either way `truncated` is true. An account
 * runs at most two exports at a time while its others wait, so one account's exports never hold
 * every worker. While the endpoint answers 503 (`data_pending`: an archived session is being
 * loaded) the export stays queued and runs again after the endpoint's Retry-After, for up to 30
 * minutes. An export whose worker process died is found within half a minute (its run renews a
 * heartbeat every 5 s and is judged dead 20 s after the last one), shows `retrying` with its
 * revision increased, and runs again; after three runs it fails. The file is kept for 24 hours
 * after it is ready (`expires_timestamp`).
 *
 */
export declare const createExport: <ThrowOnError extends boolean = false>(options: Options<CreateExportData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<CreateExportResponses, CreateExportErrors, ThrowOnError, "fields">;
/**
 * Poll an export job
 *
 * The export job; poll until `status` is ready, then fetch `download_url`. Another account's export is 404.
 */
export declare const getExport: <ThrowOnError extends boolean = false>(options: Options<GetExportData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetExportResponses, GetExportErrors, ThrowOnError, "fields">;
/**
 * Download an export file
 *
 * The export file of a ready job, in the job's `format`: `json`, one JSON document with members
 * data, meta, pages and truncated (`application/json`, `<id>.json`); `csv`, the gzip-compressed
 * CSV file as stored (`application/gzip`, `<id>.csv.gz`); `parquet`, the Parquet file
 * (`application/vnd.apache.parquet`, `<id>.parquet`). Sent with `Content-Disposition:
 * attachment`, `Content-Length` and an `ETag` (a
 * strong validator of the file; `If-None-Match` answers 304). A job that is not ready yet is 409
 * `export_not_ready`; past the job's `expires_timestamp` the file is deleted and the download is
 * 410 `export_expired`; an unknown id or another account's export is 404. Counts against the rate
 * limit like any request.
 *
 */
export declare const downloadExport: <ThrowOnError extends boolean = false>(options: Options<DownloadExportData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<DownloadExportResponses, DownloadExportErrors, ThrowOnError, "fields">;
