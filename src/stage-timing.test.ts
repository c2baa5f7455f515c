import { describe, expect, it } from 'vitest';
import { serverTiming, stamp, startStamps, type Stamps } from './stage-timing.js';

describe('stage timing', () => {
  it('writes each stage as the time since the end of the one before, in ms', () => {
    const stamps: Stamps = ['start', 1_000_000n, 'context', 1_250_000n, 'statement', 4_250_500n];
    expect(serverTiming(stamps)).toBe('context;dur=0.250, statement;dur=3.001');
  });

  it('stamps nothing for a request not timed, and in order for one timed', () => {
    stamp(undefined, 'context');
    const stamps = startStamps();
    stamp(stamps, 'context');
    stamp(stamps, 'gate');
    expect(stamps.filter((s) => typeof s === 'string')).toEqual(['start', 'context', 'gate']);
    expect(serverTiming(stamps)).toMatch(/^context;dur=\d+\.\d{3}, gate;dur=\d+\.\d{3}$/);
  });
});
