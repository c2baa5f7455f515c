/**
 * Whole simulations of the week beside the default-scale one of simulator.test.ts: the same seed
 * twice and another (determinism), a holiday week and a session in progress. In a file of their
 * own so that the unit tier runs them beside that file's simulation rather than after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { optionsOvernightWindow, marketSessions } from '../../analytics/sessions.js';
import { NOW, readCsv, tempDir, THANKSGIVING_NOW, WEEK } from './simulator.fixtures.js';
import { simulateMarket, writeSimulatedMarket } from './index.js';

/** A small scale for the tests that only need the shape of the data. */
const SMALL = { rthEvents: 2500, gthEvents: 60, curbEvents: 40, goldenSweeps: 2 };

const dateOfFile = (file: string): string => /(\d{4}-\d{2}-\d{2})\.csv\.gz$/.exec(file)![1]!;

describe('determinism', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  async function run(seed: number, quotes = true): Promise<Map<string, Buffer>> {
    const dir = tempDir(`seed${seed}`);
    dirs.push(dir);
    // Chain snapshots of one date: enough to show them deterministic, at a fifth of the lines.
    // Without quotes (the prints and bars are the same without them), for the seed whose prints are compared only.
    const dates = quotes ? { snapshotDates: ['2026-11-18'] } : { snapshotDates: [], quoteDates: [] };
    const s = await simulateMarket({ outDir: dir, seed, scale: 'default', now: NOW, ...dates }, SMALL);
    const files = new Map<string, Buffer>();
    for (const list of Object.values(s.files)) for (const f of list) files.set(path.basename(f), fs.readFileSync(f));
    return files;
  }

  it('writes byte-identical files for the same seed and now, and different prints for another seed', async () => {
    const a = await run(11);
    const b = await run(11);
    const c = await run(12, false);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
    expect(a.get('contracts.csv.gz')!.equals(c.get('contracts.csv.gz')!)).toBe(true);
    for (const date of WEEK) {
      expect(a.get(`prints-${date}.csv.gz`)!.equals(c.get(`prints-${date}.csv.gz`)!)).toBe(false);
      expect(a.get(`underlying_bars-${date}.csv.gz`)!.equals(c.get(`underlying_bars-${date}.csv.gz`)!)).toBe(false);
    }
  }, 120_000);
});

describe('holiday weeks and sessions in progress', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('simulates the Thanksgiving week: no Thursday, a short Friday without a curb', async () => {
    const dir = tempDir('thanksgiving');
    dirs.push(dir);
    const files = await writeSimulatedMarket({
      outDir: dir,
      seed: 3,
      scale: 'default',
      now: THANKSGIVING_NOW,
      snapshotDates: [],
      quoteDates: [],
    });
    expect(files.prints!.map(dateOfFile)).toEqual(['2026-11-20', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27']);
    const friday = readCsv(files.prints!.find((f) => f.includes('2026-11-27'))!).rows;
    const regular = marketSessions('2026-11-27', ['options']).find((s) => s.session === 'regular')!;
    expect(regular.end_time).toBe(Date.parse('2026-11-27T18:15:00Z')); // 13:15 ET
    expect(friday.every((r) => Number(r.timestamp) < regular.end_time)).toBe(true);
    // The Friday's GTH opened on Thanksgiving evening.
    const gth = optionsOvernightWindow('2026-11-27')!;
    expect(friday.some((r) => Number(r.timestamp) < gth.end_time && Number(r.timestamp) >= gth.start_time)).toBe(true);
    // The Friday after Thanksgiving trades (early close), so its weeklies expire then; no Thursday series.
    const symbols = new Set(readCsv(files.contracts![0]!).rows.map((r) => r.option_symbol!));
    expect([...symbols].some((s) => s.startsWith('AAPL  261127'))).toBe(true);
    expect([...symbols].some((s) => s.startsWith('SPXW  261126'))).toBe(false);
  }, 120_000);

  it('writes the current session only up to now', async () => {
    const dir = tempDir('in-progress');
    dirs.push(dir);
    const now = Date.parse('2026-11-18T17:00:00Z'); // 12:00 ET
    // Quotes of the session in progress only: the one date whose quotes are checked.
    const s = await simulateMarket(
      { outDir: dir, seed: 5, scale: 'default', now, snapshotDates: ['2026-11-18'], quoteDates: ['2026-11-18'] },
      SMALL,
    );
    expect(s.dates[s.dates.length - 1]).toBe('2026-11-18');
    const today = readCsv(s.files.prints!.find((f) => f.includes('2026-11-18'))!).rows;
    expect(today.length).toBeGreaterThan(100);
    expect(today.every((r) => Number(r.timestamp) < now)).toBe(true);
    const bars = readCsv(s.files.underlying_bars!.find((f) => f.includes('2026-11-18'))!).rows;
    expect(bars.every((r) => Number(r.timestamp) + 60_000 <= now)).toBe(true);
    expect(bars.some((r) => Number(r.timestamp) + 60_000 === now)).toBe(true);
    // Quotes (chain snapshots included) only of whole minutes before now; the snapshot of 11:45 ET
    // is the last, the close's not yet written.
    const quotes = readCsv(s.files.quotes!.find((f) => f.includes('2026-11-18'))!).rows;
    expect(quotes.every((r) => Number(r.timestamp) + 60_000 <= now)).toBe(true);
    const perMinute = new Map<number, number>();
    for (const r of quotes) perMinute.set(Number(r.timestamp), (perMinute.get(Number(r.timestamp)) ?? 0) + 1);
    const snapshots = [...perMinute].filter(([, n]) => n > 2000).map(([t]) => new Date(t).toISOString());
    expect(snapshots.at(-1)).toBe('2026-11-18T16:45:00.000Z');
    expect(snapshots.filter((t) => t >= '2026-11-18T14:30')).toHaveLength(10); // 09:30 to 11:45 ET
  }, 120_000);
});
