/**
 * Starts the whole service (database, migrations, seeding, jobs, HTTP) and stops it cleanly. One
 * start serves three roles through its options: a single process does everything; a cluster's
 * primary (listen false) prepares the store and runs the jobs but serves no HTTP; a cluster's HTTP
 * worker (prepareStore false, jobs 'submit') serves over the store the primary prepared and only
 * submits jobs for the primary to run.
 *
 * A stop stops accepting connections, lets the requests in flight finish (for up to
 * config.shutdownGraceMs; those still running then are cut), flushes the request log, stops the
 * jobs, then closes the database (and stops the embedded server).
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import fs from 'node:fs';
import PgBoss from 'pg-boss';
import path from 'node:path';
import { createApp, type AppOptions } from './app.js';
import { clockOffset, offsetClock } from './clock.js';
import type { Config } from './config.js';
import { loadApiContract } from './api-contract/openapi.js';
import { openDatabase, poolCounts, type DatabaseHandle } from './db/connection.js';
import { holdDeploymentLock } from './db/duties.js';
import { migrateToLatest } from './db/migrate.js';
import { ReplicaSet } from './db/replicas.js';
import { ensureSetting } from './db/settings.js';
import { handlerMap } from './handlers/index.js';
import { answerClientError } from './middleware/client-errors.js';
import type { HandlerOverrides } from './handlers/types.js';
import type { OperationId } from './api-contract/openapi.js';
import { startJobs } from './jobs/index.js';
import { jobQueue, QUEUES } from './jobs/queue.js';
import { onFileLoaded } from './ingest/ledger.js';
import { answerMetricsRequests, Metrics, serveMetrics } from './metrics.js';
import { CursorCodec } from './services/cursor.js';
import { QueryValidator } from './parameters/index.js';
import { ServiceMemos } from './services/memos.js';
import type { NowAnswers } from './services/now-answers.js';
import { ValuationPool } from './services/valuation-pool.js';
import { databaseRepositories } from './services/repositories.js';
import { createLogger, type Logger } from './logging.js';
import { RateLimiter, type Limiter } from './limits/rate-limiter.js';
import { ClusterLimiterClient, loopbackChannels, serveLimits } from './limits/cluster-limiter.js';
import { DeploymentLessor } from './limits/deployment-lessor.js';
import { limitStore } from './db/limits.js';
import { RequestLogBuffer } from './request-log.js';
import { seedOptionRoots } from './db/option-contracts.js';
import { seedMarketIfEmpty, startSimulation } from './ingest/seed-market.js';
import { seedSplits } from './seed.js';
import type { ServiceDeps } from './service.js';
import { StreamGateway } from './stream/gateway.js';
import type { StreamPeers } from './stream/peers.js';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './api-contract/stream-protocol.js';
import { asyncApiDocument } from './stream/asyncapi.js';
import type { ReplayOptions } from './stream/replay.js';

/** How long a stop waits for running jobs (pg-boss's graceful stop) before it closes the database. */
const JOBS_STOP_MS = 5_000;

/**
 * Follows the responses in flight on `server`, so that a stop can wait for them: once draining,
 * each response asks its client to close the connection, and a connection is closed as soon as it
 * is idle, so keep-alive clients do not hold the server open.
 */
function drainable(server: Server, logger: Logger): (graceMs: number) => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  // Before express's listener, so that a response answered at once is followed too.
  server.prependListener('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) server.closeIdleConnections();
    });
  });
  return async (graceMs) => {
    draining = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        logger.error('shutdown grace over; cutting the requests still in flight', { requests: inFlight.size, grace_ms: graceMs });
        server.closeAllConnections();
      }, graceMs);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
  };
}

/**
 * A queue client without workers, supervision or schedules: it submits jobs (exports, session
 * loads) that the process running startJobs() picks up.
 */
async function startJobClient(connectionString: string, logger: Logger): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString,
    application_name: 'oads-jobs-client',
    max: 2,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  boss.on('error', (error) => logger.error('job queue error', { error: error.message }));
  await boss.start();
  return boss;
}

