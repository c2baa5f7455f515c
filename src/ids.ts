/**
 * Every identifier the service makes: account, key and export ids (a kind prefix and random
 * characters drawn uniformly), and request ids (ULID-shaped, sortable by time, unique per process
 * without a random draw per request). API keys draw their characters here too (api-keys.ts).
 */
import { randomBytes } from 'node:crypto';

/** Lower-case letters and digits: the characters of ids and of a key's visible prefix. */
export const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function randomString(length: number, alphabet: string): string {
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

export function newId(kind: 'acct' | 'key' | 'exp', length = 12): string {
  return `${kind}_${randomString(length, ID_ALPHABET)}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function base32(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i += 1) {
    out = CROCKFORD[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out;
}

// 40 random bits per process and a counter: unique without a random draw per request.
const processTag = base32(randomBytes(5).readUIntBE(0, 5), 8);
let counter = 0;

/** A ULID-shaped id (26 characters: 10 of time, 8 of process, 8 of counter), prefixed `req_`. */
export function newRequestId(now: number): string {
  counter = (counter + 1) % 32 ** 8;
  return `req_${base32(now, 10)}${processTag}${base32(counter, 8)}`;
}
