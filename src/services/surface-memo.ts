/**
 * The volatility surfaces of recent requests, by the exact inputs they were built from. A surface
 * is a pure function of its chain, spot, rate and times (analytics/volatility/surface.ts), and the
 * same chain minute is asked for again and again (every caller of an underlying within a minute,
 * every request about a completed session), while fitting a chain's smiles costs far more than
 * reading it. The key is a digest of the whole input, so a chain that changed (a reload, a later
 * minute, another instant) is a different key: nothing here can serve a stale surface.
 *
 * Entries are shared between requests and must not be changed by their readers.
 */
import { createHash } from 'node:crypto';
import { buildSurface, type ExpirationSurface, type SurfaceInput } from '../analytics/volatility/surface.js';

/** Surfaces kept per process, least recently used dropped first (a surface of four expirations is about 200 KB). */
export const SURFACE_MEMO_ENTRIES = 64;

const memo = new Map<string, readonly ExpirationSurface[]>();

/** The surface of the input, built once per distinct input among the recent ones. */
export function memoizedSurface(input: SurfaceInput): readonly ExpirationSurface[] {
  const key = createHash('sha256').update(JSON.stringify(input)).digest('base64');
  const held = memo.get(key);
  if (held !== undefined) {
    memo.delete(key);
    memo.set(key, held);
    return held;
  }
  const surface = buildSurface(input);
  memo.set(key, surface);
  if (memo.size > SURFACE_MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  return surface;
}

/** Empties the memo (tests and benchmarks that measure the fit itself). */
export function clearSurfaceMemo(): void {
  memo.clear();
}
