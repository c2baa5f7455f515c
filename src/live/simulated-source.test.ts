import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datesThrough, simulatedDates, simulateMarket } from '../ingest/simulator/index.js';
import { dueMinutes, optionsWindows, tradingDateAt } from './runner.js';
import { SimulatedLiveSource } from './simulated-source.js';
import type { LiveMinute } from './source.js';

/** The small scale of test/support/market.ts. */
const SMALL = { rthEvents: 1500, gthEvents: 60, curbEvents: 30, goldenSweeps: 2 };
const DATE = '2026-11-19';
/** Thursday 2026-11-19, 09:45 ET: the overnight window and 15 regular minutes are over. */
const NOW = Date.parse('2026-11-19T14:45:00Z');
const MINUTE = 60_000;

function lines(file: string): string[] {
  return gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').slice(1, -1);
}

/** A file's lines by the minute of their timestamp (the second field of each kind's layout). */
function byMinute(file: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const line of lines(file)) {
    const minute = Math.floor(Number(line.split(',')[1]) / MINUTE) * MINUTE;
    const rows = out.get(minute);
    if (rows === undefined) out.set(minute, [line]);
    else rows.push(line);
  }
  return out;
}

describe('the simulated live source', () => {
  let dir: string;
  let files: Record<string, string>;
  let live: LiveMinute[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-live-'));
    // The day file of the date as a first start at NOW writes it (the other dates' quotes left out).
    const summary = await simulateMarket(
      { outDir: dir, seed: 11, scale: 'default', now: NOW, snapshotDates: [DATE], quoteDates: [DATE] },
      SMALL,
    );
    const pick = (kind: string): string => summary.files[kind as 'prints']!.find((f) => f.includes(DATE) || kind === 'contracts')!;
    files = Object.fromEntries(
      [
        'contracts',
        'open_interest',
        'underlying_bars',
        'quotes',
        'prints',
        'futures_definitions',
        'futures_trades',
        'futures_bars',
        'futures_statistics',
      ].map((k) => [k, pick(k)]),
    );
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL });
    live = await source.minutes(DATE, 0, NOW);
  }, 300_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives every minute of the date up to the clock, in order, as the calendar opens them', () => {
    const due = dueMinutes(DATE, 0, NOW);
    expect(live.map((m) => m.start)).toEqual(due);
    // The overnight window (20:15 ET the evening before to 09:25 ET), then 15 regular minutes.
    expect(due.length).toBe(13 * 60 + 10 + 15);
    expect(live[0]!.session).toBe('overnight');
    expect(live[live.length - 1]!.session).toBe('regular');
  });

  it('gives, minute by minute, exactly the rows of the day file of the date', () => {
    for (const [kind, key] of [
      ['underlying_bars', 'bars'],
      ['quotes', 'quotes'],
      ['prints', 'prints'],
    ] as const) {
      const file = byMinute(files[kind]!);
      let rows = 0;
      for (const m of live) {
        expect(m[key], `${kind} at ${new Date(m.start).toISOString()}`).toEqual(file.get(m.start) ?? []);
        rows += m[key].length;
      }
      expect(rows, kind).toBe(lines(files[kind]!).length);
      expect(rows, kind).toBeGreaterThan(100);
    }
    // A chain snapshot at the regular open is among them.
    const open = live.find((m) => m.start === Date.parse('2026-11-19T14:30:00Z'))!;
    expect(open.quotes.length).toBeGreaterThan(1000);
  }, 120_000);

  it('gives the futures rows of the day file, each with the first options minute ending after it is known', () => {
    const windows = optionsWindows(DATE);
    for (const [kind, key] of [
      ['futures_trades', 'futuresTrades'],
      ['futures_bars', 'futuresBars'],
    ] as const) {
      const file = lines(files[kind]!);
      expect(
        live.flatMap((m) => m[key] ?? []),
        kind,
      ).toEqual(file);
      expect(file.length, kind).toBeGreaterThan(500);
      for (const m of live) {
        for (const line of m[key] ?? []) {
          // A row is known at its minute's end: in the minute, or in a Globex minute since the options minute before.
          const end = Math.floor(Number(line.split(',')[1]) / MINUTE) * MINUTE + MINUTE;
          expect(end).toBeLessThanOrEqual(m.start + MINUTE);
          const previous = live[live.indexOf(m) - 1];
          if (previous !== undefined) expect(end).toBeGreaterThan(previous.start + MINUTE);
        }
      }
    }
    // The Globex evening from 18:00 ET, before the options' overnight window opens at 20:15, comes with its first minute.
    const first = live[0]!;
    expect(first.start).toBe(windows[0]!.start);
    const evening = (first.futuresTrades ?? []).map((l) => Number(l.split(',')[1]));
    expect(Math.min(...evening)).toBeLessThan(Date.parse('2026-11-18T23:30:00Z'));
    // No statistic is published by 09:45 ET: the day file's is empty, and so are the minutes'.
    expect(live.flatMap((m) => m.futuresStatistics ?? [])).toEqual(lines(files.futures_statistics!));
  });

  it("gives the date's contracts and open interest as the day files hold them", async () => {
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL });
    const day = await source.day(DATE);
    expect(day.contracts).toEqual(lines(files.contracts!));
    expect(day.openInterest).toEqual(lines(files.open_interest!));
    expect(day.futuresDefinitions).toEqual(lines(files.futures_definitions!));
    expect(day.futuresDefinitions).toHaveLength(6);
  }, 60_000);

  it('is deterministic for a seed and a clock: the same minutes from a fresh source, other figures for another seed', async () => {
    const from = Date.parse('2026-11-19T14:33:00Z');
    const to = Date.parse('2026-11-19T14:36:00Z');
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL });
    const later = await source.minutes(DATE, from, to);
    expect(later.map((m) => m.start)).toEqual([from, from + MINUTE, from + 2 * MINUTE]);
    expect(later).toEqual(live.filter((m) => m.start >= from && m.start + MINUTE <= to));
    // (Going back to an earlier minute is in test/integration/live-market.test.ts.)
    const other = await new SimulatedLiveSource({ seed: 12, scale: 'default', overrides: SMALL }).day(DATE);
    expect(other.contracts).toEqual(lines(files.contracts!));
    expect(other.openInterest).not.toEqual(lines(files.open_interest!));
  }, 120_000);
});

