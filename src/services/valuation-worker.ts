/**
 * The entry of a valuation thread (valuation-pool.ts starts it): runs the tasks of
 * valuation-tasks.ts one at a time as the pool sends them, and says `ready` once its modules are
 * loaded.
 */
import { parentPort } from 'node:worker_threads';
import type { TaskReply } from './valuation-pool.js';
import { threadTasks } from './valuation-tasks.js';

const port = parentPort;
if (port === null) throw new Error('valuation-worker.ts runs as a worker thread (valuation-pool.ts)');
const tasks = threadTasks();

port.on('message', (message: { id: number; name: string; input: unknown }) => {
  void (async (): Promise<void> => {
    let reply: TaskReply;
    try {
      const task = tasks[message.name];
      if (task === undefined) throw new Error(`no valuation task is named ${message.name}`);
      reply = { id: message.id, ok: true, value: await task(message.input) };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { id: message.id, ok: false, error: { name: e.name, message: e.message } };
    }
    port.postMessage(reply);
  })();
});
port.postMessage('ready');
