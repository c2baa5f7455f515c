/**
 * The audit's own Black-Scholes-Merton / Black-76 arithmetic, written here on purpose and not
 * imported from src/analytics, so that the audit recomputes the service's figures independently.
 */

/** Standard normal CDF: Hart (1968) double-precision rational approximation (as in West 2005). */
export function normCdf(x: number): number {
  const ax = Math.abs(x);
  let c: number;
  if (ax > 37) c = 0;
  else {
    const e = Math.exp((-ax * ax) / 2);
    if (ax < 7.07106781186547) {
      let b = 3.52624965998911e-2 * ax + 0.700383064443688;
      b = b * ax + 6.37396220353165;
      b = b * ax + 33.912866078383;
      b = b * ax + 112.079291497871;
      b = b * ax + 221.213596169931;
      b = b * ax + 220.206867912376;
      c = e * b;
      b = 8.83883476483184e-2 * ax + 1.75566716318264;
      b = b * ax + 16.064177579207;
      b = b * ax + 86.7807322029461;
      b = b * ax + 296.564248779674;
      b = b * ax + 637.333633378831;
      b = b * ax + 793.826512519948;
      b = b * ax + 440.413735824752;
      c = c / b;
    } else {
      let b = ax + 0.65;
      b = ax + 4 / b;
      b = ax + 3 / b;
      b = ax + 2 / b;
      b = ax + 1 / b;
      c = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - c : c;
}

export const normPdf = (x: number): number => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

export type Kind = 'call' | 'put';
export const MS_PER_YEAR = 365 * 86_400_000;

/** Black-76 price on the forward, discounted at r. */
export function black76(kind: Kind, F: number, K: number, T: number, r: number, vol: number): number {
  const df = Math.exp(-r * T);
  if (T <= 0 || vol <= 0) return df * Math.max(kind === 'call' ? F - K : K - F, 0);
  const s = vol * Math.sqrt(T);
  const d1 = (Math.log(F / K) + 0.5 * s * s) / s;
  const d2 = d1 - s;
  return kind === 'call' ? df * (F * normCdf(d1) - K * normCdf(d2)) : df * (K * normCdf(-d2) - F * normCdf(-d1));
}

/** Implied volatility by bisection (monotone in vol); null when the price is outside the no-arbitrage bounds. */
export function impliedVol(kind: Kind, price: number, F: number, K: number, T: number, r: number): number | null {
  if (!(T > 0) || !(price > 0)) return null;
  let lo = 1e-6;
  let hi = 8;
  if (price <= black76(kind, F, K, T, r, lo) || price >= black76(kind, F, K, T, r, hi)) return null;
  for (let i = 0; i < 200; i += 1) {
    const mid = (lo + hi) / 2;
    if (black76(kind, F, K, T, r, mid) < price) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Spot greeks with the carry q the forward implies: q = r - ln(F/S)/T. */
export function spotGreeks(
  kind: Kind,
  S: number,
  K: number,
  T: number,
  r: number,
  q: number,
  vol: number,
): { delta: number; gamma: number } {
  const s = vol * Math.sqrt(T);
  const d1 = (Math.log(S / K) + (r - q + 0.5 * vol * vol) * T) / s;
  const dq = Math.exp(-q * T);
  return { delta: kind === 'call' ? dq * normCdf(d1) : -dq * normCdf(-d1), gamma: (dq * normPdf(d1)) / (S * s) };
}

/** Self-check of the CDF against known values (to 1e-12). */
export function selfCheck(): void {
  const known: [number, number][] = [
    [0, 0.5],
    [1, 0.8413447460685429],
    [1.96, 0.9750021048517795],
    [-2.5, 0.006209665325776132],
  ];
  for (const [x, p] of known) if (Math.abs(normCdf(x) - p) > 1e-12) throw new Error(`normCdf(${x}) = ${normCdf(x)}, want ${p}`);
  const v = impliedVol('call', black76('call', 100, 105, 0.5, 0.04, 0.23), 100, 105, 0.5, 0.04);
  if (v === null || Math.abs(v - 0.23) > 1e-10) throw new Error(`implied vol round trip ${v}`);
}
