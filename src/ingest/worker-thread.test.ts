import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startTsWorker } from './worker-thread.js';

// ES modules, as the project's are.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-worker-thread-'));
fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The first message the worker posts. */
function firstMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('startTsWorker', () => {
  // Whether tsx's loader is in the thread: a .ts import works only with it.
  it('starts a compiled .js entry as it is (no TypeScript loader), with the data as workerData.data', async () => {
    const entry = path.join(dir, 'echo.js');
    fs.writeFileSync(
      entry,
      "import { parentPort, workerData } from 'node:worker_threads';\n" +
        "let typescript = true;\ntry { await import('./typed.ts'); } catch { typescript = false; }\n" +
        'parentPort.postMessage({ data: workerData.data, typescript });\n',
    );
    fs.writeFileSync(path.join(dir, 'typed.ts'), 'export const n: number = 1;\n');
    const worker = startTsWorker(pathToFileURL(entry), { n: 42 });
    try {
      expect(await firstMessage(worker)).toEqual({ data: { n: 42 }, typescript: false });
    } finally {
      await worker.terminate();
    }
  });

  it("sizes the thread's young generation when asked", async () => {
    const entry = path.join(dir, 'limits.js');
    fs.writeFileSync(
      entry,
      "import { parentPort, resourceLimits } from 'node:worker_threads';\nparentPort.postMessage(resourceLimits.maxYoungGenerationSizeMb);\n",
    );
    const worker = startTsWorker(pathToFileURL(entry), null, { youngGenerationMb: 96 });
    try {
      expect(await firstMessage(worker)).toBe(96);
    } finally {
      await worker.terminate();
    }
  });

  it('starts a TypeScript entry through tsx', async () => {
    const entry = path.join(dir, 'echo.ts');
    fs.writeFileSync(
      entry,
      "import { parentPort, workerData } from 'node:worker_threads';\nconst data: unknown = (workerData as { data: unknown }).data;\nparentPort?.postMessage({ data });\n",
    );
    const worker = startTsWorker(pathToFileURL(entry), ['a']);
    try {
      expect(await firstMessage(worker)).toEqual({ data: ['a'] });
    } finally {
      await worker.terminate();
    }
  });
});
