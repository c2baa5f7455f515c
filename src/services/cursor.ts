/**
 * Opaque, tamper-evident pagination cursors: base64url JSON of the position and the query it
 * belongs to, plus an HMAC-SHA256 over it with a secret kept in the database (so cursors survive
 * restarts). A cursor is valid for 24 hours and only with the same query; anything else is 400.
 */
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { ApiError } from '../errors.js';

const MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface CursorPayload {
  /** Route-specific position. */
  p: unknown;
}

export class CursorCodec {
  /** The secret imported once as a key object (createHmac would import a Buffer secret per call). */
  private readonly key: KeyObject;

  constructor(
    secret: Buffer,
    private readonly maxAgeMs = MAX_AGE_MS,
  ) {
    this.key = createSecretKey(secret);
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }

  /** A fingerprint of the query the cursor belongs to (every parameter but cursor_id). */
  static queryFingerprint(route: string, query: object): string {
    const entries = Object.entries(query)
      .filter(([k, v]) => k !== 'cursor_id' && v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return createHash('sha256').update(route).update(JSON.stringify(entries)).digest('base64url').slice(0, 12);
  }

  /**
   * `floor`: the primary's WAL position the first page was read at or after (db/replicas.ts), which a
   * replica must have replayed to serve a following page; null when no floor was taken.
   */
  encode(position: unknown, fingerprint: string, now: number, floor: string | null = null): string {
    const body = Buffer.from(
      JSON.stringify(floor === null ? { p: position, q: fingerprint, t: now } : { p: position, q: fingerprint, t: now, f: floor }),
    ).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode<T>(cursor: string, fingerprint: string, now: number): T {
    return this.open<T>(cursor, fingerprint, now).position;
  }

  /** The cursor's position and its floor (null when it carries none: a cursor of a service without replicas). */
  open<T>(cursor: string, fingerprint: string, now: number): { position: T; floor: string | null } {
    const invalid = (message: string) => new ApiError(400, 'invalid_cursor', message, [{ parameter: 'cursor_id', message }]);
    const [body, signature, extra] = cursor.split('.');
    if (!body || !signature || extra !== undefined) throw invalid('malformed cursor');
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw invalid('cursor was altered or not issued by this service');
    let decoded: { p: T; q: string; t: number; f?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: T; q: string; t: number; f?: unknown };
    } catch {
      throw invalid('malformed cursor');
    }
    if (decoded.q !== fingerprint) throw invalid('cursor belongs to a different query');
    if (typeof decoded.t !== 'number' || now - decoded.t > this.maxAgeMs) throw invalid('cursor expired (cursors are valid for 24 hours)');
    return { position: decoded.p, floor: typeof decoded.f === 'string' ? decoded.f : null };
  }
}
