/**
 * `npm run ingest -- <kind> <files...>`: loads files of one kind. Canonical kinds (layouts.ts: CSV or
 * NDJSON, gzip accepted): contracts, prints, quotes, underlying_bars, open_interest, splits. Vendor
 * layouts (vendors.ts): massive-trades, massive-quotes, massive-minute-aggs, databento-tbbo,
 * databento-statistics, databento-definition, databento-cbbo. Each file loads in one transaction; a file already
 * loaded (same checksum) is skipped; bad rows go to `<file>.rejects.csv` with their line and
 * reason; progress goes to stderr on long files; each file ends with its counts, every record read
 * in exactly one named outcome, so that the outcomes sum to read: `read 12, loaded 9, rejected 1,
 * duplicates 1, cancels 1, ...` (load-counts.ts; for prints, the cancel records by what they cancelled).
 */
import fs from 'node:fs';
import { seedOptionRoots } from '../db/market-data.js';
import { countsSummary } from '../ingest/load-counts.js';
import { isLoadKind, LOAD_KINDS, loadMarketFile } from '../ingest/market.js';
import { openForCli } from './database.js';

const args = process.argv.slice(2);
const force = args.includes('--force');
const [kind, ...files] = args.filter((a) => a !== '--force');

if (!kind || !isLoadKind(kind) || files.length === 0) {
  process.stderr.write(`usage: npm run ingest -- <${LOAD_KINDS.join('|')}> [--force] <files...>\n`);
  process.exit(2);
}

const handle = await openForCli();
let failed = false;
try {
  await seedOptionRoots(handle.admin);
  for (const file of files) {
    const started = performance.now();
    const result = await loadMarketFile(handle.admin, kind, file, { force, log: (line) => process.stderr.write(`${line}\n`) });
    const rejectsFile = `${file}.rejects.csv`;
    if (result.rejected.length > 0) {
      fs.writeFileSync(rejectsFile, ['line,reason', ...result.rejected.map((r) => `${r.line},"${r.reason.replace(/"/g, '""')}"`)].join('\n') + '\n');
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      result.alreadyLoaded
        ? `${file}: already loaded (same checksum), nothing written\n`
        : `${file}: ${countsSummary(result)} in ${seconds} s` + (result.rejected.length > 0 ? ` (rejects in ${rejectsFile})` : '') + '\n',
    );
  }
} catch (error) {
  failed = true;
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await handle.close();
}
process.exitCode = failed ? 1 : 0;