export interface RunningService {
  deps: ServiceDeps;
  database: DatabaseHandle;
  /** Null for a cluster's primary, which serves no HTTP. */
  server: Server | null;
  url: string;
  /** The metrics server's URL (GET /metrics), or null when this process serves none (metrics.ts). */
  metricsUrl: string | null;
  app: ReturnType<typeof createApp>;
  /** GET /v1/stream (null without an HTTP server). */
  streams: StreamGateway | null;
  stop(): Promise<void>;
}

export interface StartOptions extends AppOptions {
  /** Replace handlers (tests): for example one that sleeps, to test the time-out. */
  handlers?: HandlerOverrides;
  logger?: Logger;
  /** The service's clock (default: from config.clockStart, clock.ts; the wall clock when unset). */
  clock?: () => number;
  /**
   * Start pg-boss workers (true; off in most tests), or only a queue client that submits jobs for
   * another process to run ('submit': a cluster's HTTP worker).
   */
  jobs?: boolean | 'submit';
  /** Simulate and load the market when the store holds no print (first start of `make run`). */
  seedMarket?: boolean;
  /**
   * False for a cluster's HTTP worker: its primary has migrated and seeded the database (and made
   * the cursor secret) before forking it.
   */
  prepareStore?: boolean;
  /** Serve HTTP (false for a cluster's primary). */
  listen?: boolean;
  /**
   * Called by the process that prepares the store once it is migrated (and the splits loaded),
   * before the market is simulated and loaded: a cluster's primary forks its HTTP workers then, so
   * that they start while the market loads.
   */
  onStorePrepared?: (database: DatabaseHandle) => void;
  /**
   * A cluster's HTTP worker: waited for once the app is built, before the job client starts and the
   * server listens (the primary's word that the market is loaded and the job queue installed).
   */
  serveWhen?: Promise<void>;
  /** The request limits (default: a RateLimiter of this process). */
  limiter?: Limiter;
  /** Connections of the request pool (default: config.databasePoolSize). */
  poolSize?: number;
  /** The streams' limits (tests lower them; default: api-contract/stream-protocol.ts). */
  streamLimits?: Partial<StreamLimits>;
  /** The streams' replay (default: from config.liveMode and config.replaySpeed). */
  replay?: ReplayOptions | null;
  /** A cluster's HTTP worker: the other workers, to which a stream resumed here may belong (stream/peers.ts). */
  streamPeers?: StreamPeers;
}

function replayOf(config: Readonly<Config>): ReplayOptions | null {
  if (config.liveMode === 'off') return null;
  return { speed: config.replaySpeed, when: config.liveMode === 'replay' ? 'always' : 'outside_hours' };
}

