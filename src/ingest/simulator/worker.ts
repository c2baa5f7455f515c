/**
 * The simulator in a worker thread (seed-market.ts simulateAndLoad): it writes the market and posts
 * each set of files as it is written, then the whole list, so that the main thread loads the
 * first dates while the later ones are simulated.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestKind } from '../layouts.js';
import { threadCpuSeconds } from '../worker-thread.js';
import { simulateMarket, type SimulateOptions } from './index.js';

export type SimulatorMessage =
  | { type: 'files'; files: Partial<Record<IngestKind, string[]>> }
  | { type: 'done'; files: Partial<Record<IngestKind, string[]>>; cpuSeconds: number | null };

const port = parentPort;
if (port === null) throw new Error('simulator/worker runs as a worker thread');
const options = (workerData as { data: Omit<SimulateOptions, 'onFiles'> }).data;
const post = (message: SimulatorMessage): void => port.postMessage(message);
const summary = await simulateMarket({ ...options, onFiles: (files) => post({ type: 'files', files }) });
post({ type: 'done', files: summary.files, cpuSeconds: threadCpuSeconds() });
