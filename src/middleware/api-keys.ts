/**
 * API key format and hashing. A key is `oads_<8 id chars>_<32 secret chars>`; its first part,
 * `oads_<id>`, is the visible prefix support can see. Only a SHA-256 of the whole key is stored
 * (keys carry 190 bits of randomness, so a slow hash adds nothing) and compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^(oads_[a-z0-9]{8})_([A-Za-z0-9]{32})$/;

function randomString(length: number, alphabet: string): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character uniform.
  const limit = 256 - (256 % alphabet.length);
  for (const byte of bytes) {
    if (byte < limit) out += alphabet[byte % alphabet.length];
    if (out.length === length) return out;
  }
  return out + randomString(length - out.length, alphabet);
}

export interface NewKey {
  key: string;
  prefix: string;
  hash: Buffer;
}

export function generateApiKey(): NewKey {
  const prefix = `oads_${randomString(8, ALPHABET)}`;
  const key = `${prefix}_${randomString(32, ALPHABET + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`;
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

export function newId(kind: 'acct' | 'key' | 'exp', length = 12): string {
  return `${kind}_${randomString(length, ALPHABET)}`;
}