export async function startService(config: Readonly<Config>, options: StartOptions = {}): Promise<RunningService> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? offsetClock(clockOffset(config));
  const prepare = options.prepareStore !== false;
  const { database, simulation } = await openStore(config, options, clock, logger);
  const metrics = new Metrics();
  metrics.watchPool('api', () => poolCounts(database.db));
  metrics.watchPool('admin', () => poolCounts(database.admin));
  const stopFollowingLoads = onFileLoaded((kind, rows, seconds) => metrics.ingested(kind, rows, seconds));
  let boss: PgBoss | null = null;
  let metricsServer: Server | null = null;
  let valuation: ValuationPool | null = null;
  let replicaSet: ReplicaSet | null = null;
  const stopAnsweringMetrics = cluster.isWorker ? answerMetricsRequests(metrics) : () => undefined;
  try {
    if (prepare) await prepareStore(database, config, options, clock, logger, simulation);
    const handlers = handlerMap(options.handlers);
    const { deps, requestLog, lessor } = await serviceDeps(database, config, options, handlers, metrics, clock, logger);
    valuation = deps.valuation ?? null;
    replicaSet = deps.replicas;
    if (deps.replicas) metrics.watchReplicas(deps.replicas);
    // The app (its validators compile the contract's schemas: seconds of CPU) is built for a process
    // that serves, before the jobs, which it reads at run time only: a cluster's worker builds it
    // while the market loads. A cluster's primary, which serves nothing, builds it only if asked.
    let app: ReturnType<typeof createApp> | null = null;
    const appOf = (): ReturnType<typeof createApp> => (app ??= createApp(deps, handlers, options));
    if (options.listen !== false) appOf();
    if (options.serveWhen) await options.serveWhen;
    boss = await startJobRole(options.jobs, database, deps, handlers, metrics, clock, logger);
    // A cluster's workers answer their primary, which serves the metrics of all (metrics.ts).
    if (config.metricsPort !== null && !cluster.isWorker) metricsServer = await serveMetrics(metrics, config.host, config.metricsPort);
    const server = options.listen === false ? null : await listen(appOf().express, config);
    const streams = server === null ? null : await startStreams(server, deps, appOf().keys, config, options, database.connectionString);
    // A process that serves keeps its answers at "now" between the notices of the writes that can
    // change them (services/now-answers.ts), and drops them at its own loads too.
    const stopNoticingLoads = server === null ? () => undefined : onFileLoaded(() => deps.memos.now.bump());
    if (server !== null) deps.memos.now.listen(database.connectionString, logger);
    const drain = server ? drainable(server, logger) : null;
    const address = server?.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const metricsAddress = metricsServer?.address();
    const stoppable: Stoppable = {
      replicas: deps.replicas,
      streams,
      drain,
      requestLog,
      boss,
      stopFollowingLoads: () => {
        stopFollowingLoads();
        stopNoticingLoads();
      },
      stopAnsweringMetrics,
      nowAnswers: deps.memos.now,
      metricsServer,
      database,
      valuation,
      lessor,
    };
    return {
      deps,
      database,
      server,
      url: server ? `http://${config.host}:${port}` : '',
      get app() {
        return appOf();
      },
      metricsUrl: typeof metricsAddress === 'object' && metricsAddress ? `http://${config.host}:${metricsAddress.port}/metrics` : null,
      streams,
      stop: () => stopService(stoppable, config.shutdownGraceMs),
    };
  } catch (error) {
    await simulation?.stop();
    stopFollowingLoads();
    stopAnsweringMetrics();
    metricsServer?.close();
    await valuation?.stop();
    await replicaSet?.close();
    if (boss) await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the database. The first start on a new embedded database holds no print, so the market
 * will be seeded: the simulator starts first and writes while PostgreSQL is made and migrated
 * (seconds of the start); it is stopped if the database does not open.
 */
async function openStore(
  config: Readonly<Config>,
  options: StartOptions,
  clock: () => number,
  logger: Logger,
): Promise<{ database: DatabaseHandle; simulation: ReturnType<typeof startSimulation> | undefined }> {
  const embeddedDir = path.join(config.dataDir, 'pg');
  const simulation =
    options.prepareStore !== false && options.seedMarket && config.databaseUrl === null && !fs.existsSync(embeddedDir)
      ? startSimulation({ dataDir: config.dataDir, now: clock(), log: (line) => logger.info(line) })
      : undefined;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolerUrl: config.databasePoolerUrl,
    embeddedDir,
    embeddedPort: config.embeddedPostgresPort,
    poolSize: options.poolSize ?? config.databasePoolSize,
    statementTimeoutMs: config.limits.endpointTimeoutMs,
    hangMs: config.databaseHangMs,
    logger,
  }).catch(async (error: unknown) => {
    await simulation?.stop();
    throw error;
  });
  return { database, simulation };
}

