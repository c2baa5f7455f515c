/**
 * Writes the simulated market without loading it, for inspection and timing:
 *   tsx src/ingest/simulator/cli.ts --out <dir> [--seed 1] [--scale default|full] [--now <unix ms or ISO>]
 * Prints the files and row counts as JSON. `--now` defaults to the wall clock, read here only, at
 * the edge; the simulator itself never reads a clock.
 */
import { parseArgs } from 'node:util';
import { simulateMarket } from './index.js';

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
    scale: { type: 'string', default: 'default' },
    now: { type: 'string' },
  },
});

const scale = values.scale;
if (!values.out || (scale !== 'default' && scale !== 'full')) {
  process.stderr.write('usage: cli.ts --out <dir> [--seed 1] [--scale default|full] [--now <unix ms or ISO>]\n');
  process.exit(2);
}
const now = values.now === undefined ? Date.now() : /^\d+$/.test(values.now) ? Number(values.now) : Date.parse(values.now);
const seed = Number(values.seed);
if (!Number.isFinite(now) || !Number.isFinite(seed)) {
  process.stderr.write('--now and --seed must be numbers (or --now an ISO-8601 time)\n');
  process.exit(2);
}
const started = performance.now();
const summary = await simulateMarket({ outDir: values.out, seed, scale, now });
process.stdout.write(`${JSON.stringify({ ...summary, elapsed_ms: Math.round(performance.now() - started) }, null, 2)}\n`);
