/**
 * `npm run simulate -- [--scale full] [--out DIR]`: writes the simulated market (deterministic,
 * seeded; see src/ingest/simulator) as canonical files and loads them through ingest.
 */
import path from 'node:path';
import { loadConfig } from '../config.js';
import { simulateAndLoad } from '../ingest/seed-market.js';
import { openForCli } from './database.js';

const args = process.argv.slice(2);
const valueOf = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const scale = valueOf('--scale') ?? 'default';
if (scale !== 'default' && scale !== 'full') {
  process.stderr.write('usage: npm run simulate -- [--scale default|full] [--out DIR]\n');
  process.exit(2);
}
const config = loadConfig();
const out = valueOf('--out');

const handle = await openForCli();
let failed = false;
try {
  const started = performance.now();
  const result = await simulateAndLoad(handle.admin, {
    dataDir: config.dataDir,
    now: Date.now(),
    scale,
    outDir: out === undefined ? undefined : path.resolve(out),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`simulated market: ${result.files} files, ${result.prints} prints loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
} catch (error) {
  failed = true;
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await handle.close();
}
process.exitCode = failed ? 1 : 0;
