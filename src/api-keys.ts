/**
 * API key format and hashing. A key is `oads_<8 id chars>_<32 secret chars>`; its first part,
 * `oads_<id>`, is the visible prefix support can see. Only a SHA-256 of the whole key is stored
 * (keys carry 190 bits of randomness, so a slow hash adds nothing) and compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ID_ALPHABET, randomString } from './ids.js';

const KEY_PATTERN = /^(oads_[a-z0-9]{8})_([A-Za-z0-9]{32})$/;

export interface NewKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewKey {
  const prefix = `oads_${randomString(8, ID_ALPHABET)}`;
  const key = `${prefix}_${randomString(32, ID_ALPHABET + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The visible prefix of a well-formed key, or null when the string cannot be a key. */
export function keyPrefix(key: string): string | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] ?? null) : null;
}

export function keyMatches(key: string, storedHash: Buffer): boolean {
  const candidate = hashApiKey(key);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
