import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, keyMatches, keyPrefix } from './api-keys.js';

const KEY_SHAPE = /^oads_[a-z0-9]{8}_[A-Za-z0-9]{32}$/;
const SAMPLE = 'oads_ab12cd34_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('generateApiKey', () => {
  it('has the shape oads_<8 lowercase/digits>_<32 alphanumerics>', () => {
    for (let i = 0; i < 50; i += 1) {
      const { key } = generateApiKey();
      expect(key).toMatch(KEY_SHAPE);
      expect(key).toHaveLength(5 + 8 + 1 + 32);
    }
  });

  it('returns the visible prefix of the key and the SHA-256 of the whole key', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(prefix).toMatch(/^oads_[a-z0-9]{8}$/);
    expect(key.startsWith(`${prefix}_`)).toBe(true);
    expect(keyPrefix(key)).toBe(prefix);
    expect(hash.equals(createHash('sha256').update(key).digest())).toBe(true);
  });

  it('generates different keys and prefixes each time', () => {
    const keys = Array.from({ length: 100 }, () => generateApiKey());
    expect(new Set(keys.map((k) => k.key)).size).toBe(100);
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(100);
    expect(new Set(keys.map((k) => k.hash.toString('hex'))).size).toBe(100);
  });

  it('uses both letter cases and digits in the secret part', () => {
    const secrets = Array.from({ length: 50 }, () => generateApiKey().key.slice(14)).join('');
    expect(secrets).toMatch(/[a-z]/);
    expect(secrets).toMatch(/[A-Z]/);
    expect(secrets).toMatch(/[0-9]/);
  });
});

describe('keyPrefix', () => {
  it('extracts oads_<id> from a well-formed key', () => {
    expect(keyPrefix(SAMPLE)).toBe('oads_ab12cd34');
  });

  it('is null for strings that cannot be keys', () => {
    const bad = [
      '',
      'oads_ab12cd34',
      'oads_ab12cd34_',
      'oads_AB12CD34_AbCdEfGhIjKlMnOpQrStUvWxYz012345', // upper case in the id
      'oads_ab12cd3_AbCdEfGhIjKlMnOpQrStUvWxYz012345', // 7 id chars
      'oads_ab12cd345_AbCdEfGhIjKlMnOpQrStUvWxYz012345', // 9 id chars
      'oads_ab12cd34_AbCdEfGhIjKlMnOpQrStUvWxYz01234', // 31 secret chars
      'oads_ab12cd34_AbCdEfGhIjKlMnOpQrStUvWxYz0123456', // 33 secret chars
      'oads_ab12cd34_AbCdEfGhIjKlMnOpQrStUvWxYz01234-', // non-alphanumeric
      'xads_ab12cd34_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      ` ${SAMPLE}`,
      `${SAMPLE}\n`,
      `Bearer ${SAMPLE}`,
    ];
    for (const candidate of bad) expect(keyPrefix(candidate), candidate).toBeNull();
  });
});

describe('hashApiKey and keyMatches', () => {
  it('hashes with SHA-256 of the UTF-8 key', () => {
    const expected = createHash('sha256').update(SAMPLE, 'utf8').digest();
    const hash = hashApiKey(SAMPLE);
    expect(hash).toBeInstanceOf(Buffer);
    expect(hash).toHaveLength(32);
    expect(hash.toString('hex')).toBe(expected.toString('hex'));
  });

  it('matches only the exact key', () => {
    const stored = hashApiKey(SAMPLE);
    expect(keyMatches(SAMPLE, stored)).toBe(true);
    expect(keyMatches(SAMPLE.slice(0, -1) + '6', stored)).toBe(false);
    expect(keyMatches(SAMPLE.toLowerCase(), stored)).toBe(false);
    expect(keyMatches('', stored)).toBe(false);
  });

  it('returns false (does not throw) for a stored hash of another length', () => {
    expect(keyMatches(SAMPLE, Buffer.alloc(0))).toBe(false);
    expect(keyMatches(SAMPLE, hashApiKey(SAMPLE).subarray(0, 16))).toBe(false);
  });

  it('round-trips with a generated key', () => {
    const { key, hash } = generateApiKey();
    expect(keyMatches(key, hash)).toBe(true);
    expect(keyMatches(generateApiKey().key, hash)).toBe(false);
  });
});