describe('the calendar of the live market', () => {
  const at = (iso: string): number => Date.parse(iso);

  it('opens the overnight window, the regular session and the curb of a trading date, and nothing between', () => {
    expect(tradingDateAt(at('2026-11-19T01:15:00Z'))).toBe(DATE); // 20:15 ET the evening before
    expect(tradingDateAt(at('2026-11-19T01:14:59Z'))).toBeNull();
    expect(tradingDateAt(at('2026-11-19T14:27:00Z'))).toBe(DATE); // 09:27 ET, between the windows
    expect(tradingDateAt(at('2026-11-19T21:59:59Z'))).toBe(DATE); // 16:59:59 ET, the curb
    expect(tradingDateAt(at('2026-11-19T22:00:00Z'))).toBeNull(); // 17:00 ET
    // No minute is due in the pause between the overnight window and the open.
    expect(dueMinutes(DATE, at('2026-11-19T14:24:00Z'), at('2026-11-19T14:32:00Z'))).toEqual([
      at('2026-11-19T14:24:00Z'),
      at('2026-11-19T14:30:00Z'),
      at('2026-11-19T14:31:00Z'),
    ]);
    // Minutes of the curb end at 17:00 ET.
    expect(dueMinutes(DATE, at('2026-11-19T21:58:00Z'), at('2026-11-19T23:00:00Z'))).toEqual([
      at('2026-11-19T21:58:00Z'),
      at('2026-11-19T21:59:00Z'),
    ]);
  });

  it('opens nothing on a holiday or a weekend, and no curb on an early-close day', () => {
    expect(optionsWindows('2026-11-26')).toEqual([]); // Thanksgiving
    expect(tradingDateAt(at('2026-11-26T17:00:00Z'))).toBeNull();
    expect(tradingDateAt(at('2026-11-21T17:00:00Z'))).toBeNull(); // Saturday
    // Friday after Thanksgiving: the overnight window opens Thanksgiving evening; options close 13:15 ET.
    expect(tradingDateAt(at('2026-11-27T01:30:00Z'))).toBe('2026-11-27');
    const windows = optionsWindows('2026-11-27');
    expect(windows[windows.length - 1]!.end).toBe(at('2026-11-27T18:15:00Z'));
    expect(tradingDateAt(at('2026-11-27T18:15:00Z'))).toBeNull();
    // Monday's overnight window opens on Sunday evening.
    expect(tradingDateAt(at('2026-11-23T01:30:00Z'))).toBe('2026-11-23');
  });

  it('simulates a date in progress with the same dates all day, its curb included', () => {
    const dates = datesThrough(DATE);
    expect(dates).toEqual(['2026-11-12', '2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', DATE]);
    for (const iso of ['2026-11-19T01:16:00Z', '2026-11-19T15:00:00Z', '2026-11-19T21:05:00Z', '2026-11-19T21:45:00Z'])
      expect(simulatedDates(at(iso)), iso).toEqual(dates);
    // Once the curb is over the date is one of the five completed sessions.
    expect(simulatedDates(at('2026-11-19T23:00:00Z'))).toEqual([...dates.slice(1)]);
  });
});
