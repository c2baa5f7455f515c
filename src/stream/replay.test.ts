import { describe, expect, it } from 'vitest';
import { Replay, replayedInstant, replayStart, replayWindows, type ReplayStep } from './replay.js';

// 2026-11-20 (a Friday, EST): open 14:30Z, close 21:00Z; index options close 21:15Z, and an hour of late reports.
const OPEN = Date.parse('2026-11-20T14:30:00Z');
const CLOSE = Date.parse('2026-11-20T21:00:00Z');
const END = Date.parse('2026-11-20T22:15:00Z');
const SATURDAY_NOON = Date.parse('2026-11-21T17:00:00Z');

describe('replay windows', () => {
  const session = { open: 1000, end: 2000 };

  it('maps replayed time to the session, round after round, never more than a whole session at once', () => {
    expect(replayWindows(session, 0, 250)).toEqual([{ from: 1000, to: 1250, at: 1250 }]);
    expect(replayWindows(session, 750, 1000)).toEqual([{ from: 1750, to: 2000, at: 2000 }]);
    expect(replayWindows(session, 900, 1150)).toEqual([
      { from: 1900, to: 2000, at: 2000 },
      { from: 1000, to: 1150, at: 1150 },
    ]);
    expect(replayWindows(session, 0, 2500)).toEqual([
      { from: 1500, to: 2000, at: 2000 },
      { from: 1000, to: 1500, at: 1500 },
    ]);
    expect(replayWindows(session, 300, 300)).toEqual([]);
  });

  it('starts a stream where it stopped in the same replay, else at the step; a stream past the step waits', () => {
    const step: ReplayStep = { date: '2026-11-20', open: 1000, end: 2000, anchor: 5, speed: 2, from: 400, to: 600 };
    const at = (position: number, other: Partial<ReplayStep> = {}) => ({
      date: other.date ?? step.date,
      anchor: other.anchor ?? step.anchor,
      speed: other.speed ?? step.speed,
      at: position,
    });
    expect(replayStart(null, step)).toBe(400);
    expect(replayStart(at(400), step)).toBe(400);
    expect(replayStart(at(350), step)).toBe(350);
    expect(replayStart(at(450), step)).toBe(450);
    expect(replayStart(at(600), step)).toBeNull();
    expect(replayStart(at(650), step)).toBeNull();
    expect(replayStart(at(350, { date: '2026-11-19' }), step)).toBe(400);
    expect(replayStart(at(350, { anchor: 6 }), step)).toBe(400);
    expect(replayStart(at(350, { speed: 3 }), step)).toBe(400);
    // More than a session away: not a stream that moved between workers of one clock.
    expect(replayStart(at(-500), step)).toBe(400);
    expect(replayStart(at(1700), step)).toBe(400);
  });
});

