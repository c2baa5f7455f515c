/**
 * The service as a cluster (config.webWorkers > 1): node's HTTP work (parsing, routing,
 * validation, writing responses) takes one core per process, so on a machine of several cores one
 * process leaves cores idle that PostgreSQL does not use. The primary opens the database
 * (starting the embedded server), migrates and seeds it and runs the background jobs; it serves no
 * HTTP. It forks the workers, which share the listening port (node's cluster hands each connection
 * to one of them) and serve every route: they skip the store's preparation and submit jobs for the
 * primary to run.
 *
 * The start overlaps: the primary forks the workers as soon as the store is migrated, and they load
 * their modules, connect and build the app while the primary simulates and loads the market (the
 * first start's long part). Each then says it is waiting, and listens only when the primary answers
 * `serve`: once the market is loaded and the job queue installed, so that no route answers over a
 * market half loaded. A worker forked later (a replacement) is answered at once. Each worker counts the request limits for itself (the spec's "per API process"),
 * or with LIMIT_SCOPE=cluster leases batches of places from the primary's one limiter
 * (cluster-limiter.ts), or with LIMIT_SCOPE=deployment from the primary's lessor of the store
 * (limits/deployment-lessor.ts: one count for every machine on the database).
 *
 * A worker that dies is replaced; one that fails before it listens stops the start. On SIGTERM or
 * SIGINT the primary asks each worker to stop (it stops accepting, finishes its requests within
 * the shutdown grace and flushes its request log; one not listening yet gets SIGTERM), waits for
 * them, then stops the jobs and the database. A worker whose primary is gone exits. The database
 * going away ends neither: the primary's supervisor restarts the embedded server and every process
 * reconnects (db-server/watch.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import { clockOffset, offsetClock } from './clock.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/connection.js';
import { ClusterLimiterClient, serveLimits } from './limits/cluster-limiter.js';
import { ClusterStreamPeers, StreamClaimRelay } from './stream/peers.js';
import type { Logger } from './logging.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { startDeploymentLessor, startService, type RunningService, type StartOptions } from './server.js';
import { DeploymentLessor, type WindowLessor } from './limits/deployment-lessor.js';
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
 * trades allocates many short-lived strings; a larger nursery scavenges less often (bench/trades
 * measures it). A --max-semi-space-size given to node (its command line) comes later and wins.
 */
const WORKER_SEMI_SPACE_MB = 32;

export interface RunningCluster {
  /** The primary's service: database, jobs and limits, no HTTP server. */
  service: RunningService;
  url: string;
  workers: number;
  stop(): Promise<void>;
}

/**
 * The start and stop protocol over the IPC channel: a worker built and waiting to listen says
 * `waiting`, the primary answers `serve` once the data is ready; `stop` asks a worker to stop.
 * `database-down`: a process found the database down (a worker's probe, the primary's supervisor);
 * the primary tells every worker, which marks it down too (db/connection.ts) and answers 503 at
 * once until its own probes find it back.
 */
interface ClusterMessage {
  oads: 'waiting' | 'serve' | 'stop' | 'database-down';
  /** Why the database was found down (database-down). */
  reason?: string;
}

function isMessage(message: unknown, kind: ClusterMessage['oads']): message is ClusterMessage {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === kind;
}

/** The connections of each worker's request pool: its share of config.databasePoolSize. */
export function workerPoolSize(config: Readonly<Config>): number {
  return Math.max(1, Math.ceil(config.databasePoolSize / config.webWorkers));
}

/**
 * Prepares the store, forks config.webWorkers HTTP workers as soon as it is migrated, seeds the
 * market and starts the jobs meanwhile, then lets the workers listen; resolves once every worker
 * listens.
 */
export async function startClusterPrimary(config: Readonly<Config>, options: StartOptions & { logger: Logger }): Promise<RunningCluster> {
  const limiter = new RateLimiter(config.limits);
  // The service's clock (clock.ts): its offset fixed once, here, and handed to every worker.
  const offset = clockOffset(config);
  const clock = offsetClock(offset);
  // LIMIT_SCOPE=deployment: the workers lease from the store through this primary (made once the store is migrated).
  const lessorOf =
    config.limitScope === 'cluster'
      ? () => limiter
      : config.limitScope === 'deployment'
        ? (database: DatabaseHandle) => startDeploymentLessor(config, database, clock, options.logger)
        : null;
  const workers = new HttpWorkers(config, lessorOf, offset, clock, options.logger);
  cluster.setupPrimary({ execArgv: [`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`, ...process.execArgv] });
  let service: RunningService | null = null;
  try {
    service = await startService(config, {
      ...options,
      clock,
      limiter,
      listen: false,
      onStorePrepared: (database) => workers.start(database),
    });
    await workers.serve();
  } catch (error) {
    workers.kill();
    await service?.stop();
    throw error;
  }
  const primary = service;
  workers.replaceTheDead();
  return {
    service: primary,
    url: workers.url,
    workers: config.webWorkers,
    stop: async () => {
      await workers.stop();
      await primary.stop();
    },
  };
}

