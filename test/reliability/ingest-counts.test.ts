/**
 * Ingest counts add up (issue #20, section 6): every record a prints file gives is counted in
 * exactly one named outcome of the load (loaded, rejected, duplicates, cancels, cancels_of_stored,
 * cancels_already_applied, cancels_unmatched), the command's summary names each, and the store
 * agrees with the counts (rows written, prints marked cancelled). Written files exercise each path
 * of a cancel record (a print of the file still held or already output, a stored print, one its
 * own earlier load cancelled, none), repeats in the file and of stored prints, rejects, and files
 * loaded twice; a simulated day (src/ingest/simulator, small scale) is loaded in two chronological
 * parts, the second read by two readers, and checked against the file's own lines. Quote files,
 * where one update a contract and minute is kept, count the others as superseded.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrintCopy } from '../../src/db/bulk-copy.js';
import { seedOptionRoots } from '../../src/db/option-contracts.js';
import { countPrints } from '../../src/db/stored-prints.js';
import { LoadCountError } from '../../src/ingest/load-counts.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { loadPrintsFile } from '../../src/ingest/prints.js';
import type { MarketLoadResult } from '../../src/ingest/source.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import { MARKET_NOW, SMALL_MARKET } from '../support/market.js';
import { nodeArgsOf } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';

const HEADER =
  'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';
const SPY = 'SPY   261120P00650000';
const SPXW = 'SPXW  261120C06600000';
/** Wednesday 2026-11-18, 09:30 ET. */
const T = Date.parse('2026-11-18T14:30:00Z');
/** OPRA's cancel conditions (CANC, CNCL, CNCO, CNOL): a record retracting an earlier print. */
const CANCEL_CODES = new Set(['201', '203', '205', '207']);

/** A print line: a regular sale (209) at the quote 2 / 2.5 unless told otherwise. */
const print = (symbol: string, ms: number, sequence: number, price: number, size: number, exchange = 302, condition = 209): string =>
  `${symbol},${T + ms},${sequence},${price},${size},${exchange},${condition},,,2,2.5,${T + ms - 500}`;
/** A cancel record (201 CANC) of the print of that contract, exchange, price and size before it. */
const cancel = (symbol: string, ms: number, sequence: number, price: number, size: number, exchange = 302): string =>
  `${symbol},${T + ms},${sequence},${price},${size},${exchange},201,,,,,`;

/** The outcomes, summed here from the result's fields rather than by the code under test. */
function outcomesSum(r: MarketLoadResult): number {
  return (
    r.loaded +
    r.rejected.length +
    r.duplicates +
    r.skipped +
    r.superseded +
    r.cancels +
    r.cancelsOfStored +
    r.cancelsAlreadyApplied +
    r.cancelsUnmatched
  );
}

async function storedCounts(service: TestService): Promise<{ rows: number; cancelled: number }> {
  const result = await sql<{
    rows: number;
    cancelled: number;
  }>`select count(*)::int as rows, (count(*) filter (where cancelled))::int as cancelled from prints`.execute(service.database.admin);
  return result.rows[0] ?? { rows: -1, cancelled: -1 };
}