describe('replay clock', () => {
  const started = (
    clock: () => number,
    options: { when?: 'always' | 'outside_hours'; anchor?: number } = {},
  ): { replay: Replay; steps: ReplayStep[] } => {
    const steps: ReplayStep[] = [];
    const replay = new Replay(
      { speed: 60, when: options.when ?? 'always', stepMs: 3_600_000, ...(options.anchor === undefined ? {} : { anchor: options.anchor }) },
      clock,
      (s) => void steps.push(s),
    );
    replay.start();
    return { replay, steps };
  };

  it('stands where the clock says since the replayed session closed: two replays started apart step alike', () => {
    let now = CLOSE + 1000;
    const one = started(() => now);
    now = CLOSE + 6000;
    const two = started(() => now);
    now = CLOSE + 7000;
    one.replay.step();
    two.replay.step();
    one.replay.stop();
    two.replay.stop();
    // From the start of each (60 replayed ms per ms since the close) to the same instant.
    expect(one.steps).toEqual([{ date: '2026-11-20', open: OPEN, end: END, anchor: CLOSE, speed: 60, from: 60_000, to: 420_000 }]);
    expect(two.steps).toEqual([{ date: '2026-11-20', open: OPEN, end: END, anchor: CLOSE, speed: 60, from: 360_000, to: 420_000 }]);
  });

  it('from a given anchor; nothing while a regular session is open when only outside market hours', () => {
    let now = Date.parse('2026-11-23T15:00:00Z');
    const during = started(() => now, { when: 'outside_hours' });
    now += 1000;
    during.replay.step();
    expect(during.steps).toEqual([]);
    expect(during.replay.active).toBe(false);
    during.replay.stop();

    now = Date.parse('2026-11-21T12:00:00Z');
    const anchored = started(() => now, { anchor: now });
    now += 500;
    anchored.replay.step();
    now += 500;
    anchored.replay.step();
    anchored.replay.stop();
    expect(anchored.steps.map((s) => [s.from, s.to])).toEqual([
      [0, 30_000],
      [30_000, 60_000],
    ]);
  });

  it('emits no step while the last is being handled: the next covers the span, so steps never queue up', async () => {
    let now = CLOSE + 1000;
    const steps: ReplayStep[] = [];
    let finish: () => void = () => undefined;
    const replay = new Replay(
      { speed: 60, when: 'always', stepMs: 3_600_000 },
      () => now,
      (s) => {
        steps.push(s);
        return new Promise<void>((resolve) => (finish = resolve));
      },
    );
    replay.start();
    now += 1000;
    replay.step();
    now += 1000;
    replay.step();
    now += 1000;
    replay.step();
    expect(steps.map((s) => [s.from, s.to])).toEqual([[60_000, 120_000]]);
    finish();
    await new Promise((r) => setImmediate(r));
    now += 1000;
    replay.step();
    replay.stop();
    expect(steps.map((s) => [s.from, s.to])).toEqual([
      [60_000, 120_000],
      [120_000, 300_000],
    ]);
  });
});

describe('replay position on the clock', () => {
  const session = { open: OPEN, end: END, anchor: CLOSE };
  /** Real ms per round of the session at speed 60: 7 h 45 min of session in 7.75 min. */
  const ROUND_MS = (END - OPEN) / 60;

  it('stands at the open when the session closes, then loops: at the end of the session it starts again at the open', () => {
    expect(replayedInstant(session, 60, CLOSE)).toBe(OPEN);
    expect(replayedInstant(session, 60, CLOSE + 1000)).toBe(OPEN + 60_000);
    expect(replayedInstant(session, 60, CLOSE + ROUND_MS - 1000)).toBe(END - 60_000);
    expect(replayedInstant(session, 60, CLOSE + ROUND_MS)).toBe(OPEN);
    expect(replayedInstant(session, 60, CLOSE + ROUND_MS + 1000)).toBe(OPEN + 60_000);
    // An evening, a weekend later: still round and round, at the same place of each round.
    for (const rounds of [2, 17, 400]) expect(replayedInstant(session, 60, CLOSE + rounds * ROUND_MS + 1000)).toBe(OPEN + 60_000);
  });

  it('steps across the end of the session send its last prints then the first again, all on the one clock, through a weekend', () => {
    let now = SATURDAY_NOON;
    const steps: ReplayStep[] = [];
    const replay = new Replay(
      { speed: 60, when: 'outside_hours', stepMs: 3_600_000 },
      () => now,
      (s) => void steps.push(s),
    );
    replay.start();
    // Saturday: the last completed session is still Friday's; take the clock to 1 s before a round ends.
    const round = Math.ceil((now - CLOSE) / ROUND_MS);
    now = CLOSE + round * ROUND_MS - 1000;
    replay.step();
    now += 2000;
    replay.step();
    expect(replay.active).toBe(true);
    replay.stop();
    const last = steps[steps.length - 1]!;
    expect(last.date).toBe('2026-11-20');
    expect(replayWindows(last, last.from, last.to)).toEqual([
      { from: END - 60_000, to: END, at: END },
      { from: OPEN, to: OPEN + 60_000, at: OPEN + 60_000 },
    ]);
    // Where the step ends is where the clock alone says the replay stands.
    expect(replayWindows(last, last.from, last.to).at(-1)?.at).toBe(replayedInstant(last, 60, now));
  });
});
