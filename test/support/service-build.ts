/**
 * The service compiled to JavaScript once per test run, as `scripts/build` compiles it for
 * `make run` (esbuild, each source file on its own, the sources' layout kept, the contract and the
 * seed files linked beside it), for the tests that start it as a process of its own (the service,
 * a cluster, a command-line tool). Started through tsx, each such process would transpile and
 * resolve every source again on its way to listening, seconds of CPU each. The build is quick, so
 * each run compiles the sources as they are, into a folder of its own inside the checkout (where node_modules is found from it), which
 * the run's teardown removes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's compiled service (service-build.ts). */
    serviceBuild: string;
  }
}

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourcesUnder(relative));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(relative);
  }
  return out;
}

/** Compiles src/ and db/migrations/ into build/test-service-<run>; its path. */
export async function buildService(run: string): Promise<{ dir: string; remove: () => void }> {
  const dir = path.join(root, 'build', `test-service-${run}`);
  fs.rmSync(dir, { recursive: true, force: true });
  const entryPoints = [...sourcesUnder('src'), ...sourcesUnder('db/migrations')].sort().map((file) => path.join(root, file));
  await build({ entryPoints, outdir: dir, outbase: root, platform: 'node', format: 'esm', target: 'es2022', logLevel: 'warning' });
  fs.symlinkSync(path.join(root, 'openapi'), path.join(dir, 'openapi'));
  fs.symlinkSync(path.join(root, 'db', 'seed'), path.join(dir, 'db', 'seed'));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
