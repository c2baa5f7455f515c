/**
 * Flat export files at full scale: the SPX family's prints of one simulated full-scale trading date
 * (every session), written as the export worker writes them (pages of 500 rows) through the CSV
 * (gzip) and Parquet writers, and measured: rows, file bytes against the flat formats' caps
 * (EXPORT_FLAT_MAX_ROWS, EXPORT_FLAT_MAX_BYTES), the JSON export's size for the same rows against
 * its 64 MiB, seconds, and the process's peak resident memory and the heap after each format (the
 * writers hold one chunk or one row group, so neither grows with the day).
 *
 * The prints come from the simulator's file of the date (`tsx src/ingest/simulator/cli.ts --out
 * DIR --scale full`; BENCH_PRINTS=DIR/prints-2026-11-20.csv.gz), made into rows of the trades route's
 * shape: the fields the file has (times, prices, sizes, quotes, exchange, condition, contract) as
 * they are, the classified ones (volatility, delta, sides, flags, groups, open interest) drawn
 * with a seeded generator at the precision the service rounds them to. Drawn values compress worse
 * than the service's (which are correlated along a contract), so the sizes are an upper estimate.
 *
 *   BENCH_PRINTS=/tmp/simfull/prints-2026-11-20.csv.gz npx tsx --expose-gc bench/exports/run.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { exportColumns } from '../../src/api-contract/export-columns.js';
import { loadApiContract } from '../../src/api-contract/openapi.js';
import { loadConfig } from '../../src/config.js';
import { CsvGzipWriter } from '../../src/jobs/export-csv.js';
import type { ExportWriter } from '../../src/jobs/export-file.js';
import { ExportFileWriter } from '../../src/jobs/export-file.js';
import { ParquetExportWriter } from '../../src/jobs/export-parquet.js';

const PRINTS = process.env.BENCH_PRINTS;
if (!PRINTS) throw new Error('BENCH_PRINTS: the simulator prints file of a full-scale date (see the header)');
const ROOTS = new Set(['SPX', 'SPXW']);
const PAGE = 500;
const DATE = path.basename(PRINTS).match(/\d{4}-\d{2}-\d{2}/)?.[0] ?? '2026-11-20';

let seed = 1;
const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;

async function readRows(): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const volume = new Map<string, number>();
  const lines = readline.createInterface({ input: fs.createReadStream(PRINTS!).pipe(zlib.createGunzip()) });
  let header = true;
  for await (const line of lines) {
    if (header) {
      header = false;
      continue;
    }
    const [symbol, timestamp, sequence, price, size, exchange, condition, , , bid, ask] = line.split(',');
    const root = symbol!.slice(0, 6).trim();
    if (!ROOTS.has(root)) continue;
    const expiry = `20${symbol!.slice(6, 8)}-${symbol!.slice(8, 10)}-${symbol!.slice(10, 12)}`;
    const right = symbol![12] === 'C' ? 'call' : 'put';
    const strike = Number(symbol!.slice(13)) / 1000;
    const day = (volume.get(symbol!) ?? 0) + Number(size);
    volume.set(symbol!, day);
    const p = Number(price);
    const n = Number(size);
    rows.push({
      ask: ask ? Number(ask) : null,
      bid: bid ? Number(bid) : null,
      condition_code: condition ? Number(condition) : 209,
      contract_type: right,
      date_of_expiry: expiry,
      day_volume: day,
      days_to_expiry: Math.round((Date.parse(expiry) - Date.parse(DATE)) / 86_400_000),
      delta: next() < 0.02 ? null : round((right === 'call' ? 1 : -1) * next(), 6),
      exchange: 'cboe',
      exchange_code: Number(exchange),
      flags: next() < 0.3 ? pick([['iso'], ['ext_hours'], ['iso', 'vol_gt_oi'], ['floor'], ['no_side']]) : [],
      group_id: next() < 0.25 ? `g:${root}:${expiry}:${strike * 1000}:${right === 'call' ? 'C' : 'P'}:${DATE}:${sequence}` : null,
      id: `${root}:${expiry}:${strike * 1000}:${right === 'call' ? 'C' : 'P'}:${DATE}:${sequence}`,
      implied_volatility: next() < 0.02 ? null : round(0.08 + next() * 0.4, 6),
      is_block: next() < 0.05,
      is_golden: next() < 0.01,
      is_unusual: next() < 0.1,
      open_interest: next() < 0.05 ? null : Math.floor(next() * 20_000),
      otm_percent: round((next() - 0.5) * 20, 3),
      premium: round(p * n * 100, 2),
      price: p,
      sentiment: pick(['bullish', 'bearish', 'neutral', 'unknown']),
      session: pick(['rth', 'rth', 'rth', 'rth', 'gth', 'curb']),
      side: pick(['at_ask', 'at_bid', 'near_ask', 'near_bid', 'mid', 'above_ask', 'below_bid', 'unknown']),
      side_confidence: round(next(), 3),
      size: n,
      strike,
      timestamp: Number(timestamp),
      trade_type: pick(['single', 'single', 'sweep', 'split', 'multileg']),
      underlying_price: round(5800 + next() * 100, 2),
      underlying_symbol: root,
    });
  }
  return rows;
}

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function measure(name: string, open: (file: string) => Promise<ExportWriter>, rows: Record<string, unknown>[], maxRows: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-exports-'));
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  let retainedPeak = heapBefore;
  const started = performance.now();
  const writer = await open(path.join(dir, 'run.part'));
  let pages = 0;
  for (let at = 0; at < rows.length; at += PAGE) {
    pages += 1;
    const page = rows.slice(at, at + PAGE);
    const taken = await writer.addRows(page, maxRows);
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    // What the writer holds (its garbage collected), every 20 pages.
    if (pages % 20 === 0) {
      gc();
      retainedPeak = Math.max(retainedPeak, process.memoryUsage().heapUsed);
    }
    if (taken < page.length || writer.full) break;
  }
  const written = await writer.finish(path.join(dir, `file.${name}`), pages, false);
  const seconds = (performance.now() - started) / 1000;
  gc();
  const line = {
    format: name,
    rows: written.rows,
    truncated: written.truncated,
    bytes: written.bytes,
    size: mib(written.bytes),
    bytes_per_row: Math.round((written.bytes / written.rows) * 10) / 10,
    seconds: Math.round(seconds * 10) / 10,
    heap_growth_peak: mib(heapPeak - heapBefore),
    heap_held_peak: mib(retainedPeak - heapBefore),
    heap_after: mib(process.memoryUsage().heapUsed),
    rss_peak: mib(process.resourceUsage().maxRSS * 1024),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return line;
}

const config = loadConfig({});
const contract = loadApiContract();
const columns = exportColumns(contract, contract.byId.get('listOptionTrades')!)!;
const rows = await readRows();
gc();
const meta = { request_id: 'export:bench', export_id: 'bench' };
const { exportFlatMaxRows: flatRows, exportFlatMaxBytes: flatBytes, exportMaxRows, exportMaxBytes } = config.limits;
process.stdout.write(
  `${JSON.stringify({ date: DATE, roots: [...ROOTS], prints: rows.length, caps: { json: [exportMaxRows, exportMaxBytes], flat: [flatRows, flatBytes] }, heap_with_rows: mib(process.memoryUsage().heapUsed) })}\n`,
);
for (const result of [
  await measure('csv.gz', (f) => CsvGzipWriter.open(f, flatBytes, columns), rows, flatRows),
  await measure('parquet', (f) => ParquetExportWriter.open(f, flatBytes, columns, meta), rows, flatRows),
  // JSON without its caps, to show what the whole date would take.
  await measure('json (uncapped)', (f) => ExportFileWriter.open(f, Number.MAX_SAFE_INTEGER, meta), rows, Number.MAX_SAFE_INTEGER),
  await measure('json', (f) => ExportFileWriter.open(f, exportMaxBytes, meta), rows, exportMaxRows),
]) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
