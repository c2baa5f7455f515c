import { describe, expect, it } from 'vitest';
import { clockOffset, offsetClock } from './clock.js';

const WEDNESDAY_1045_ET = Date.parse('2026-11-18T10:45:00-05:00');
const SATURDAY = Date.parse('2026-11-21T09:00:00-05:00');

describe('the service clock', () => {
  it('is the wall clock itself when no start is set', () => {
    expect(clockOffset({ clockStart: null, clockOffsetMs: null }, SATURDAY)).toBe(0);
    expect(offsetClock(0)).toBe(Date.now);
  });

  it('starts at the set instant when applied, then runs at real speed', () => {
    let wall = SATURDAY;
    const offset = clockOffset({ clockStart: WEDNESDAY_1045_ET, clockOffsetMs: null }, wall);
    expect(offset).toBe(WEDNESDAY_1045_ET - SATURDAY);
    const clock = offsetClock(offset, () => wall);
    expect(clock()).toBe(WEDNESDAY_1045_ET);
    wall += 90_000;
    expect(clock()).toBe(WEDNESDAY_1045_ET + 90_000);
  });

  it("takes a primary's offset over the start: a worker forked later reads the primary's instant", () => {
    let wall = SATURDAY;
    const primaryOffset = clockOffset({ clockStart: WEDNESDAY_1045_ET, clockOffsetMs: null }, wall);
    const primary = offsetClock(primaryOffset, () => wall);
    wall += 5_000;
    // The worker's config has both: CLOCK_START inherited, CLOCK_OFFSET_MS handed by the primary.
    const workerOffset = clockOffset({ clockStart: WEDNESDAY_1045_ET, clockOffsetMs: primaryOffset }, wall);
    const worker = offsetClock(workerOffset, () => wall);
    expect(worker()).toBe(primary());
    expect(worker()).toBe(WEDNESDAY_1045_ET + 5_000);
    // Had it applied CLOCK_START itself, it would stand 5 s behind.
    expect(clockOffset({ clockStart: WEDNESDAY_1045_ET, clockOffsetMs: null }, wall)).toBe(primaryOffset - 5_000);
  });

  it('two clocks of one offset on the real wall clock agree to the millisecond', () => {
    const offset = clockOffset({ clockStart: WEDNESDAY_1045_ET, clockOffsetMs: null });
    const one = offsetClock(offset);
    const two = offsetClock(offset);
    for (let i = 0; i < 1000; i += 1) {
      const before = Date.now();
      const a = one();
      const b = two();
      const after = Date.now();
      expect(b - a).toBeGreaterThanOrEqual(0);
      expect(b - a).toBeLessThanOrEqual(after - before);
      expect(a - offset).toBeGreaterThanOrEqual(before);
    }
  });
});
