/**
 * Worker threads running this project's modules. Compiled JavaScript (dist/, `make run`) starts as
 * it is. A TypeScript entry (tsx, vitest) needs tsx's loader, which a worker does not inherit from
 * the main thread's module hooks: its first lines register tsx's ESM loader, found through tsx's
 * own package exports, and then import the entry module.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

let loaderUrl: string | undefined;

/** The file URL of tsx's ESM register API (its package's "./esm/api" import export). */
function tsxLoaderUrl(): string {
  if (loaderUrl === undefined) {
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    const exports = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
    const target = exports['./esm/api']?.import.default;
    if (target === undefined) throw new Error('tsx does not export ./esm/api');
    loaderUrl = pathToFileURL(path.join(path.dirname(manifest), target)).href;
  }
  return loaderUrl;
}

const BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.loader).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

/**
 * Starts a worker thread on a TypeScript (or JavaScript) module; it reads `data` as workerData.data.
 * `youngGenerationMb` sizes the thread's young generation (three semi-spaces; node's default 48).
 */
export function startTsWorker(entry: URL, data: unknown, options: { youngGenerationMb?: number } = {}): Worker {
  const resourceLimits = options.youngGenerationMb === undefined ? undefined : { maxYoungGenerationSizeMb: options.youngGenerationMb };
  if (entry.pathname.endsWith('.js')) return new Worker(entry, { workerData: { data }, resourceLimits });
  return new Worker(BOOT, { eval: true, workerData: { loader: tsxLoaderUrl(), entry: entry.href, data }, resourceLimits });
}

/**
 * CPU time of the calling thread in seconds (Linux: /proc/thread-self/schedstat, nanoseconds on a
 * CPU), or null where that cannot be read; the first start's log says where its CPU went.
 */
export function threadCpuSeconds(): number | null {
  try {
    const ns = Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e9 : null;
  } catch {
    return null;
  }
}
