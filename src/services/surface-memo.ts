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

/** The surfaces of one process (ServiceDeps.memos). */
export class SurfaceMemo {
  private readonly kept = new Map<string, readonly ExpirationSurface[]>();

  constructor(private readonly maxEntries = SURFACE_MEMO_ENTRIES) {}

  /** The surface of the input, built once per distinct input among the recent ones. */
  surfaceOf(input: SurfaceInput): readonly ExpirationSurface[] {
    const key = createHash('sha256').update(JSON.stringify(input)).digest('base64');
    const held = this.kept.get(key);
    if (held !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, held);
      return held;
    }
    const surface = buildSurface(input);
    this.kept.set(key, surface);
    if (this.kept.size > this.maxEntries) this.kept.delete(this.kept.keys().next().value as string);
    return surface;
  }

  /** Empties the memo (benchmarks that measure the fit itself). */
  clear(): void {
    this.kept.clear();
  }
}