describe('a prints file in two parts, with cancels, repeats and rejects, each loaded twice', () => {
  let service: TestService;
  let dir: string;
  const write = (name: string, lines: string[]): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, [HEADER, ...lines].join('\n') + '\n');
    return file;
  };
  let morning: string;
  let later: string;

  beforeAll(async () => {
    service = await startTestService();
    await seedOptionRoots(service.database.admin);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-counts-'));
    morning = write('part-1.csv', [
      print(SPY, 0, 1, 2, 10),
      print(SPY, 60_000, 2, 2.1, 20),
      // A repeat of the line before: same contract, time and sequence.
      print(SPY, 60_000, 2, 2.1, 20),
      // Cancels sequence 2 while it is still held (its group not closed): output marked cancelled.
      cancel(SPY, 60_500, 3, 2.1, 20),
      print(SPXW, 120_000, 4, 5.1, 5),
      print(SPY, 180_000, 5, 2.2, 7, 313),
      print(SPY, 240_000, 6, 2.3, 8),
      // Cancels sequence 5, output a minute before: cancelled by id after the COPY.
      cancel(SPY, 241_000, 7, 2.2, 7, 313),
      // Matches no print of the file, and the date has none stored.
      cancel(SPY, 242_000, 8, 9.99, 1),
      print(SPY, 243_000, 9, -1, 4),
      `${SPY},${T},1,2`,
      print('SPY  X', 244_000, 11, 2, 4),
    ]);
    later = write('part-2.csv', [
      // Repeats stored sequence 1: written again, it finds the row stored.
      print(SPY, 0, 1, 2, 10),
      print(SPY, 300_000, 12, 2, 10),
      cancel(SPY, 300_400, 13, 2, 10),
      // Cancels stored sequence 6 (the same file's sequence 12 is not alike): a cancel of a stored print.
      cancel(SPY, 301_000, 14, 2.3, 8),
      cancel(SPY, 302_000, 15, 7.77, 3),
    ]);
  });
  afterAll(async () => service.stop());

  it("names every record's outcome in the command's summary: prints, a repeat, three rejects, two cancels of the file's prints, one unmatched", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgsOf('src/cli/ingest.ts'), 'prints', morning], {
      env: { ...process.env, DATABASE_URL: service.database.connectionString, LOG_LEVEL: 'silent' },
    });
    expect(stdout).toMatch(
      new RegExp(
        `^${morning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: read 12, loaded 5, rejected 3, duplicates 1, cancels 2, cancels_of_stored 0, ` +
          `cancels_already_applied 0, cancels_unmatched 1 in \\d+\\.\\d s \\(rejects in .*part-1\\.csv\\.rejects\\.csv\\)\\n$`,
      ),
    );
    expect(fs.readFileSync(`${morning}.rejects.csv`, 'utf8').trim().split('\n')).toHaveLength(4);
    expect(await storedCounts(service)).toEqual({ rows: 5, cancelled: 2 });
  });

  it('with --json gives the counts as one JSON object on stdout, and draws no progress off a terminal', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [...nodeArgsOf('src/cli/ingest.ts'), 'prints', '--json', morning],
      {
        env: { ...process.env, DATABASE_URL: service.database.connectionString, LOG_LEVEL: 'silent' },
      },
    );
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const summary = JSON.parse(stdout) as {
      kind: string;
      files: Record<string, unknown>[];
      totals: Record<string, number>;
      error?: string;
    };
    // Loaded by the command above: this time all 12 records are duplicates of that load.
    expect(summary.kind).toBe('prints');
    expect(summary.error).toBeUndefined();
    expect(summary.files).toHaveLength(1);
    expect(summary.files[0]).toMatchObject({
      file: morning,
      alreadyLoaded: true,
      read: 12,
      loaded: 0,
      duplicates: 12,
      rejected: 0,
      rejects_file: null,
    });
    expect(summary.totals).toMatchObject({ files: 1, read: 12, loaded: 0, rejected: 0 });
  });

  it('counts a later file of the date: a repeat of a stored print, a cancel of its own print, of a stored print, and one unmatched', async () => {
    const result = await loadMarketFile(service.database.admin, 'prints', later);
    expect(result).toMatchObject({
      read: 5,
      loaded: 1,
      rejected: [],
      duplicates: 1,
      cancels: 1,
      cancelsOfStored: 1,
      cancelsAlreadyApplied: 0,
      cancelsUnmatched: 1,
    });
    expect(outcomesSum(result)).toBe(result.read);
    expect(await storedCounts(service)).toEqual({ rows: 6, cancelled: 4 });
  });

  it('counts each file loaded again: unforced, all duplicates of its load; forced, its cancel of a stored print already applied', async () => {
    const db = service.database.admin;
    const again = await loadMarketFile(db, 'prints', later);
    expect(again).toMatchObject({ alreadyLoaded: true, read: 5, loaded: 0, duplicates: 5 });
    expect(outcomesSum(again)).toBe(again.read);

    const forced = await loadMarketFile(db, 'prints', later, { force: true });
    expect(forced).toMatchObject({
      read: 5,
      loaded: 0,
      duplicates: 2,
      cancels: 1,
      cancelsOfStored: 0,
      cancelsAlreadyApplied: 1,
      cancelsUnmatched: 1,
    });
    expect(outcomesSum(forced)).toBe(forced.read);

    // The first file, forced, onto its own stored prints: its cancels find its prints again.
    const first = await loadMarketFile(db, 'prints', morning, { force: true });
    expect(first).toMatchObject({
      read: 12,
      loaded: 0,
      duplicates: 6,
      cancels: 2,
      cancelsOfStored: 0,
      cancelsAlreadyApplied: 0,
      cancelsUnmatched: 1,
    });
    expect(first.rejected).toHaveLength(3);
    expect(outcomesSum(first)).toBe(first.read);
    expect(await storedCounts(service)).toEqual({ rows: 6, cancelled: 4 });
  });

  it('fails a load whose counts do not add up, writing nothing: a COPY into a new date that stores none of its rows', async () => {
    const db = service.database.admin;
    const dayBefore = write('day-before.csv', [
      print(SPY, -86_400_000, 1, 2, 10),
      print(SPY, -86_340_000, 2, 2.1, 20),
      print(SPXW, -86_280_000, 3, 5.1, 5),
    ]);
    // Sent three rows, it reports none stored: a new date's COPY has no stored print to repeat, so
    // the three are unexplained (counted as duplicates, they would have passed unseen).
    const losing: PrintCopy = { write: () => true, drained: async () => undefined, end: async () => 0, abort: async () => undefined };
    const failed = loadPrintsFile(db, dayBefore, { output: async () => losing });
    await expect(failed).rejects.toThrow(LoadCountError);
    await expect(failed).rejects.toThrow(
      /: the load's counts do not add up, nothing was written: read 3, loaded 0, .* \(the outcomes sum to 0: 3 records unexplained\)$/,
    );
    expect(await countPrints(db, '2026-11-17')).toBe(0);
    // Not in the ledger: the file loads when asked again.
    expect(await loadMarketFile(db, 'prints', dayBefore)).toMatchObject({ alreadyLoaded: false, read: 3, loaded: 3 });
  });
});

