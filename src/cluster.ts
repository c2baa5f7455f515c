/**
 * The service as a cluster (config.webWorkers > 1): node's HTTP work (parsing, routing,
 * validation, writing responses) takes one core per process, so on a machine of several cores one
 * process leaves cores idle that PostgreSQL does not use. The primary opens the database
 * (starting the embedded server), migrates and seeds it and runs the background jobs; it serves no
 * HTTP. It forks the workers, which share the listening port (node's cluster hands each connection
 * to one of them) and serve every route: they skip the store's preparation and submit jobs for the
 * primary to run. Each worker counts the request limits for itself (the spec's "per API process"),
 * or with LIMIT_SCOPE=cluster asks the primary's one limiter for each request (cluster-limiter.ts):
 * one round trip over the IPC channel per request, the price of one count for all workers.
 *
 * A worker that dies is replaced; one that fails before it listens stops the start. On SIGTERM or
 * SIGINT the primary asks each worker to stop (it stops accepting, finishes its requests within
 * the shutdown grace and flushes its request log), waits for them, then stops the jobs and the
 * database. A worker whose primary is gone exits. The database going away ends neither: the
 * primary's supervisor restarts the embedded server and every process reconnects (db/watch.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { ClusterLimiterClient, serveLimits } from './limits/cluster-limiter.js';
import type { Logger } from './logging.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { startService, type RunningService, type StartOptions } from './server.js';
import { stopSignal } from './lifecycle.js';

/**
 * How long the primary waits for a stopping worker beyond the shutdown grace (for its request
 * log, its job client and its pool) before it kills it.
 */
const WORKER_STOP_MARGIN_MS = 10_000;
/** The pause before a worker that died is replaced. */
const RESPAWN_MS = 1_000;
/**
 * The young generation's semi-space of a worker, MB (V8's default is 16 on 64-bit). A page of
 * trades allocates some 200 KB of short-lived strings; a larger nursery scavenges less often
 * (bench/trades measures it; commit 128ba8f has the figures). A --max-semi-space-size given to
 * node (its command line) comes later and wins.
 */
const WORKER_SEMI_SPACE_MB = 32;

export interface RunningCluster {
  /** The primary's service: database, jobs and limits, no HTTP server. */
  service: RunningService;
  url: string;
  workers: number;
  stop(): Promise<void>;
}

interface StopMessage {
  oads: 'stop';
}

function isStopMessage(message: unknown): message is StopMessage {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === 'stop';
}

/** The connections of each worker's request pool: its share of config.databasePoolSize. */
export function workerPoolSize(config: Readonly<Config>): number {
  return Math.max(1, Math.ceil(config.databasePoolSize / config.webWorkers));
}

/**
 * Prepares the store, starts the jobs and forks config.webWorkers HTTP workers; resolves once every
 * worker listens.
 */
export async function startClusterPrimary(config: Readonly<Config>, options: StartOptions & { logger: Logger }): Promise<RunningCluster> {
  const limiter = new RateLimiter(config.limits);
  const service = await startService(config, { ...options, limiter, listen: false });
  const shared = config.limitScope === 'cluster';
  const { logger } = options;
  // Workers use the primary's database (the embedded server's URL when it started one).
  const env = { DATABASE_URL: service.database.connectionString };
  let stopping = false;
  const releases = new Map<Worker, () => void>();

  cluster.setupPrimary({ execArgv: [`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`, ...process.execArgv] });
  const fork = (): Worker => {
    const worker = cluster.fork(env);
    if (shared) releases.set(worker, serveLimits(limiter, worker).releaseAll);
    return worker;
  };

  let url = '';
  try {
    const workers = Array.from({ length: config.webWorkers }, fork);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const failed = (code: number | null) => reject(new Error(`HTTP worker ${worker.id} exited with ${code} before it listened`));
            worker.once('exit', failed);
            worker.once('listening', (address) => {
              worker.off('exit', failed);
              url = `http://${config.host}:${address.port}`;
              resolve();
            });
          }),
      ),
    );
  } catch (error) {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
    await service.stop();
    throw error;
  }

  cluster.on('exit', (worker, code, signal) => {
    releases.get(worker)?.();
    releases.delete(worker);
    if (stopping) return;
    logger.error('HTTP worker exited; replacing it', { worker: worker.id, code, signal });
    setTimeout(() => {
      if (!stopping) fork();
    }, RESPAWN_MS).unref();
  });

  return {
    service,
    url,
    workers: config.webWorkers,
    stop: async () => {
      stopping = true;
      const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((resolve) => {
              const timer = setTimeout(() => worker.kill('SIGKILL'), config.shutdownGraceMs + WORKER_STOP_MARGIN_MS);
              worker.once('exit', () => {
                clearTimeout(timer);
                resolve();
              });
              try {
                worker.send({ oads: 'stop' } satisfies StopMessage);
              } catch {
                worker.kill('SIGTERM');
              }
            }),
        ),
      );
      await service.stop();
    },
  };
}

/**
 * An HTTP worker of the cluster: the whole API on the shared port, over the database the primary
 * prepared, with limits of its own or the primary's (LIMIT_SCOPE). Stops when the primary asks, on
 * a stop signal of its own (a Ctrl-C reaches the whole process group), or when the primary is gone.
 */
export async function startClusterWorker(config: Readonly<Config>, options: StartOptions & { logger: Logger }): Promise<RunningService> {
  const channel = process as unknown as NodeJS.Process & { send(message: unknown): boolean };
  const service = await startService(config, {
    ...options,
    prepareStore: false,
    seedMarket: false,
    jobs: 'submit',
    limiter: config.limitScope === 'cluster' ? new ClusterLimiterClient(channel) : new RateLimiter(config.limits),
    poolSize: workerPoolSize(config),
  });
  let stopped = false;
  const stop = (code: number): void => {
    if (stopped) return;
    stopped = true;
    void service.stop().then(
      () => process.exit(code),
      () => process.exit(1),
    );
  };
  process.on('message', (message) => {
    if (isStopMessage(message)) stop(0);
  });
  process.on('disconnect', () => stop(1));
  void stopSignal().then(() => stop(0));
  return service;
}
