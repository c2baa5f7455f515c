import { describe, expect, it } from 'vitest';
import { newId, newRequestId } from './ids.js';

describe('newId', () => {
  it('is <kind>_ followed by 12 lowercase letters or digits by default', () => {
    expect(newId('acct')).toMatch(/^acct_[a-z0-9]{12}$/);
    expect(newId('key')).toMatch(/^key_[a-z0-9]{12}$/);
    expect(newId('exp')).toMatch(/^exp_[a-z0-9]{12}$/);
  });

  it('takes a length (an export id of 20 matches the contract pattern)', () => {
    expect(newId('exp', 20)).toMatch(/^exp_[a-z0-9]{20}$/);
    expect(newId('acct', 1)).toMatch(/^acct_[a-z0-9]$/);
    expect(newId('key', 64)).toMatch(/^key_[a-z0-9]{64}$/);
  });

  it('differs between calls', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newId('acct')));
    expect(ids.size).toBe(200);
  });
});

describe('newRequestId', () => {
  it('is req_ and 26 Crockford base-32 characters, time first', () => {
    const id = newRequestId(Date.parse('2026-11-25T10:00:00Z'));
    expect(id).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('sorts by time and differs within one millisecond', () => {
    const now = Date.parse('2026-11-25T10:00:00Z');
    const ids = Array.from({ length: 100 }, () => newRequestId(now));
    expect(new Set(ids).size).toBe(100);
    expect(newRequestId(now + 1).slice(0, 14) > ids[0]!.slice(0, 14)).toBe(true);
    expect(ids.every((id) => id.slice(0, 14) === ids[0]!.slice(0, 14))).toBe(true);
  });
});
