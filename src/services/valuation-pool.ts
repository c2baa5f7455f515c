/**
 * The valuation pool of a process: worker threads (node:worker_threads, valuation-worker.ts) that
 * run the CPU-heavy, pure part of the valuing routes (valuation-tasks.ts: fitting a book's smiles,
 * and a levels, heat map or skew answer computed from a stored book), so that a request needing a
 * new valuation does not hold the event loop that serves every other request (issue #34: one
 * account's heavy requests moved another's trades p95 from 72 ms to 1.7 s, and /v1/status with it).
 * The database reads stay on the event loop (Kysely); a task receives what was read and returns
 * what it computed: structured clone keeps every number as it is (NaN, ±Infinity, -0 included), so
 * an answer is the same, to the last digit, as computed on the event loop.
 *
 * Tasks wait in a FairQueue (fair-queue.ts): one turn per account in each round, so an account
 * keeping four heavy requests in flight gets at most one thread ahead of another account's one
 * request. VALUATION_THREADS (config.ts) threads per process, 1 by default: on a machine of two
 * cores with two HTTP workers, one valuing thread per process leaves each event loop its core's
 * turns. 0 computes on the event loop, as does a process whose threads cannot start (`ready`
 * answers false, said in the log). The threads start on first use.
 *
 * The worker runs the same code as the process: from dist/ the compiled valuation-worker.js beside
 * this module; from source (tsx, vitest) the .ts file through tsx's loader, registered in the thread
 * before the entry is imported (node 20 does not apply `--import tsx` to a thread's entry).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging.js';
import { FairQueue } from './fair-queue.js';

/** What the thread answers to one task. */
export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string } };

interface Queued {
  name: string;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  /** The task it runs, null when idle. */
  task: { id: number; account: string; queued: Queued } | null;
}

/** The thread's entry and how to start it, as this module runs (module comment). */
function workerEntry(): { entry: URL | string; eval: boolean } {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return { entry: new URL('./valuation-worker.js', import.meta.url), eval: false };
  const entry = new URL('./valuation-worker.ts', import.meta.url).href;
  return {
    entry: `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`,
    eval: true,
  };
}

/** Thrown to a task's caller when the pool stopped (or its thread died) before the task finished. */
export class ValuationPoolStopped extends Error {}

export class ValuationPool {
  private readonly threads: Thread[] = [];
  private readonly queue = new FairQueue<Queued>();
  private nextId = 1;
  private completed = 0;
  private stopping = false;

  private started: Promise<boolean> | null = null;

  /** A pool of `size` threads, started on first use (ready); null when `size` is 0 (everything computed on the event loop). */
  static create(size: number, logger: Logger): ValuationPool | null {
    return size <= 0 ? null : new ValuationPool(size, logger);
  }

  private constructor(
    private readonly size: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts the threads on the first call (a process that values nothing starts none) and resolves
   * once each has loaded its modules: true, or false when one cannot start (said once in the log;
   * the callers then compute on the event loop).
   */
  ready(): Promise<boolean> {
    this.started ??= Promise.all(Array.from({ length: this.size }, () => this.spawn())).then(
      () => {
        this.logger.info('valuation threads started', { threads: this.size });
        return true;
      },
      async (error: unknown) => {
        this.logger.error('valuation threads did not start: valuations run on the event loop', {
          error: error instanceof Error ? error.message : String(error),
        });
        await this.stop();
        return false;
      },
    );
    return this.started;
  }

  /**
   * Runs a task of valuation-tasks.ts (`name`, with its input) for the account, its turn dealt by
   * the fair queue; resolves with the task's output, rejects with its error. The module does not
   * import the tasks (they import the services, which reach this pool through ServiceDeps): the
   * callers type their input and output (books.ts).
   */
  run(account: string, name: string, input: unknown): Promise<unknown> {
    if (this.stopping) return Promise.reject(new ValuationPoolStopped('The valuation pool has stopped.'));
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push(account, { name, input, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads, tasks running and queued, and tasks completed (tests). */
  get state(): { threads: number; busy: number; queued: number; completed: number } {
    return {
      threads: this.threads.length,
      busy: this.threads.filter((t) => t.task !== null).length,
      queued: this.queue.size,
      completed: this.completed,
    };
  }

  /** Stops the threads; tasks queued or running are rejected (the requests were drained before). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const q of this.queue.drain()) q.reject(new ValuationPoolStopped('The valuation pool has stopped.'));
    const threads = this.threads.splice(0);
    await Promise.all(
      threads.map(async (t) => {
        t.task?.queued.reject(new ValuationPoolStopped('The valuation pool has stopped.'));
        t.task = null;
        await t.worker.terminate();
      }),
    );
  }

  /** Starts a thread; resolves once its modules are loaded (it says `ready`). */
  private spawn(): Promise<void> {
    const { entry, eval: isEval } = workerEntry();
    const worker = new Worker(entry, { eval: isEval });
    // The threads never keep the process alive on their own (a process whose service was not stopped still exits).
    worker.unref();
    const thread: Thread = { worker, task: null };
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: TaskReply | 'ready') => {
        if (message === 'ready') {
          ready = true;
          if (this.stopping) {
            void worker.terminate();
            resolve();
            return;
          }
          this.threads.push(thread);
          resolve();
          this.dispatch();
          return;
        }
        this.settle(thread, message);
      });
      worker.on('error', (error) => {
        if (!ready) reject(error);
        else this.logger.error('valuation thread failed', { error: error.message });
      });
      worker.on('exit', (code) => {
        if (!ready) {
          reject(new Error(`the valuation thread exited (${code}) before it was ready`));
          return;
        }
        this.lost(thread);
      });
    });
  }

  /** A thread that exited: its task fails, and, unless the pool stops, a new thread takes its place. */
  private lost(thread: Thread): void {
    const index = this.threads.indexOf(thread);
    if (index < 0) return;
    this.threads.splice(index, 1);
    if (thread.task !== null) {
      this.queue.finished(thread.task.account);
      thread.task.queued.reject(new ValuationPoolStopped('The valuation thread exited during the task.'));
      thread.task = null;
    }
    if (this.stopping) return;
    this.logger.error('valuation thread exited: starting another', {});
    this.spawn().catch((error: unknown) => {
      this.logger.error('valuation thread did not start again', { error: error instanceof Error ? error.message : String(error) });
      if (this.threads.length === 0) for (const q of this.queue.drain()) q.reject(new ValuationPoolStopped('No valuation thread runs.'));
    });
  }

  private settle(thread: Thread, reply: TaskReply): void {
    const task = thread.task;
    if (task === null || task.id !== reply.id) return;
    thread.task = null;
    this.queue.finished(task.account);
    this.completed += 1;
    if (reply.ok) task.queued.resolve(reply.value);
    else task.queued.reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
    this.dispatch();
  }

  /** Gives idle threads the next tasks of the fair queue. */
  private dispatch(): void {
    for (const thread of this.threads) {
      if (thread.task !== null) continue;
      const next = this.queue.shift();
      if (next === undefined) return;
      const id = this.nextId++;
      thread.task = { id, account: next.account, queued: next.task };
      thread.worker.postMessage({ id, name: next.task.name, input: next.task.input });
    }
  }
}