describe('a simulated day loaded in two parts', () => {
  let service: TestService;
  let dir: string;
  /** The day's data lines, and how many are cancel records. */
  let lines: string[];
  let cancelLines: number;
  let first: string;
  let second: string;

  beforeAll(async () => {
    service = await startTestService();
    await seedOptionRoots(service.database.admin);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-counts-sim-'));
    const summary = await simulateMarket(
      // Only the prints file is read: no quotes or chain snapshots (the prints are the same without them).
      { outDir: dir, seed: 11, scale: 'default', now: MARKET_NOW, snapshotDates: [], quoteDates: [] },
      { ...SMALL_MARKET, rthEvents: 3000 },
    );
    const file = summary.files.prints?.find((f) => path.basename(f).includes('2026-11-20'));
    if (file === undefined) throw new Error('the simulator wrote no prints file of 2026-11-20');
    const [header = '', ...rest] = gunzipSync(fs.readFileSync(file)).toString('utf8').trim().split('\n');
    lines = rest;
    const columns = header.split(',');
    const [symbol, ts, price, size, exchange, condition] = [
      'option_symbol',
      'timestamp',
      'price',
      'size',
      'exchange_code',
      'condition_code',
    ].map((c) => columns.indexOf(c));
    const fields = lines.map((l) => l.split(','));
    const isCancel = (f: string[]): boolean => CANCEL_CODES.has(f[condition ?? -1] ?? '');
    cancelLines = fields.filter(isCancel).length;
    // The parts split at the cancel record nearest the middle of the day whose print came less than
    // ten minutes before it (the classifier's look-back): in the second part, it cancels a stored print.
    const splits = fields.flatMap((c, k) =>
      isCancel(c) &&
      fields
        .slice(0, k)
        .some(
          (p) =>
            !isCancel(p) &&
            [symbol, price, size, exchange].every((i) => p[i ?? -1] === c[i ?? -1]) &&
            Number(c[ts ?? -1]) - Number(p[ts ?? -1]) <= 600_000,
        )
        ? [k]
        : [],
    );
    const at = splits.reduce((best, k) => (Math.abs(k - fields.length / 2) < Math.abs(best - fields.length / 2) ? k : best), -1);
    if (at <= 0) throw new Error('the simulated day has no cancel record of a print shortly before it');
    first = path.join(dir, 'day-part-1.csv');
    second = path.join(dir, 'day-part-2.csv');
    fs.writeFileSync(first, [header, ...lines.slice(0, at)].join('\n') + '\n');
    fs.writeFileSync(second, [header, ...lines.slice(at)].join('\n') + '\n');
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('accounts for every line of the day, and the store holds what the counts say', async () => {
    const db = service.database.admin;
    // The first part in one pass, the second (most of the day) by two readers, its second half in a worker.
    expect(fs.statSync(second).size).toBeGreaterThan(1 << 17);
    const one = await loadPrintsFile(db, first);
    const two = await loadPrintsFile(db, second, { twoReadersMinBytes: 0 });
    for (const r of [one, two]) expect(outcomesSum(r)).toBe(r.read);
    expect(one.read + two.read).toBe(lines.length);
    // Valid lines with sequences unique to the date: neither rejects nor repeats.
    expect([one.rejected.length, one.duplicates, two.rejected.length, two.duplicates]).toEqual([0, 0, 0, 0]);
    const cancels = (r: MarketLoadResult): number => r.cancels + r.cancelsOfStored + r.cancelsAlreadyApplied + r.cancelsUnmatched;
    expect(cancels(one) + cancels(two)).toBe(cancelLines);
    expect(one.cancelsOfStored).toBe(0);
    expect(two.cancelsOfStored).toBeGreaterThanOrEqual(1);
    expect(one.cancels + two.cancels).toBeGreaterThanOrEqual(1);
    expect(await storedCounts(service)).toEqual({
      rows: lines.length - cancelLines,
      cancelled: one.cancels + two.cancels + two.cancelsOfStored,
    });
    expect(one.loaded + two.loaded).toBe(lines.length - cancelLines);

    // The second part again, forced: nothing written, its cancels of stored prints already applied.
    const again = await loadPrintsFile(db, second, { force: true });
    expect(again).toMatchObject({
      read: two.read,
      loaded: 0,
      duplicates: two.loaded,
      cancels: two.cancels,
      cancelsOfStored: 0,
      cancelsAlreadyApplied: two.cancelsOfStored,
      cancelsUnmatched: two.cancelsUnmatched,
    });
    expect(await storedCounts(service)).toEqual({
      rows: lines.length - cancelLines,
      cancelled: one.cancels + two.cancels + two.cancelsOfStored,
    });
  });
});

describe('quote files: one sample a contract and minute', () => {
  let service: TestService;
  let dir: string;
  const QUOTES = 'option_symbol,timestamp,bid,ask,bid_size,ask_size';
  const quote = (symbol: string, ms: number, bid: number): string => `${symbol},${T + ms},${bid},${bid + 0.1},10,12`;

  beforeAll(async () => {
    service = await startTestService();
    await seedOptionRoots(service.database.admin);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-counts-quotes-'));
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts the updates of a minute not kept as superseded, by a later one of the file or of the store', async () => {
    const db = service.database.admin;
    const write = (name: string, lines: string[]): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, [QUOTES, ...lines].join('\n') + '\n');
      return file;
    };
    const first = write('quotes-1.csv', [
      quote(SPY, 50_000, 2),
      quote(SPXW, 10_000, 5),
      // The later update of the minute: kept, the one before it superseded.
      quote(SPXW, 40_000, 5.2),
      // A repeat of the line before.
      quote(SPXW, 40_000, 5.2),
      quote('SPY  X', 20_000, 1),
    ]);
    const one = await loadMarketFile(db, 'quotes', first);
    expect(one).toMatchObject({ read: 5, loaded: 2, duplicates: 1, superseded: 1 });
    expect(one.rejected).toHaveLength(1);
    expect(outcomesSum(one)).toBe(one.read);

    // An earlier update of a stored minute (the store keeps its later one), and a new minute.
    const later = write('quotes-2.csv', [quote(SPY, 10_000, 1.9), quote(SPY, 70_000, 2.1)]);
    const two = await loadMarketFile(db, 'quotes', later);
    expect(two).toMatchObject({ read: 2, loaded: 1, rejected: [], duplicates: 0, superseded: 1 });
    expect(outcomesSum(two)).toBe(two.read);

    const stored = await sql<{ bid: number; quote_ts: string }>`select bid, quote_ts::text from quote_samples order by quote_ts`.execute(
      db,
    );
    expect(stored.rows).toEqual([
      { bid: 5.2, quote_ts: String(T + 40_000) },
      { bid: 2, quote_ts: String(T + 50_000) },
      { bid: 2.1, quote_ts: String(T + 70_000) },
    ]);
  });
});