/** Migrates and seeds the store (option roots, splits when configured), then, when asked, the simulated market. */
async function prepareStore(
  database: DatabaseHandle,
  config: Readonly<Config>,
  options: StartOptions,
  clock: () => number,
  logger: Logger,
  simulation: ReturnType<typeof startSimulation> | undefined,
): Promise<void> {
  await migrateToLatest(database.admin);
  await seedOptionRoots(database.admin);
  if (config.seedOnStart) await seedSplits(database.admin);
  options.onStorePrepared?.(database);
  if (options.seedMarket) {
    // Machines started together on an empty database: one simulates and loads the market, the
    // others wait for it and then find prints stored.
    const release = await holdDeploymentLock(database.connectionString, 'seed-market', () =>
      logger.info('waiting for another machine seeding the market'),
    );
    try {
      const seeded = await seedMarketIfEmpty(
        database.admin,
        { dataDir: config.dataDir, now: clock(), log: (line) => logger.info(line) },
        simulation,
      );
      if (seeded.seeded) logger.info('simulated market loaded', { files: seeded.files, prints: seeded.prints });
    } finally {
      await release();
    }
  }
}

/** What the handlers are given (jobs set once the queue starts), and the request log they write to. */
async function serviceDeps(
  database: DatabaseHandle,
  config: Readonly<Config>,
  options: StartOptions,
  handlers: ReturnType<typeof handlerMap>,
  metrics: Metrics,
  clock: () => number,
  logger: Logger,
): Promise<{ deps: ServiceDeps; requestLog: RequestLogBuffer; lessor: DeploymentLessor | null }> {
  const secret = await ensureSetting(database.admin, 'cursor_secret', randomBytes(32).toString('base64'));
  const requestLog = new RequestLogBuffer(database.admin, config.requestLogFlushMs, logger);
  // One process of a deployment (LIMIT_SCOPE=deployment): its requests lease from the store as a
  // cluster's workers do, through the same lease book over an in-process channel.
  let deploymentLimiter: Limiter | null = null;
  let lessor: DeploymentLessor | null = null;
  if (options.limiter === undefined && config.limitScope === 'deployment') {
    lessor = startDeploymentLessor(config, database, clock, logger);
    const [served, client] = loopbackChannels();
    serveLimits(lessor, served, clock);
    deploymentLimiter = new ClusterLimiterClient(client, clock);
  }
  const contract = loadApiContract();
  let asyncApi: Record<string, unknown> | null = null;
  // The read replicas (DATABASE_REPLICA_URLS): polled once before the first request, so that reads
  // go to them from the start; none configured, the reads are the primary's.
  const replicas =
    config.databaseReplicaUrls.length === 0
      ? null
      : new ReplicaSet(database.db, {
          urls: config.databaseReplicaUrls,
          poolSize: options.poolSize ?? config.databasePoolSize,
          statementTimeoutMs: config.limits.endpointTimeoutMs,
          logger,
        });
  await replicas?.start();
  const reads = replicas?.reads ?? database.db;
  const deps: ServiceDeps = {
    config,
    db: database.db,
    reads,
    replicas,
    repositories: databaseRepositories(database.db, reads),
    memos: new ServiceMemos(),
    valuation: ValuationPool.create(config.valuationThreads, logger),
    apiContract: contract,
    logger,
    metrics,
    limiter: options.limiter ?? deploymentLimiter ?? new RateLimiter(config.limits),
    requestLog,
    cursors: new CursorCodec(Buffer.from(secret, 'base64')),
    clock,
    startedAt: clock(),
    queries: new QueryValidator(contract),
    served: new Set(contract.operations.map((o) => o.operationId).filter((id: OperationId) => handlers[id] !== undefined)),
    asyncApi: () => (asyncApi ??= asyncApiDocument(contract, DEFAULT_STREAM_LIMITS, config.version)),
    jobs: null,
  };
  return { deps, requestLog, lessor };
}

/**
 * The deployment's limits in the store for this machine (LIMIT_SCOPE=deployment): a lessor that
 * beats and listens for recalls; its offset is the service clock's from the wall clock.
 */
export function startDeploymentLessor(
  config: Readonly<Config>,
  database: DatabaseHandle,
  clock: () => number,
  logger: Logger,
): DeploymentLessor {
  const lessor = new DeploymentLessor(
    limitStore(database.db, database.connectionString),
    config.limits,
    clock,
    Math.round(clock() - Date.now()),
    (message, fields) => logger.info(message, fields ?? {}),
  );
  lessor.start().catch(() => undefined);
  return lessor;
}

