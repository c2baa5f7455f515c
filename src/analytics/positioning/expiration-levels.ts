/**
 * Levels of the nearest expiration: the earliest expiration of the contracts not yet settled
 * (time to settlement above 0), so on an expiration date its own contracts until they settle.
 *
 * - max_pain: the strike K* among the expiration's listed strikes minimising what its holders are
 *   paid at settlement, Σ_calls OI·multiplier·max(K* − K, 0) + Σ_puts OI·multiplier·max(K − K*, 0)
 *   (open interest, whatever the positioning model). Ties: the strike nearest S, then the lower.
 * - expected_move: implied_volatility is the expiration's at-the-money volatility (the fitted smile
 *   at k = ln(K/F) = 0, forward at the money); expected_move = S·σ·√T, T the years to settlement;
 *   straddle is the at-the-money straddle's mid (call mid + put mid at the listed strike nearest S
 *   where both legs have a mid, the lower strike on a tie); straddle_expected_move = 0.85 × straddle,
 *   the traders' rule (a normal move's mean absolute size is √(2/π) ≈ 0.80 of its σ, so 0.85 of
 *   the straddle is close to one σ). one_sigma_band = [S − m, S + m], two_sigma_band =
 *   [S − 2m, S + 2m] with m = expected_move, or straddle_expected_move when there is no volatility;
 *   the object is null when there is neither.
 * - next_expiration_share: Σ |gamma exposure| of the nearest expiration's contracts over that of all
 *   contracts (per contract, so a strike's calls and puts do not offset); null when there is no gamma.
 */
import type { components } from '../../../generated/openapi.js';
import type { OptionType } from '../pricing.js';
import { midPrice, type ChainQuote } from '../volatility/quotes.js';
import { smileVolatility, type Smile } from '../volatility/smile.js';
import type { PositioningContract } from './contracts.js';

type Levels = components['schemas']['KeyLevels']['levels'];
export type MaxPain = NonNullable<Levels['max_pain']>;
export type ExpectedMove = NonNullable<Levels['expected_move']>;

export const STRADDLE_MOVE_FACTOR = 0.85;

/** The earliest expiration date among contracts with time to settlement above 0; null when none. */
export function nearestExpiration(contracts: readonly Pick<PositioningContract, 'dateOfExpiry' | 'time'>[]): string | null {
  let nearest: string | null = null;
  for (const c of contracts) if (c.time > 0 && (nearest === null || c.dateOfExpiry < nearest)) nearest = c.dateOfExpiry;
  return nearest;
}

/** Max pain of one expiration's contracts (module comment); null without a listed strike. */
export function maxPain(
  contracts: readonly { strike: number; type: OptionType; openInterest: number; multiplier: number }[],
  dateOfExpiry: string,
  spot: number,
): MaxPain | null {
  const strikes = [...new Set(contracts.map((c) => c.strike))].sort((a, b) => a - b);
  let best: { strike: number; pain: number } | null = null;
  for (const settle of strikes) {
    let pain = 0;
    for (const c of contracts) {
      const payoff = c.type === 'call' ? Math.max(settle - c.strike, 0) : Math.max(c.strike - settle, 0);
      pain += c.openInterest * c.multiplier * payoff;
    }
    const closer = best !== null && Math.abs(settle - spot) < Math.abs(best.strike - spot);
    if (best === null || pain < best.pain || (pain === best.pain && closer)) best = { strike: settle, pain };
  }
  return best === null ? null : { date_of_expiry: dateOfExpiry, strike: best.strike };
}

/** The expected move's at-the-money volatility: the smile at k = ln(K/F) = 0; null without a smile. */
export function atmVolatility(smile: Smile | null): number | null {
  return smile === null ? null : smileVolatility(smile, 0);
}

/** The at-the-money straddle mid (module comment); null when no strike has both mids. */
export function atmStraddle(quotes: readonly ChainQuote[], spot: number): number | null {
  const legs = new Map<number, { call: number | null; put: number | null }>();
  for (const q of quotes) {
    const entry = legs.get(q.strike) ?? { call: null, put: null };
    entry[q.type] = midPrice(q.bid, q.ask);
    legs.set(q.strike, entry);
  }
  let best: { strike: number; straddle: number } | null = null;
  for (const [strike, { call, put }] of legs) {
    if (call === null || put === null) continue;
    const distance = Math.abs(strike - spot);
    const bestDistance = best === null ? Infinity : Math.abs(best.strike - spot);
    if (distance < bestDistance || (distance === bestDistance && best !== null && strike < best.strike))
      best = { strike, straddle: call + put };
  }
  return best === null ? null : best.straddle;
}

export interface ExpectedMoveInput {
  dateOfExpiry: string;
  /** Years to settlement. */
  time: number;
  /** At-the-money volatility of the expiration; null when unknown. */
  atmVolatility: number | null;
  /** At-the-money straddle mid (atmStraddle); null when unknown. */
  straddle: number | null;
}

/** Expected move and its bands (module comment). */
export function expectedMove(input: ExpectedMoveInput, spot: number): ExpectedMove | null {
  const sigma = input.atmVolatility !== null && input.atmVolatility > 0 && input.time > 0 ? input.atmVolatility : null;
  const move = sigma === null ? null : spot * sigma * Math.sqrt(input.time);
  const straddleMove = input.straddle === null ? null : STRADDLE_MOVE_FACTOR * input.straddle;
  const band = move ?? straddleMove;
  if (band === null) return null;
  return {
    date_of_expiry: input.dateOfExpiry,
    expected_move: move,
    implied_volatility: sigma,
    one_sigma_band: [spot - band, spot + band],
    straddle: input.straddle,
    straddle_expected_move: straddleMove,
    two_sigma_band: [spot - 2 * band, spot + 2 * band],
  };
}

/** Share of absolute gamma exposure in the expiration (module comment). */
export function expirationShare(values: readonly { dateOfExpiry: string; value: number }[], dateOfExpiry: string | null): number | null {
  let inExpiration = 0;
  let total = 0;
  for (const v of values) {
    total += Math.abs(v.value);
    if (v.dateOfExpiry === dateOfExpiry) inExpiration += Math.abs(v.value);
  }
  return total > 0 && dateOfExpiry !== null ? inExpiration / total : null;
}
