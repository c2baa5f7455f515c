/**
 * Option roots the platform knows, by family. A family name covers its sub-roots (SPX covers SPX
 * and SPXW); a weekly root named alone covers only itself. Sources: Cboe product specifications
 * (SPX/SPXW, XSP, VIX/VIXW, RUT/RUTW), Nasdaq (NDX/NDXP), OCC series listings for equity and ETF
 * options (multiplier 100). Overnight: Cboe Global Trading Hours lists SPX, SPXW, XSP, VIX and VIXW.
 */
export type ProductKind = 'index' | 'etf' | 'equity';

export interface OptionRoot {
  root: string;
  family: string;
  underlying: string;
  multiplier: number;
  kind: ProductKind;
  /** Trades in the Cboe Global Trading Hours (gth) session. */
  overnight: boolean;
  /** Has the Cboe curb session after the regular close. */
  curb: boolean;
  /** AM-settled on the Special Opening Quotation (standard monthlies of SPX, NDX, RUT, VIX). */
  amSettled: boolean;
}

const index = (root: string, family: string, overnight: boolean, curb: boolean, amSettled: boolean): OptionRoot => ({
  root,
  family,
  underlying: family,
  multiplier: 100,
  kind: 'index',
  overnight,
  curb,
  amSettled,
});
const listed = (root: string, kind: 'etf' | 'equity'): OptionRoot => ({
  root,
  family: root,
  underlying: root,
  multiplier: 100,
  kind,
  overnight: false,
  curb: false,
  amSettled: false,
});

export const OPTION_ROOTS: readonly OptionRoot[] = [
  index('SPX', 'SPX', true, true, true),
  index('SPXW', 'SPX', true, true, false),
  index('XSP', 'XSP', true, true, false),
  index('VIX', 'VIX', true, true, true),
  index('VIXW', 'VIX', true, true, false),
  index('NDX', 'NDX', false, false, true),
  index('NDXP', 'NDX', false, false, false),
  index('RUT', 'RUT', false, false, true),
  index('RUTW', 'RUT', false, false, false),
  listed('SPY', 'etf'),
  listed('QQQ', 'etf'),
  listed('IWM', 'etf'),
  listed('AAPL', 'equity'),
  listed('TSLA', 'equity'),
  listed('NVDA', 'equity'),
  listed('AMZN', 'equity'),
];

const byRoot = new Map(OPTION_ROOTS.map((r) => [r.root, r]));

export function optionRoot(root: string): OptionRoot | null {
  return byRoot.get(root.toUpperCase()) ?? null;
}

/**
 * The roots an underlying parameter names: a family name expands to its roots, any other known
 * root stands alone, and an unknown symbol names itself (so data loaded for new roots is found).
 */
export function expandUnderlying(symbol: string): string[] {
  const upper = symbol.toUpperCase();
  const family = OPTION_ROOTS.filter((r) => r.family === upper).map((r) => r.root);
  if (family.length > 0 && byRoot.get(upper)?.family === upper) return family;
  return [upper];
}
