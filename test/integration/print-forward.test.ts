/**
 * One forward for every volatility (issue 33 §3), on the prints: a print's implied_volatility and
 * delta are solved at ingest on the put-call parity forward of its expiration's chain minute (the
 * quotes of every strike of the expiration sampled in the print's minute, else the latest earlier
 * minute with a forward within 30 minutes), as the skew and the contract history are; the fixed
 * dividend yield only when parity cannot be solved. On a simulated day loaded through ingest:
 * every print with a forward of its own minute reprices its price on that forward, and a call and
 * a put printed at their mids at the strike nearest the forward have one volatility where the
 * fixed yield gave them two.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { impliedVolatility } from '../../src/analytics/implied-volatility.js';
import { bsmGreeks, bsmPrice, type OptionType } from '../../src/analytics/pricing.js';
import { dividendYield, riskFreeRate } from '../../src/analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../../src/analytics/settlement.js';
import { impliedDividendYield, impliedForward } from '../../src/analytics/volatility/forward.js';
import type { ChainQuote } from '../../src/analytics/volatility/quotes.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const RATE = riskFreeRate(DAY);
const MINUTE = 60_000;

interface Body {
  id: string;
  underlying_symbol: string;
  contract_type: OptionType;
  strike: number;
  date_of_expiry: string;
  timestamp: number;
  price: number;
  session: string;
  underlying_price: number | null;
  implied_volatility: number | null;
  delta: number | null;
}

interface ChainRow {
  minute: string;
  option_symbol: string;
  contract_type: OptionType;
  strike: string;
  bid: number | null;
  ask: number | null;
  quote_ts: string;
}

describe('per-print volatility on the parity forward of its minute (issue 33 §3)', () => {
  let service: TestService;
  let dir: string;
  /** Underlying bars by symbol and minute. */
  const bars = new Map<string, Map<number, number>>();
  /** Chain rows by root and expiration date, then minute. */
  const chains = new Map<string, Map<number, ChainRow[]>>();

  const rootOf = (id: string): string => id.split(':')[0]!;
  const barOf = (symbol: string, ts: number): number | null => {
    const minute = ts - (ts % MINUTE);
    const own = bars.get(symbol);
    return own?.get(minute) ?? own?.get(minute - MINUTE) ?? null;
  };
  const chainOf = async (root: string, expiry: string): Promise<Map<number, ChainRow[]>> => {
    const key = `${root} ${expiry}`;
    let minutes = chains.get(key);
    if (minutes === undefined) {
      const rows = await sql<ChainRow>`
        select q.minute, c.option_symbol, c.contract_type, c.strike_thousandths / 1000.0 as strike, q.bid, q.ask, q.quote_ts
        from quote_samples q join contracts c on c.id = q.contract_id
        where q.trading_date = ${DAY} and c.root = ${root} and c.date_of_expiry = ${expiry}`.execute(service.database.admin);
      minutes = new Map();
      for (const r of rows.rows) {
        const list = minutes.get(Number(r.minute)) ?? [];
        list.push(r);
        minutes.set(Number(r.minute), list);
      }
      chains.set(key, minutes);
    }
    return minutes;
  };
  const quotesOf = (rows: readonly ChainRow[]): ChainQuote[] =>
    rows.map((r) => ({ strike: Number(r.strike), type: r.contract_type, bid: r.bid, ask: r.ask }));

  /** The parity forward of a chain minute, and the carry it implies at the bar the minute is valued at. */
  const minuteCarry = (root: string, expiry: string, underlying: string, minute: number, rows: readonly ChainRow[]) => {
    const spot = barOf(underlying, minute);
    const time = (settlementInstant(root, expiry) - minute) / MS_PER_YEAR;
    if (spot === null || !(time > 0)) return null;
    const estimate = impliedForward({ quotes: quotesOf(rows), time, rate: RATE, spot });
    return estimate === null ? null : { forward: estimate.forward, carry: impliedDividendYield(spot, estimate.forward, RATE, time) };
  };

  beforeAll(async () => {
    service = await startTestService({ market: { dates: [DAY] } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'print-forward-'));
    const rows = await sql<{ symbol: string; ts: string; close: number }>`select symbol, ts, close from underlying_bars`.execute(
      service.database.admin,
    );
    for (const r of rows.rows) {
      const own = bars.get(r.symbol) ?? new Map<number, number>();
      own.set(Number(r.ts), r.close);
      bars.set(r.symbol, own);
    }
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reprices each print's price on the parity forward of its expiration's quotes in its minute, delta with it", async () => {
    const bodies = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Body);
    let checked = 0;
    let fixedWouldMiss = 0;
    for (const p of bodies) {
      if (p.implied_volatility === null || p.underlying_price === null || !['SPY', 'QQQ', 'IWM'].includes(rootOf(p.id))) continue;
      const root = rootOf(p.id);
      const minute = p.timestamp - (p.timestamp % MINUTE);
      const own = (await chainOf(root, p.date_of_expiry)).get(minute);
      const solved = own === undefined ? null : minuteCarry(root, p.date_of_expiry, p.underlying_symbol, minute, own);
      if (solved === null) continue;
      const input = {
        type: p.contract_type,
        spot: p.underlying_price,
        strike: p.strike,
        time: (settlementInstant(root, p.date_of_expiry) - p.timestamp) / MS_PER_YEAR,
        rate: RATE,
        dividendYield: solved.carry,
      };
      const vega = bsmGreeks({ ...input, volatility: p.implied_volatility }).vega * 100;
      // The volatility is rounded to 6 decimals: the price within half a millionth of a vol point's vega, and a cent's hundredth.
      const tolerance = vega * 5e-7 + 1e-4;
      expect(Math.abs(bsmPrice({ ...input, volatility: p.implied_volatility }) - p.price), p.id).toBeLessThan(tolerance);
      expect(p.delta).toBeCloseTo(bsmGreeks({ ...input, volatility: p.implied_volatility }).delta, 5);
      const fixed = bsmPrice({ ...input, dividendYield: dividendYield(p.underlying_symbol), volatility: p.implied_volatility });
      if (Math.abs(fixed - p.price) > tolerance) fixedWouldMiss += 1;
      checked += 1;
    }
    expect(checked).toBeGreaterThan(200);
    // The forward is not the fixed yield's: most of these prints would not reprice on it.
    expect(fixedWouldMiss).toBeGreaterThan(checked / 2);
  });

  it('values an index option printed after the index closed (late rth, curb) at the regular close on its parity forward, and states no underlying price', async () => {
    // SPX has no price after 16:00 ET: its prints then state underlying_price null, and their
    // volatility and delta are solved at the close (the 15:59 ET bar) on the parity forward of their
    // minute's chain valued at that close, as the contract history values the same minute.
    const close = Date.parse('2026-11-20T21:00:00Z');
    const closeBar = bars.get('SPX')!.get(close - MINUTE)!;
    expect(closeBar).toBeGreaterThan(0);
    const bodies = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Body);
    const late = bodies.filter((p) => ['SPX', 'SPXW'].includes(rootOf(p.id)) && p.timestamp >= close + 1 && p.session !== 'gth');
    expect(late.length).toBeGreaterThan(20);
    expect(late.every((p) => p.underlying_price === null)).toBe(true);
    let checked = 0;
    for (const p of late) {
      const root = rootOf(p.id);
      const minute = p.timestamp - (p.timestamp % MINUTE);
      const own = (await chainOf(root, p.date_of_expiry)).get(minute);
      const time = (settlementInstant(root, p.date_of_expiry) - p.timestamp) / MS_PER_YEAR;
      if (own === undefined || !(time > 0)) continue;
      const estimate = impliedForward({
        quotes: quotesOf(own),
        time: (settlementInstant(root, p.date_of_expiry) - minute) / MS_PER_YEAR,
        rate: RATE,
        spot: closeBar,
      });
      if (estimate === null) continue;
      const carry = impliedDividendYield(
        closeBar,
        estimate.forward,
        RATE,
        (settlementInstant(root, p.date_of_expiry) - minute) / MS_PER_YEAR,
      );
      const want = impliedVolatility({
        type: p.contract_type,
        price: p.price,
        spot: closeBar,
        strike: p.strike,
        time,
        rate: RATE,
        dividendYield: carry,
      });
      if (want === null) continue;
      expect(p.implied_volatility, p.id).not.toBeNull();
      expect(Math.abs(p.implied_volatility! - want), p.id).toBeLessThan(2e-6);
      const greeks = bsmGreeks({
        type: p.contract_type,
        spot: closeBar,
        strike: p.strike,
        time,
        rate: RATE,
        dividendYield: carry,
        volatility: p.implied_volatility!,
      });
      expect(p.delta!, p.id).toBeCloseTo(greeks.delta, 5);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('gives a call and a put at the strike nearest the forward one volatility, where the fixed yield gave two; without a forward, the fixed yield', async () => {
    // The case: SPY 604 of the 2026-12-02 expiration at 16:14 ET on 2026-11-25, the chain
    // quoted on a parity forward whose carry (5%) is not the fixed 1.3% (the skew's forwards there
    // implied 1.7% to 6.2%). The simulated market prices on the fixed yield, so its own chains agree
    // with it to a few hundredths of a vol point; this chain does not.
    const day = '2026-11-25';
    const expiry = '2026-12-02';
    const rate = riskFreeRate(day);
    const spot = 604.2;
    const carry = 0.05;
    const quoteMinute = Date.parse('2026-11-25T21:13:00Z'); // 16:13 ET
    const ts = Date.parse('2026-11-25T21:14:30Z'); // 16:14:30 ET: its own minute has no chain, 16:13's is in force
    const symbol = (type: OptionType, strike: number): string =>
      `SPY   261202${type === 'call' ? 'C' : 'P'}${String(strike * 1000).padStart(8, '0')}`;
    const write = (name: string, lines: string[]): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, lines.join('\n'));
      return file;
    };
    const strikes = [600, 601, 602, 603, 604, 605, 606, 607, 608];
    const value = (type: OptionType, strike: number, at: number): number =>
      bsmPrice({
        type,
        spot,
        strike,
        time: (settlementInstant('SPY', expiry) - at) / MS_PER_YEAR,
        rate,
        dividendYield: carry,
        volatility: 0.15 + (604 - strike) * 0.002,
      });
    const db = service.database.admin;
    await loadMarketFile(
      db,
      'contracts',
      write('contracts.csv', [
        'option_symbol,underlying,multiplier',
        ...strikes.flatMap((k) => [`${symbol('call', k)},SPY,100`, `${symbol('put', k)},SPY,100`]),
        'SPY   261204C00604000,SPY,100',
      ]),
    );
    await loadMarketFile(
      db,
      'underlying_bars',
      write('bars.csv', [
        'symbol,timestamp,open,high,low,close,volume',
        `SPY,${quoteMinute},${spot},${spot},${spot},${spot},1000`,
        `SPY,${quoteMinute + MINUTE},${spot},${spot},${spot},${spot},1000`,
      ]),
    );
    await loadMarketFile(
      db,
      'quotes',
      write('quotes.csv', [
        'option_symbol,timestamp,bid,ask,bid_size,ask_size',
        ...strikes.flatMap((k) =>
          (['call', 'put'] as const).map((type) => {
            const v = value(type, k, quoteMinute);
            return `${symbol(type, k)},${quoteMinute + 10_000},${v - 0.02},${v + 0.02},10,10`;
          }),
        ),
      ]),
    );
    const [call, put] = [value('call', 604, ts), value('put', 604, ts)];
    expect(
      await loadMarketFile(
        db,
        'prints',
        write('prints.csv', [
          'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
          `${symbol('call', 604)},${ts},1,${call},5,302,209,,,${call - 0.02},${call + 0.02},${ts - 1000}`,
          `${symbol('put', 604)},${ts},2,${put},5,302,209,,,${put - 0.02},${put + 0.02},${ts - 1000}`,
          // An expiration without a chain: the fixed yield.
          `SPY   261204C00604000,${ts},3,${call},5,302,209,,,${call - 0.02},${call + 0.02},${ts - 1000}`,
        ]),
      ),
    ).toMatchObject({ loaded: 3 });
    const bodies = new Map(
      (await printBodies(db, day)).map((b) => [Number((JSON.parse(b) as Body).id.split(':').at(-1)), JSON.parse(b) as Body]),
    );
    const [callPrint, putPrint, unchained] = [bodies.get(1)!, bodies.get(2)!, bodies.get(3)!];
    const time = (settlementInstant('SPY', expiry) - ts) / MS_PER_YEAR;
    const fixed = (type: OptionType, price: number): number =>
      impliedVolatility({ type, price, spot, strike: 604, time, rate, dividendYield: dividendYield('SPY') })!;
    // The fixed yield gave the strike two volatilities, more than 0.1 vol points apart.
    expect(Math.abs(fixed('call', call) - fixed('put', put))).toBeGreaterThan(0.001);
    // The parity forward of 16:13 gives it one: the volatility it was priced at.
    expect(Math.abs(callPrint.implied_volatility! - putPrint.implied_volatility!)).toBeLessThan(0.001);
    expect(callPrint.implied_volatility).toBeCloseTo(0.15, 3);
    expect(putPrint.implied_volatility).toBeCloseTo(0.15, 3);
    expect(callPrint.delta).toBeCloseTo(
      bsmGreeks({ type: 'call', spot, strike: 604, time, rate, dividendYield: carry, volatility: callPrint.implied_volatility! }).delta,
      4,
    );
    // No chain of its expiration: the fixed yield, on which its price reprices.
    const unchainedTime = (settlementInstant('SPY', '2026-12-04') - ts) / MS_PER_YEAR;
    expect(
      bsmPrice({
        type: 'call',
        spot,
        strike: 604,
        time: unchainedTime,
        rate,
        dividendYield: dividendYield('SPY'),
        volatility: unchained.implied_volatility!,
      }),
    ).toBeCloseTo(call, 4);
  });
});