/**
 * The process's part in the job queue: a client that only submits (a cluster's HTTP worker), the
 * workers themselves, or none; sets deps.jobs and returns the queue to stop, if any.
 */
async function startJobRole(
  role: StartOptions['jobs'],
  database: DatabaseHandle,
  deps: ServiceDeps,
  handlers: ReturnType<typeof handlerMap>,
  metrics: Metrics,
  clock: () => number,
  logger: Logger,
): Promise<PgBoss | null> {
  if (role === 'submit') {
    const boss = await startJobClient(database.connectionString, logger);
    deps.jobs = jobQueue(boss);
    return boss;
  }
  if (role === false) return null;
  const jobs = await startJobs(database.connectionString, {
    admin: database.admin,
    logger,
    clock,
    archiveDir: deps.config.archiveDir,
    service: { deps, handlers },
  });
  deps.jobs = jobQueue(jobs);
  metrics.watchQueues(
    async () => new Map(await Promise.all(Object.values(QUEUES).map(async (queue) => [queue, await jobs.getQueueSize(queue)] as const))),
  );
  return jobs;
}

function listen(express: ReturnType<typeof createApp>['express'], config: Readonly<Config>): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const s = express.listen(config.port, config.host, () => resolve(s));
    s.on('error', reject);
  });
}

/** Sets the server's HTTP behaviour and starts the streams on it (GET /v1/stream); the server is closed if they fail. */
async function startStreams(
  server: Server,
  deps: ServiceDeps,
  keys: ReturnType<typeof createApp>['keys'],
  config: Readonly<Config>,
  options: StartOptions,
  connectionString: string,
): Promise<StreamGateway> {
  server.keepAliveTimeout = 65_000;
  // Oversize headers, a request that is not HTTP, a request not received in time: the JSON error body, not node's bare status line.
  server.on('clientError', (error: Error & { code?: string }, socket) => answerClientError(error, socket, deps.clock));
  const streams = new StreamGateway(
    deps,
    keys,
    { ...DEFAULT_STREAM_LIMITS, ...options.streamLimits },
    options.replay === undefined ? replayOf(config) : options.replay,
    options.streamPeers ?? null,
  );
  try {
    await streams.start(server, connectionString);
  } catch (error) {
    server.close();
    throw error;
  }
  return streams;
}

/** What a stop stops. */
interface Stoppable {
  /** The read replicas' pools and polls, closed with the database. */
  replicas: ReplicaSet | null;
  streams: StreamGateway | null;
  drain: ((graceMs: number) => Promise<void>) | null;
  requestLog: RequestLogBuffer;
  boss: PgBoss | null;
  stopFollowingLoads: () => void;
  stopAnsweringMetrics: () => void;
  /** The answers at "now" and their notices' connection, closed before the database. */
  nowAnswers: NowAnswers;
  metricsServer: Server | null;
  database: DatabaseHandle;
  /** The valuation threads, stopped once the requests are drained (the jobs' valuations, the book valuer's, finish first). */
  valuation: ValuationPool | null;
  /** The deployment's limits of a one-process machine (LIMIT_SCOPE=deployment): it leaves the store before the database closes. */
  lessor: DeploymentLessor | null;
}

async function stopService(s: Stoppable, graceMs: number): Promise<void> {
  await s.streams?.stop();
  if (s.drain) await s.drain(graceMs);
  // The database closes (and an embedded server is waited for until it has exited) even when
  // a step before fails.
  try {
    await s.requestLog.flush();
    if (s.boss) await s.boss.stop({ graceful: true, wait: true, timeout: JOBS_STOP_MS });
  } finally {
    await s.valuation?.stop();
    s.stopFollowingLoads();
    s.stopAnsweringMetrics();
    const served = s.metricsServer;
    if (served) await new Promise((resolve) => served.close(resolve));
    await s.nowAnswers.stop();
    await s.replicas?.close();
    await s.lessor?.stop();
    await s.database.close();
  }
}
