/**
 * The hand chain: two expirations, a few strikes, values derived outside the code under test.
 * Gamma values come from the independent script at the bottom of this file (Python's math module,
 * Haug's closed form, the levels by their definitions, the flip by bisection on a 40,000-point
 * grid); orderings, max pain and the expected move are worked by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { valueContracts } from './contracts.js';
import { exposureValues, sumByStrike } from './exposure.js';
import { A, B, handChain, RATE, S, TA, TRADING_DATE } from './hand-chain.fixtures.js';
import { keyLevels, type KeyLevelsInput } from './key-levels.js';

// Gamma per 1% (USD), dealer long calls and short puts, summed over both expirations (script below).
const BY_STRIKE: Record<number, { call: number; put: number; net: number }> = {
  90: { call: 15552.133144434, put: -311042.662888679, net: -295490.529744245 },
  95: { call: 119861.951767912, put: -1198619.5176859, net: -1078757.56591798 },
  100: { call: 4873058.39664959, put: -5562173.56079904, net: -689115.164149457 },
  102.5: { call: 651635.564554876, put: -217211.854851625, net: 434423.709703251 },
  105: { call: 1448503.41926787, put: -231760.547082863, net: 1216742.87218501 },
  110: { call: 188059.573780466, put: -15671.6311483722, net: 172387.942632094 },
};

function input(overrides: Partial<KeyLevelsInput> = {}): KeyLevelsInput {
  return {
    contracts: valueContracts(handChain(), { spot: S, rate: RATE }, 'classic_oi'),
    spot: S,
    rate: RATE,
    tradingDate: TRADING_DATE,
    greek: 'gamma',
    unit: 'per_percent',
    perspective: 'dealer',
    include: [],
    gatekeeperRatio: 0.4,
    nearestMarket: { time: TA, atmVolatility: 0.22, straddle: 1 },
    ...overrides,
  };
}

function close(got: number | null | undefined, want: number, relative = 1e-10): void {
  expect(got).not.toBeNull();
  expect(Math.abs((got as number) - want)).toBeLessThanOrEqual(relative * Math.abs(want));
}

describe('hand chain, classic_oi gamma per 1%', () => {
  const { levels, ranked } = keyLevels(input());

  it('sums the exposure by strike as the independent script does', () => {
    const rows = sumByStrike(exposureValues(input().contracts, { greek: 'gamma', unit: 'per_percent', perspective: 'dealer', spot: S }));
    expect(rows.map((r) => r.strike)).toEqual([90, 95, 100, 102.5, 105, 110]);
    for (const r of rows) {
      const want = BY_STRIKE[r.strike] as { call: number; put: number; net: number };
      close(r.call, want.call);
      close(r.put, want.put);
      close(r.net, want.net);
    }
  });

  it('walls and majors: read off the table by hand', () => {
    // Largest call and most negative put are both at 100; at or above S = 100.5 the largest positive
    // net is 105 (1.22e6 against 0.43e6 at 102.5 and 0.17e6 at 110); at or below S the most negative
    // net is 95 (−1.08e6 against −0.69e6 at 100 and −0.30e6 at 90).
    expect(levels.call_wall).toBe(100);
    expect(levels.put_wall).toBe(100);
    expect(levels.call_wall_above).toBe(105);
    expect(levels.put_wall_below).toBe(95);
    expect(levels.major_positive).toBe(105);
    expect(levels.major_negative).toBe(95);
    // Gross |call| + |put|: 100 has 10.4e6, next 105 with 1.68e6.
    expect(levels.largest_absolute_strike).toBe(100);
    expect(levels.peak_net_exposure?.strike).toBe(105);
    close(levels.peak_net_exposure?.value, 1216742.87218501);
  });

  it('gatekeepers: 102.5 holds 434,424 / 1,216,743 = 0.357 of the peak, so it is one at 0.3, not at 0.4', () => {
    expect(levels.gatekeepers).toEqual([]);
    expect(keyLevels(input({ gatekeeperRatio: 0.3 })).levels.gatekeepers).toEqual([102.5]);
    // 100 lies below S, so it is not between S and the peak at 105 whatever its size.
    expect(keyLevels(input({ gatekeeperRatio: 0.1 })).levels.gatekeepers).toEqual([102.5]);
  });

  it('gamma flip: three sign changes, the nearest S is the flip; without the 0DTE one near 100.04', () => {
    // The 0DTE 105 strike is put-heavy (50 calls, 600 puts): its narrow negative gamma crosses the
    // positive net of the next expiration around 105 twice.
    const want = [100.6941622585143, 104.29036534781443, 105.64154622982866];
    expect(levels.gamma_flip_candidates).toHaveLength(3);
    levels.gamma_flip_candidates.forEach((c, i) => close(c, want[i] as number, 1e-9));
    close(levels.gamma_flip, 100.6941622585143, 1e-9);
    close(levels.gamma_flip_excluding_0dte, 100.04471915656441, 1e-9);
    expect(levels.gamma_flip_far_from_underlying).toBe(false);
  });

  it('regime: net −239,809 over absolute 14,833,151 is −0.0162, neutral, S below the flip', () => {
    close(levels.regime.net, -239808.735291332);
    close(levels.regime.absolute, 14833150.8136216);
    close(levels.regime.ratio, -0.0161670799619397);
    expect(levels.regime.label).toBe('neutral');
    expect(levels.regime.underlying_vs_gamma_flip).toBe('below');
  });

  it('gamma tilt, next expiration share and largest cell', () => {
    close(levels.gamma_tilt, 0.96818027216);
    close(levels.next_expiration_share, 0.545337132466);
    // Cells: the next expiration's 105 (1,216,743) beats its 95 (−1,078,758) and the 0DTE 100 (−475,828).
    expect(levels.largest_cell?.date_of_expiry).toBe(B);
    expect(levels.largest_cell?.strike).toBe(105);
    close(levels.largest_cell?.value, 1216742.87218501);
  });

  it('max pain of the 0DTE expiration is 100', () => {
    // Paid at settlement per 100 shares: at 95, puts 900×5 + 600×10 = 10,500; at 100, calls 50×5 +
    // puts 600×5 = 3,250; at 105, calls 50×10 + 800×5 = 4,500.
    expect(levels.max_pain).toEqual({ date_of_expiry: A, strike: 100 });
  });

  it('expected move of the 0DTE expiration: 100.5 × 0.22 × √(6/8760) = 0.578645146423', () => {
    const em = levels.expected_move;
    expect(em?.date_of_expiry).toBe(A);
    close(em?.expected_move, 0.578645146423);
    expect(em?.implied_volatility).toBe(0.22);
    expect(em?.straddle).toBe(1);
    close(em?.straddle_expected_move, 0.85);
    close(em?.one_sigma_band[0], S - 0.578645146423);
    close(em?.one_sigma_band[1], S + 0.578645146423);
    close(em?.two_sigma_band[0], S - 2 * 0.578645146423);
    close(em?.two_sigma_band[1], S + 2 * 0.578645146423);
  });

  it('without an at-the-money volatility the bands come from 0.85 × the straddle; with neither the object is null', () => {
    const em = keyLevels(input({ nearestMarket: { time: TA, atmVolatility: null, straddle: 2 } })).levels.expected_move;
    expect(em?.expected_move).toBeNull();
    close(em?.one_sigma_band[1], S + 1.7);
    close(em?.two_sigma_band[0], S - 3.4);
    expect(keyLevels(input({ nearestMarket: { time: TA, atmVolatility: null, straddle: null } })).levels.expected_move).toBeNull();
    expect(keyLevels(input({ nearestMarket: null })).levels.expected_move).toBeNull();
  });

  it('ranked: five per leg by absolute value, distances from S', () => {
    expect(ranked.calls.map((r) => r.strike)).toEqual([100, 105, 102.5, 110, 95]);
    expect(ranked.puts.map((r) => r.strike)).toEqual([100, 95, 90, 105, 102.5]);
    expect(ranked.net.map((r) => r.strike)).toEqual([105, 95, 100, 102.5, 90]);
    expect(ranked.gross.map((r) => r.strike)).toEqual([100, 105, 95, 102.5, 90]);
    const first = ranked.net[0];
    expect(first?.rank).toBe(1);
    close(first?.value, 1216742.87218501);
    expect(first?.distance_points).toBe(4.5);
    close(first?.distance_percent, (100 * 4.5) / 100.5);
    close(ranked.gross[0]?.value, 4873058.39664959 + 5562173.56079904);
    expect(ranked.net.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('include: vanna, charm and delta levels only when asked', () => {
    expect(levels.vanna_levels).toBeNull();
    expect(levels.charm_max_absolute_strike).toBeNull();
    expect(levels.delta_key_strike).toBeNull();
    const withAll = keyLevels(input({ include: ['vanna', 'charm', 'delta'] })).levels;
    // Net vanna per 1 volatility point by strike (script, Haug's vanna −e^{−qT}φ(d1)d2/σ): 90 125,077;
    // 95 265,260; 100 16,940; 102.5 42,940; 105 288,872; 110 90,371: all positive, so no min.
    expect(withAll.vanna_levels).toEqual({ max: 105, min: null });
    // Net charm per day (Haug's charm): 100 −470,857 is the largest in size (next 105 −101,634).
    expect(withAll.charm_max_absolute_strike).toBe(100);
    // Dealer delta: long calls and short puts both carry positive delta; 100 is the largest.
    expect(withAll.delta_key_strike).toBe(100);
  });

  it('greek delta per 1%: net by strike as the script gives it', () => {
    const delta = keyLevels(input({ greek: 'delta' }));
    // Σ (Δcall·calls − Δput·puts)·100·S·0.01 per strike, Δ = ±e^{−qT}Φ(±d1) (script).
    const want: [number, number][] = [
      [100, 246114.6542],
      [105, 144944.28],
      [95, 81680.07484],
      [102.5, 53092.9345],
      [90, 20629.40335],
    ];
    expect(delta.ranked.net.map((r) => r.strike)).toEqual(want.map(([k]) => k));
    delta.ranked.net.forEach((r, i) => close(r.value, (want[i] as [number, number])[1], 1e-9));
    expect(delta.levels.major_positive).toBe(100);
    expect(delta.levels.major_negative).toBeNull();
    expect(delta.levels.regime.label).toBe('positive');
  });
});

describe('flow_adjusted on the hand chain', () => {
  it('customers buying all 2,500 calls of the next expiration’s 105 strike leave the dealer flat there', () => {
    const contracts = handChain().map((c) =>
      c.dateOfExpiry === B && c.strike === 105 && c.type === 'call' ? { ...c, flow: { bought: 2500, sold: 0 } } : c,
    );
    const { levels } = keyLevels(input({ contracts: valueContracts(contracts, { spot: S, rate: RATE }, 'flow_adjusted') }));
    // 105 keeps only its puts (−231,761) and the 0DTE calls' negligible gamma (below 1e-9), so the
    // largest positive net is 102.5 (434,424) and the peak is 95 (−1,078,758), below S. Between
    // 95 and S = 100.5, 100 holds 689,115 ≥ 0.4 × 1,078,758 = 431,503: a gatekeeper.
    expect(levels.major_positive).toBe(102.5);
    expect(levels.call_wall_above).toBe(102.5);
    expect(levels.peak_net_exposure?.strike).toBe(95);
    close(levels.peak_net_exposure?.value, -1078757.56591798);
    expect(levels.gatekeepers).toEqual([100]);
    // Classic with the same flows ignores them.
    const classic = keyLevels(input({ contracts: valueContracts(contracts, { spot: S, rate: RATE }, 'classic_oi') }));
    expect(classic.levels.major_positive).toBe(105);
  });
});

describe('perspective and unit', () => {
  it('customer negates the values and moves no level', () => {
    const dealer = keyLevels(input());
    const customer = keyLevels(input({ perspective: 'customer' }));
    const strikes = (l: typeof dealer.levels): unknown[] => [
      l.call_wall,
      l.put_wall,
      l.call_wall_above,
      l.put_wall_below,
      l.major_positive,
      l.major_negative,
      l.largest_absolute_strike,
      l.gamma_flip,
      l.max_pain,
    ];
    expect(strikes(customer.levels)).toEqual(strikes(dealer.levels));
    expect(customer.levels.peak_net_exposure?.value).toBe(-(dealer.levels.peak_net_exposure?.value as number));
    expect(customer.levels.regime.net).toBe(-(dealer.levels.regime.net as number));
    expect(customer.ranked.net.map((r) => r.value)).toEqual(dealer.ranked.net.map((r) => -r.value));
    expect(customer.ranked.gross).toEqual(dealer.ranked.gross);
  });

  it('per_dollar is per_percent divided by 0.01 S; levels do not move', () => {
    const perPercent = keyLevels(input());
    const perDollar = keyLevels(input({ unit: 'per_dollar' }));
    close(perDollar.levels.peak_net_exposure?.value, (perPercent.levels.peak_net_exposure?.value as number) / (0.01 * S));
    expect(perDollar.levels.call_wall).toBe(perPercent.levels.call_wall);
    expect(perDollar.levels.gamma_flip).toBe(perPercent.levels.gamma_flip);
  });
});

/*
Independent script (Python 3, standard library only) the gamma figures above come from:

from math import log, sqrt, exp, pi
S, r, q, M = 100.5, 0.04, 0.01, 100
TA, TB = 6/8760, 28.25/365
A = {95: (0.30, 50, 700), 100: (0.22, 800, 900), 105: (0.20, 50, 600)}
B = {90: (0.26, 100, 2000), 95: (0.23, 300, 3000), 100: (0.20, 1500, 1800), 102.5: (0.19, 900, 300),
     105: (0.18, 2500, 400), 110: (0.17, 1200, 100)}
def gamma(x, K, T, v):
    d1 = (log(x/K) + (r - q + v*v/2)*T)/(v*sqrt(T))
    return exp(-q*T)*exp(-d1*d1/2)/sqrt(2*pi)/(x*v*sqrt(T))
def legs(x, chains):   # per strike [call, put] gamma per 1% in USD, dealer long calls, short puts
    out = {}
    for T, ch in chains:
        for K, (v, c, p) in ch.items():
            g = gamma(x, K, T, v)*M*x*x*0.01; a = out.setdefault(K, [0.0, 0.0]); a[0] += g*c; a[1] -= g*p
    return out
net = lambda x, ch: sum(sum(v) for v in legs(x, ch).values())
def roots(ch, n=40000):   # sign changes on a 40,000-step grid over 0.8 S..1.2 S, bisected 100 times
    xs = [0.8*S + i*0.4*S/n for i in range(n+1)]; out = []
    for a, b in zip(xs, xs[1:]):
        fa, fb = net(a, ch), net(b, ch)
        if fa*fb < 0:
            for _ in range(100):
                m = (a+b)/2; fm = net(m, ch)
                if fm*fa > 0: a, fa = m, fm
                else: b = m
            out.append((a+b)/2)
    return out
rows = legs(S, [(TA, A), (TB, B)])          # BY_STRIKE
roots([(TA, A), (TB, B)]); roots([(TB, B)])  # candidates; without the 0DTE expiration
absolute = sum(gamma(S, K, T, v)*M*S*S*0.01*(c + p) for T, ch in ((TA, A), (TB, B)) for K, (v, c, p) in ch.items())
absA = the same over A only                  # next_expiration_share = absA/absolute
tilt = sum(max(c, 0) for c, p in rows.values()) / -sum(min(p, 0) for c, p in rows.values())
Delta, vanna and charm by strike: the same loop with Haug's delta ±e^{-qT}N(±d1) (N from math.erf),
vanna and charm, times position·100·S·0.01 (delta, vanna) or ·100·S/365 (charm).
*/
