/**
 * The skew route's figures for one expiration of a surface (surface.ts): forward, the delta measures
 * of its smile (delta-measures.ts, which states the delta convention), the points by strike, and the
 * `fit` member. The route adds the expiration's date and days to expiry.
 *
 * Each point also carries the fitted smile's volatility at its strike (smile_implied_volatility):
 * the one volatility the positioning routes value both of that strike's contracts at
 * (positioning/contracts.ts contractVolatility, the same expression), so a levels or heat map figure
 * can be reproduced from the skew and open-interest routes.
 */
import { smileMeasures, type SmileMeasures } from './delta-measures.js';
import { skewPoints, type SkewPoint } from './quotes.js';
import { smileVolatility, type SmileFit } from './smile.js';
import type { ExpirationSurface } from './surface.js';

export interface ExpirationSkew extends SmileMeasures {
  /** Forward implied by the chain (forward.ts); null when no strike has both legs quoted. */
  forward: number | null;
  /** Ascending by strike. */
  points: (SkewPoint & { smile_implied_volatility: number | null })[];
  /** How the smile was built; null when there is no smile (no forward or no out-of-the-money mid). */
  fit: SmileFit | null;
}

const NO_MEASURES: SmileMeasures = {
  atm_implied_volatility: null,
  risk_reversal_25d: null,
  butterfly_25d: null,
  risk_reversal_10d: null,
  butterfly_10d: null,
  normalized_skew: null,
  slope: null,
};

export function expirationSkew(e: ExpirationSurface): ExpirationSkew {
  const forward = e.forward?.forward ?? null;
  const measures = e.smile !== null && e.market !== null ? smileMeasures(e.smile, e.market) : NO_MEASURES;
  const smile = e.smile;
  const points = skewPoints(e.quotes, forward).map((p) => ({
    ...p,
    smile_implied_volatility:
      smile === null || forward === null || !(forward > 0) || !(p.strike > 0) ? null : smileVolatility(smile, Math.log(p.strike / forward)),
  }));
  return { ...measures, forward, points, fit: e.smile?.fit ?? null };
}
