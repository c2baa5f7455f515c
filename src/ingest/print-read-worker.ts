/** The worker thread that reads the second half of a large prints file (print-reader.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { readRange, type RangeWorkerData } from './print-reader.js';

const port = parentPort;
if (port === null) throw new Error('print-read-worker runs as a worker thread');
await readRange((workerData as { data: RangeWorkerData }).data, (message, transfer) => port.postMessage(message, transfer));
