import { describe, expect, it } from 'vitest';
import { ConnectionWindow } from './connection-window.js';

describe('ConnectionWindow', () => {
  it('admits 20 connections per window, then cools the account down for the cooldown', () => {
    const window = new ConnectionWindow({ connectionsPerWindow: 20, connectionWindowMs: 600_000, cooldownMs: 600_000 });
    for (let i = 0; i < 20; i += 1) expect(window.admit('a', 1_000 + i)).toEqual({ admitted: true });
    expect(window.admit('b', 1_100)).toEqual({ admitted: true });
    expect(window.admit('a', 2_000)).toEqual({ admitted: false, retryAfterMs: 600_000 });
    // Still cooling down well after the window of the first ones has passed.
    expect(window.admit('a', 2_000 + 599_999)).toEqual({ admitted: false, retryAfterMs: 1 });
    expect(window.admit('a', 2_000 + 600_000)).toEqual({ admitted: true });
  });

  it('lets connections back in as old ones leave the window', () => {
    const window = new ConnectionWindow({ connectionsPerWindow: 2, connectionWindowMs: 1_000, cooldownMs: 5_000 });
    expect(window.admit('a', 0).admitted).toBe(true);
    expect(window.admit('a', 500).admitted).toBe(true);
    expect(window.admit('a', 1_001).admitted).toBe(true);
  });
});