/**
 * The primary's HTTP workers: forked once the store is prepared, each told to serve once the data
 * is ready (the workers say when they wait), replaced when one dies, stopped on the way out.
 */
class HttpWorkers {
  private stopping = false;
  private serving = false;
  private readonly waiting = new Set<Worker>();
  private readonly releases = new Map<Worker, () => void>();
  /** The workers whose server listens (the cluster's `listening`): only those can hold requests. */
  private readonly listening = new WeakSet<Worker>();
  /** What the workers lease from (lessorOf's), once the store is prepared. */
  private sharedLimiter: WindowLessor | null = null;
  /** A stream resumed on another worker than the one holding it is handed over between them. */
  private readonly streamClaims = new StreamClaimRelay(() =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined),
  );
  /** Workers use the primary's database (the embedded server's URL when it started one). */
  private env: Record<string, string> = {};
  /**
   * Each worker's start: listening, or failed by exiting first. Handled at once (a worker may die
   * while the market loads) and awaited once the primary is ready.
   */
  private started: Promise<unknown>[] = [];
  /** The shared port's URL, once a worker listens. */
  url = '';

  /**
   * `lessorOf`: the limits every worker asks, made once the store is prepared: the primary's
   * RateLimiter (LIMIT_SCOPE=cluster) or its lessor of the store (deployment); null (process);
   * `clockOffset`: the service's clock's offset from the wall clock, which every worker reads too.
   */
  constructor(
    private readonly config: Readonly<Config>,
    private readonly lessorOf: ((database: DatabaseHandle) => WindowLessor) | null,
    private readonly clockOffset: number,
    private readonly clock: () => number,
    private readonly logger: Logger,
  ) {}

  /** Forks config.webWorkers workers over `database`. */
  start(database: DatabaseHandle): void {
    database.onDown((reason) => this.databaseDown(reason, null));
    this.sharedLimiter = this.lessorOf?.(database) ?? null;
    this.env = {
      DATABASE_URL: database.connectionString,
      ...(this.clockOffset === 0 ? {} : { CLOCK_OFFSET_MS: String(this.clockOffset) }),
    };
    this.started = Array.from({ length: this.config.webWorkers }, () => this.fork()).map((worker) => {
      const listening = new Promise<void>((resolve, reject) => {
        const failed = (code: number | null) => reject(new Error(`HTTP worker ${worker.id} exited with ${code} before it listened`));
        worker.once('exit', failed);
        worker.once('listening', (address) => {
          worker.off('exit', failed);
          this.url = `http://${this.config.host}:${address.port}`;
          resolve();
        });
      });
      listening.catch(() => undefined);
      return listening;
    });
  }

  /** Tells the waiting workers to serve, and any that waits from now on; resolves once every one forked listens. */
  async serve(): Promise<void> {
    this.serving = true;
    for (const worker of this.waiting) this.serveOne(worker);
    this.waiting.clear();
    await Promise.all(this.started);
  }

  /** After a failed start: every worker killed, none replaced. */
  kill(): void {
    this.stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGKILL');
  }

  /** From now on a worker that dies is replaced (after RESPAWN_MS), until stop. */
  replaceTheDead(): void {
    cluster.on('exit', (worker, code, signal) => {
      this.releases.get(worker)?.();
      this.releases.delete(worker);
      if (this.stopping) return;
      this.logger.error('HTTP worker exited; replacing it', { worker: worker.id, code, signal });
      setTimeout(() => {
        if (!this.stopping) this.fork();
      }, RESPAWN_MS).unref();
    });
  }

  /**
   * Asks each running worker to stop and waits for it, killing one still running after the grace and
   * margin. A worker not listening yet (forked to replace a dead one, still loading) holds no request:
   * it gets SIGTERM, as its own stop signal, since a `stop` message sent while it loads its modules,
   * before anything of it listens for one, is lost, and the worker then ran until the grace was over.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    await Promise.all(
      running.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => worker.kill('SIGKILL'), this.config.shutdownGraceMs + WORKER_STOP_MARGIN_MS);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (!this.listening.has(worker)) {
              worker.kill('SIGTERM');
              return;
            }
            try {
              worker.send({ oads: 'stop' } satisfies ClusterMessage);
            } catch {
              worker.kill('SIGTERM');
            }
          }),
      ),
    );
    // A lessor of the store leaves it (its leases expire at once) before the database closes.
    if (this.sharedLimiter instanceof DeploymentLessor) await this.sharedLimiter.stop();
  }

  /** Tells every worker but the one that found it (`from`) that the database is down. */
  private databaseDown(reason: string, from: Worker | null): void {
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker === undefined || worker === from || worker.isDead()) continue;
      worker.send({ oads: 'database-down', reason } satisfies ClusterMessage, undefined, () => undefined);
    }
  }

  private fork(): Worker {
    const worker = cluster.fork(this.env);
    worker.once('listening', () => this.listening.add(worker));
    if (this.sharedLimiter !== null) this.releases.set(worker, serveLimits(this.sharedLimiter, worker, this.clock).releaseAll);
    worker.on('message', (message) => {
      this.streamClaims.heard(worker, message);
      if (isMessage(message, 'database-down')) {
        this.databaseDown(message.reason ?? 'found down by another worker', worker);
        return;
      }
      if (!isMessage(message, 'waiting')) return;
      if (this.serving) this.serveOne(worker);
      else this.waiting.add(worker);
    });
    return worker;
  }

  /** A worker that died meanwhile is past answering (its exit is handled by replaceTheDead). */
  private serveOne(worker: Worker): void {
    if (!worker.isDead()) worker.send({ oads: 'serve' } satisfies ClusterMessage, undefined, () => undefined);
  }
}

