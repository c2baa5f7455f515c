// The explorer page (explorer/, served at /explorer by src/explorer-page.ts) built for the browser:
// esbuild bundles explorer/main.ts with uPlot from node_modules into one script and the styles it
// imports into one stylesheet, beside a copy of explorer/index.html. Nothing is fetched at run time
// from another origin. `make explorer` (and so `make run` and `make test`) runs
// `tsx scripts/build-explorer.ts [out-dir]`; the browser test builds its own copy the same way.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'explorer');

/** Builds the page into `outDir` (emptied first): index.html, explorer.js, explorer.css. */
export async function buildExplorer(outDir: string): Promise<void> {
  const out = path.resolve(ROOT, outDir);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { explorer: path.join(SOURCE, 'main.ts') },
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'iife',
    target: ['es2022'],
    outdir: out,
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(SOURCE, 'index.html'), path.join(out, 'index.html'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await buildExplorer(process.argv[2] ?? 'build/explorer');
}
