import { describe, expect, it } from 'vitest';
import { CursorCodec } from './cursor.js';
import { ApiError } from '../errors.js';

const SECRET = Buffer.from('0123456789abcdef0123456789abcdef', 'utf8');
const OTHER_SECRET = Buffer.from('fedcba9876543210fedcba9876543210', 'utf8');
const NOW = 1_763_649_000_000;
const DAY = 24 * 60 * 60 * 1000;

const ROUTE = '/v1/options/trades';
const QUERY = { underlying_symbol: 'SPX', date: '2025-11-20', limit: 100 };
const FP = CursorCodec.queryFingerprint(ROUTE, QUERY);
const POSITION = { ts: 1_763_650_123_456, seq: 98_765_432, id: 'pr_0123456789abcdef' };

/** Runs `fn`, expects an invalid_cursor ApiError naming cursor_id, returns it. */
function expectInvalidCursor(fn: () => unknown): ApiError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.status).toBe(400);
  expect(error.code).toBe('invalid_cursor');
  expect(error.details[0]?.parameter).toBe('cursor_id');
  expect(error.details[0]?.message).toBe(error.message);
  return error;
}

/** Replaces the character at `index` with a different base64url character. */
function flip(text: string, index: number): string {
  const c = text[index];
  return text.slice(0, index) + (c === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('CursorCodec', () => {
  const codec = new CursorCodec(SECRET);

  it('round-trips a position', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    expect(codec.decode<typeof POSITION>(cursor, FP, NOW + 1_000)).toEqual(POSITION);
    // decoding is stable across codec instances sharing the secret (survives restarts)
    expect(new CursorCodec(Buffer.from(SECRET)).decode(cursor, FP, NOW)).toEqual(POSITION);
  });

  it('round-trips scalar and array positions', () => {
    for (const p of [0, 'abc', [1, 'x', null], null, { nested: { deep: [1, 2] } }]) {
      expect(codec.decode(codec.encode(p, FP, NOW), FP, NOW)).toEqual(p);
    }
  });

  it('is opaque: <body>.<signature>, both base64url', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it('rejects an altered body', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    const [body = '', signature = ''] = cursor.split('.');
    expectInvalidCursor(() => codec.decode(`${flip(body, 5)}.${signature}`, FP, NOW));
    // a re-encoded body with a different position but the old signature
    const forged = Buffer.from(JSON.stringify({ p: { ...POSITION, seq: 1 }, q: FP, t: NOW })).toString('base64url');
    expectInvalidCursor(() => codec.decode(`${forged}.${signature}`, FP, NOW));
  });

  it('rejects an altered, truncated or extended signature', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    const [body = '', signature = ''] = cursor.split('.');
    expectInvalidCursor(() => codec.decode(`${body}.${flip(signature, 0)}`, FP, NOW));
    expectInvalidCursor(() => codec.decode(`${body}.${flip(signature, 21)}`, FP, NOW));
    expectInvalidCursor(() => codec.decode(`${body}.${signature.slice(0, -1)}`, FP, NOW));
    expectInvalidCursor(() => codec.decode(`${body}.${signature}A`, FP, NOW));
  });

  it('rejects a cursor signed with another secret', () => {
    const foreign = new CursorCodec(OTHER_SECRET).encode(POSITION, FP, NOW);
    const error = expectInvalidCursor(() => codec.decode(foreign, FP, NOW));
    expect(error.message).toMatch(/altered|not issued/);
  });

  it('rejects a cursor of a different query', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    const other = CursorCodec.queryFingerprint(ROUTE, { ...QUERY, underlying_symbol: 'QQQ' });
    const error = expectInvalidCursor(() => codec.decode(cursor, other, NOW));
    expect(error.message).toMatch(/different query/);
  });

  it('is valid for 24 hours: accepted at exactly 24 h, rejected 1 ms later', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    expect(codec.decode(cursor, FP, NOW + DAY - 1)).toEqual(POSITION);
    expect(codec.decode(cursor, FP, NOW + DAY)).toEqual(POSITION);
    const error = expectInvalidCursor(() => codec.decode(cursor, FP, NOW + DAY + 1));
    expect(error.message).toMatch(/expired/);
    expectInvalidCursor(() => codec.decode(cursor, FP, NOW + 7 * DAY));
  });

  it('honours a custom max age', () => {
    const short = new CursorCodec(SECRET, 1_000);
    const cursor = short.encode(1, FP, NOW);
    expect(short.decode(cursor, FP, NOW + 1_000)).toBe(1);
    expectInvalidCursor(() => short.decode(cursor, FP, NOW + 1_001));
  });

  it('rejects malformed strings', () => {
    for (const bad of ['', 'abc', 'a.b.c', '.', 'abc.', '.abc', 'a..b']) {
      const error = expectInvalidCursor(() => codec.decode(bad, FP, NOW));
      expect(error.message.length).toBeGreaterThan(0);
    }
    const valid = codec.encode(POSITION, FP, NOW);
    expectInvalidCursor(() => codec.decode(`${valid}.extra`, FP, NOW));
  });

  it('stays well under 1024 characters for a typical position', () => {
    const cursor = codec.encode(POSITION, FP, NOW);
    expect(cursor.length).toBeLessThan(256);
    const bigger = codec.encode({ ts: NOW, seq: 123_456_789, id: 'x'.repeat(40), filters: ['SPX', 'SPXW', 'QQQ'], scan: 20_000 }, FP, NOW);
    expect(bigger.length).toBeLessThan(512);
  });
});

describe('CursorCodec.queryFingerprint', () => {
  it('ignores cursor_id', () => {
    expect(CursorCodec.queryFingerprint(ROUTE, { ...QUERY, cursor_id: 'abc.def' })).toBe(FP);
    expect(CursorCodec.queryFingerprint(ROUTE, { ...QUERY, cursor_id: 'other' })).toBe(FP);
  });

  it('ignores key order', () => {
    expect(CursorCodec.queryFingerprint(ROUTE, { limit: 100, date: '2025-11-20', underlying_symbol: 'SPX' })).toBe(FP);
  });

  it('ignores parameters that are undefined', () => {
    expect(CursorCodec.queryFingerprint(ROUTE, { ...QUERY, side: undefined })).toBe(FP);
  });

  it('changes with any value, an added parameter, or the route', () => {
    const variants = [
      CursorCodec.queryFingerprint(ROUTE, { ...QUERY, limit: 101 }),
      CursorCodec.queryFingerprint(ROUTE, { ...QUERY, date: '2025-11-21' }),
      CursorCodec.queryFingerprint(ROUTE, { ...QUERY, side: ['ask'] }),
      CursorCodec.queryFingerprint(ROUTE, { ...QUERY, side: ['ask', 'bid'] }),
      CursorCodec.queryFingerprint('/v1/options/flow', QUERY),
    ];
    for (const v of variants) expect(v).not.toBe(FP);
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('is a short base64url string', () => {
    expect(FP).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('carries the read floor of its first page (db/replicas.ts) when there is one', () => {
    const codec = new CursorCodec(Buffer.alloc(32, 1));
    const cursor = codec.encode({ id: 5 }, 'fp', 1_000, '0/300');
    expect(codec.open(cursor, 'fp', 2_000)).toEqual({ position: { id: 5 }, floor: '0/300' });
    expect(codec.decode(cursor, 'fp', 2_000)).toEqual({ id: 5 });
    expect(codec.open(codec.encode({ id: 5 }, 'fp', 1_000), 'fp', 2_000)).toEqual({ position: { id: 5 }, floor: null });
  });
});