/**
 * An HTTP worker of the cluster: the whole API on the shared port, over the database the primary
 * prepared, with limits of its own or the primary's (LIMIT_SCOPE). Stops when the primary asks, on
 * a stop signal of its own (a Ctrl-C reaches the whole process group), or when the primary is gone.
 */
export async function startClusterWorker(config: Readonly<Config>, options: StartOptions & { logger: Logger }): Promise<RunningService> {
  const channel = process as unknown as NodeJS.Process & { send(message: unknown): boolean };
  // The primary's `stop` is heard from the start: one that comes after the server listens but before
  // the start is over (the streams' connection is opened then) is carried out once it has started.
  // Heard only after the start, it was lost, and the primary waited out the shutdown grace and its
  // margin before killing the worker. (A worker not listening yet gets SIGTERM instead: HttpWorkers.stop.)
  const stopAsked = new Promise<void>((resolve) => {
    const asked = (message: unknown): void => {
      if (!isMessage(message, 'stop')) return;
      process.off('message', asked);
      resolve();
    };
    process.on('message', asked);
  });
  // Listening before saying so, so that the answer is not missed; a primary gone first ends the start.
  const serveWhen = new Promise<void>((resolve, reject) => {
    const heard = (message: unknown): void => {
      if (!isMessage(message, 'serve')) return;
      process.off('message', heard);
      process.off('disconnect', gone);
      resolve();
    };
    const gone = (): void => reject(new Error('the primary went away before the data was ready'));
    process.on('message', heard);
    process.once('disconnect', gone);
  });
  // Awaited by startService once the app is built; a rejection before then is not unhandled.
  serveWhen.catch(() => undefined);
  channel.send({ oads: 'waiting' } satisfies ClusterMessage);
  // The primary's clock: its offset came in CLOCK_OFFSET_MS (config.clockOffsetMs).
  const clock = options.clock ?? offsetClock(clockOffset(config));
  const service = await startService(config, {
    serveWhen,
    ...options,
    clock,
    prepareStore: false,
    seedMarket: false,
    jobs: 'submit',
    limiter: config.limitScope === 'process' ? new RateLimiter(config.limits) : new ClusterLimiterClient(channel, clock),
    poolSize: workerPoolSize(config),
    streamPeers: new ClusterStreamPeers(channel),
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
  // The database found down here is told to the primary, for the other workers; found elsewhere, marked here.
  service.database.onDown((reason) => {
    if (process.connected) channel.send({ oads: 'database-down', reason } satisfies ClusterMessage);
  });
  void stopAsked.then(() => stop(0));
  process.on('message', (message) => {
    if (isMessage(message, 'database-down')) service.database.markDown(message.reason ?? 'found down by another process');
  });
  process.on('disconnect', () => stop(1));
  void stopSignal().then(() => stop(0));
  return service;
}
