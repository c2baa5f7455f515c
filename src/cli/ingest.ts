/**
 * `npm run ingest -- <kind> <files...>`: loads files in the canonical layout (CSV or NDJSON, gzip
 * accepted). Each file loads in one transaction; bad rows go to `<file>.rejects.csv` with their
 * line and reason. Kinds served so far: splits.
 */
import fs from 'node:fs';
import { loadSplitsFile } from '../ingest/splits.js';
import { openForCli } from './database.js';

const [kind, ...files] = process.argv.slice(2);
const loaders = { splits: loadSplitsFile } as const;

if (!kind || !(kind in loaders) || files.length === 0) {
  process.stderr.write(`usage: npm run ingest -- <${Object.keys(loaders).join('|')}> <files...>\n`);
  process.exit(2);
}

const handle = await openForCli();
let failed = false;
try {
  for (const file of files) {
    const result = await loaders[kind as keyof typeof loaders](handle.admin, file);
    const rejectsFile = `${file}.rejects.csv`;
    if (result.rejected.length > 0) {
      fs.writeFileSync(rejectsFile, ['line,reason', ...result.rejected.map((r) => `${r.line},"${r.reason.replace(/"/g, '""')}"`)].join('\n') + '\n');
    }
    process.stdout.write(
      `${file}: read ${result.read}, loaded ${result.loaded}, rejected ${result.rejected.length}, duplicates ${result.duplicates}` +
        (result.rejected.length > 0 ? ` (rejects in ${rejectsFile})` : '') +
        '\n',
    );
  }
} catch (error) {
  failed = true;
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await handle.close();
}
process.exitCode = failed ? 1 : 0;
