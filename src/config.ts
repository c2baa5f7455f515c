/**
 * Deployment configuration, read from the environment once at boot into a frozen object.
 * Nothing else in the service reads `process.env`. A bad variable fails the boot, naming every one.
 */
import os from 'node:os';
import path from 'node:path';

export interface Limits {
  requestsPerMinute: number;
  requestsPerSecond: number;
  requestsInFlight: number;
  keylessRequestsPerMinute: number;
  /** 429s within a minute after which an account that keeps sending is cooled down. */
  cooldownAfterRejections: number;
  cooldownMs: number;
  endpointTimeoutMs: number;
  exportsQueuedOrRunning: number;
  /** Rows and bytes of a JSON export file at most (the spec's 100,000 rows and 64 MiB). */
  exportMaxRows: number;
  exportMaxBytes: number;
  /**
   * Rows and bytes of a csv or parquet export file at most, the bytes counted as stored (gzip or
   * Parquet): room for a whole full-scale trading date of the SPX family's prints (jobs/export.ts
   * writes them streaming, so these caps bound the file, not the memory).
   */
  exportFlatMaxRows: number;
  exportFlatMaxBytes: number;
  exportMaxQueryParams: number;
  /**
   * Bytes of export files an account may hold (ready files not yet deleted at their expiry), by
   * plan: at the cap a new export is refused 429 export_limit until a file expires.
   */
  exportBytesHeld: { basic: number; pro: number };
  /**
   * Free bytes the disk of DATA_DIR keeps for the service: below them new exports are refused 503
   * upstream_busy, queued ones wait, and /v1/status says exports are paused.
   */
  exportDiskFloorBytes: number;
}

export interface Config {
  host: string;
  port: number;
  /** Set: use this PostgreSQL server. Unset: start the embedded one in `dataDir/pg`. */
  databaseUrl: string | null;
  /**
   * Read replicas of the primary (DATABASE_REPLICA_URLS, comma-separated; empty: none). The reads
   * that tolerate lag go to them by the rule of db/replicas.ts; needs databaseUrl.
   */
  databaseReplicaUrls: readonly string[];
  /**
   * DATABASE_POOLER_URL: a PgBouncer in transaction mode in front of the primary (null: none). The
   * request pools (each process's `db`) connect through it; what needs a session (LISTEN/NOTIFY,
   * advisory locks, migrations, pg-boss, the admin and health pools) keeps DATABASE_URL. Needs databaseUrl.
   */
  databasePoolerUrl: string | null;
  dataDir: string;
  /**
   * ARCHIVE_DIR: where sessions older than the hot window are written (ingest/archive.ts), by default
   * DATA_DIR/archive. With several machines, a folder every machine mounts at the same path (the
   * archive job runs on one of them, and a reload on request reads the path it recorded).
   */
  archiveDir: string;
  /**
   * EXPORT_STORE: where finished export files are kept. 'database': in PostgreSQL (db/export-chunks.ts),
   * so any machine serves a download; the default when DATABASE_URL is set (a deployment may have
   * several machines). 'disk': under DATA_DIR/exports, the embedded single machine's default.
   */
  exportStore: 'disk' | 'database';
  embeddedPostgresPort: number;
  /**
   * Connections for API requests, shared out among the HTTP workers (each has its share, rounded
   * up); a cluster's primary keeps its own pool for jobs.
   */
  databasePoolSize: number;
  /**
   * How long an API request waits for a place at its process's database gate (a connection of the
   * request pool, at most a quarter of them per account) before it answers 503 upstream_busy.
   */
  databaseWaitMs: number;
  /**
   * How long the database may leave a statement or a connection unanswered before the process
   * probes it (a new connection and `select 1`), and how long that probe may take: a probe not
   * answered marks the database down, as a dead server is, and cuts the request and status pools'
   * connections waiting on it (db/connection.ts), so that a hung server costs requests this
   * much, not the route deadline.
   */
  databaseHangMs: number;
  /**
   * HTTP worker processes (`make run`, src/main.ts): 1 serves from one process; more fork a
   * cluster whose primary holds the database, the jobs and the request limits.
   */
  webWorkers: number;
  /**
   * Threads per HTTP worker process (services/valuation-pool.ts) that value books and compute the
   * levels, heat map and skew answers a request needs afresh, off the event loop that serves simple
   * reads, dealt round-robin across accounts. 0 computes them on the event loop.
   */
  valuationThreads: number;
  /**
   * Where a cluster's request limits are counted: 'cluster' (the default), once for all the workers
   * by the primary, so an account gets the configured values whichever workers serve it (workers
   * lease window shares from the primary in batches: cluster-limiter.ts); or 'process', each HTTP
   * worker for itself, so that with N workers an account may get up to N times the values; or
   * 'deployment' (the default when DATABASE_URL is set), once for every machine on that database,
   * in the store: each machine's primary leases its workers' batches from PostgreSQL
   * (limits/deployment-lessor.ts), so N machines give an account exactly its plan. Without
   * DATABASE_URL (the embedded server: one machine) the default stays 'cluster', and 'deployment'
   * is refused. With 'deployment', a lease the database cannot answer makes the request answer
   * 503 upstream_busy with Retry-After: no place is granted that the store has not counted.
   */
  limitScope: 'process' | 'cluster' | 'deployment';
  limits: Limits;
  /** Proxy hops whose X-Forwarded-For entries are trusted (0: use the socket peer only). */
  trustProxyHops: number;
  /**
   * PUBLIC_URL: the origin clients reach the service at (`https://api.example.com`), written into
   * the served contract's `servers`, its request samples and the AsyncAPI document's server; null
   * (unset): each document names the origin it was requested at (services/public-url.ts).
   */
  publicUrl: string | null;
  /** Validate every response against the contract (on in tests; costs time in production). */
  validateResponses: boolean;
  /**
   * STAGE_TIMING=true: every /v1 response says in a Server-Timing header how long each stage of
   * its path took (stage-timing.ts; bench/trades reads them). Off by default: nothing is stamped.
   */
  stageTiming: boolean;
  logLevel: 'silent' | 'info';
  /**
   * The port of the Prometheus metrics server (GET /metrics, src/metrics.ts), on `host`; null
   * (METRICS_PORT unset, the default): no metrics server. 0 takes a free port (tests).
   */
  metricsPort: number | null;
  /**
   * Responses of at least this many bytes are compressed (gzip or br, as the client accepts);
   * smaller ones are sent as they are (bench/trades measures both; README, Operations).
   */
  compressionThresholdBytes: number;
  /** Seconds an authenticated key stays cached before it is read again (revocation delay). */
  authCacheTtlMs: number;
  requestLogFlushMs: number;
  requestLogRetentionDays: number;
  /** Seed the demo account and the simulated market on first start. */
  seedOnStart: boolean;
  /**
   * LIVE_MODE. 'live': the simulated market goes on minute by minute while its sessions are open
   * (src/live/), run by the process that holds the database (a cluster's primary), and outside
   * market hours the streams replay the last completed session (stream/replay.ts). 'replay': the
   * streams replay it always and nothing is loaded. 'off': neither. Default 'live' when the
   * simulated market is seeded (SEED_ON_START, `make run`), 'off' otherwise (tests, benchmarks,
   * a store of one's own files).
   */
  liveMode: 'off' | 'live' | 'replay';
  /** The most minutes the live market catches up on a start (those since the last one stored). */
  liveCatchUpMinutes: number;
  /**
   * On SIGTERM or SIGINT, how long requests in flight may take to finish once the service stops
   * accepting new ones; those still running then are cut. The default is the endpoint time-out's
   * default, by which every request has its answer.
   */
  shutdownGraceMs: number;
  /** Replayed time per real time (REPLAY_SPEED: 1 is real time). */
  replaySpeed: number;
  /**
   * CLOCK_START: the instant (Unix ms) at which the service's clock starts, running at real speed
   * from when the service applied it (clock.ts); null (unset): the wall clock.
   */
  clockStart: number | null;
  /**
   * CLOCK_OFFSET_MS: the offset of the service's clock from the wall clock, fixed by a cluster's
   * primary and handed to its HTTP workers (cluster.ts), so that every process reads one clock; it
   * wins over clockStart. Null unless set (a worker of a clock started by CLOCK_START).
   */
  clockOffsetMs: number | null;
  version: string;
}

type Env = Record<string, string | undefined>;

/** An ISO 8601 instant with its offset: a date, a time to the minute at least, and Z or ±hh:mm. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The instants the market calendar covers (analytics/calendar.ts: 2000 to 2035). */
const FIRST_INSTANT = Date.UTC(2000, 0, 1);
const LAST_INSTANT = Date.UTC(2035, 11, 31);
/** The largest clock offset accepted: a century, far beyond any calendar instant. */
const MAX_OFFSET_MS = 100 * 366 * 86_400_000;

/** The default HTTP workers: one per core, at most this many. */
const MAX_DEFAULT_WEB_WORKERS = 4;

class ConfigErrors {
  readonly problems: string[] = [];

  integer(env: Env, name: string, fallback: number, min: number, max: number): number {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  /** An instant given as an ISO 8601 instant with offset, or as Unix ms; null when unset. */
  instant(env: Env, name: string): number | null {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    const value = /^\d+$/.test(raw) ? Number(raw) : ISO_INSTANT.test(raw) ? Date.parse(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < FIRST_INSTANT || value > LAST_INSTANT) {
      this.problems.push(
        `${name} must be an ISO 8601 instant with offset (2026-11-18T10:45:00-05:00) or Unix ms, from 2000 to 2035 (got "${raw}")`,
      );
      return null;
    }
    return value;
  }

  /** An http(s) origin (scheme, host, optional port; no path), without a trailing slash; null when unset. */
  origin(env: Env, name: string): string | null {
    const raw = env[name];
    if (raw === undefined || raw === '') return null;
    const url = URL.canParse(raw) ? new URL(raw) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) {
      this.problems.push(`${name} must be an http or https origin without a path (https://api.example.com:8443; got "${raw}")`);
      return null;
    }
    return url.origin;
  }

  boolean(env: Env, name: string, fallback: boolean): boolean {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const errors = new ConfigErrors();
  const databaseUrl = env.DATABASE_URL && env.DATABASE_URL !== '' ? env.DATABASE_URL : null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    errors.problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  // Zero or more read replicas of the primary, comma-separated (db/replicas.ts routes reads to them).
  const databaseReplicaUrls = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const url of databaseReplicaUrls) {
    if (!/^postgres(ql)?:\/\//.test(url))
      errors.problems.push('DATABASE_REPLICA_URLS must be postgres:// or postgresql:// URLs, comma-separated');
  }
  if (databaseReplicaUrls.length > 0 && databaseUrl === null) {
    errors.problems.push('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary they replicate): the embedded server has no replica');
  }
  const databasePoolerUrl = env.DATABASE_POOLER_URL && env.DATABASE_POOLER_URL !== '' ? env.DATABASE_POOLER_URL : null;
  if (databasePoolerUrl !== null && !/^postgres(ql)?:\/\//.test(databasePoolerUrl)) {
    errors.problems.push('DATABASE_POOLER_URL must be a postgres:// or postgresql:// URL');
  }
  if (databasePoolerUrl !== null && databaseUrl === null) {
    errors.problems.push('DATABASE_POOLER_URL needs DATABASE_URL (the primary it pools, for the session connections)');
  }
  const logLevel = env.LOG_LEVEL || 'info';
  // With DATABASE_URL several machines may share the database: their limits are counted in it by
  // default. The embedded server is one machine's: its cluster's primary counts them, as always.
  const limitScope = env.LIMIT_SCOPE || (databaseUrl !== null ? 'deployment' : 'cluster');
  if (limitScope !== 'process' && limitScope !== 'cluster' && limitScope !== 'deployment')
    errors.problems.push('LIMIT_SCOPE must be process, cluster or deployment');
  if (limitScope === 'deployment' && databaseUrl === null)
    errors.problems.push('LIMIT_SCOPE=deployment needs DATABASE_URL (the store the machines share)');
  if (logLevel !== 'silent' && logLevel !== 'info') errors.problems.push('LOG_LEVEL must be silent or info');
  const seedOnStart = errors.boolean(env, 'SEED_ON_START', true);
  const liveMode = env.LIVE_MODE || (seedOnStart ? 'live' : 'off');
  if (liveMode !== 'off' && liveMode !== 'live' && liveMode !== 'replay') errors.problems.push('LIVE_MODE must be off, live or replay');
  const exportStore = env.EXPORT_STORE || (databaseUrl === null ? 'disk' : 'database');
  if (exportStore !== 'disk' && exportStore !== 'database') errors.problems.push('EXPORT_STORE must be disk or database');

  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: errors.integer(env, 'PORT', 8080, 0, 65535),
    databaseUrl,
    databasePoolerUrl,
    databaseReplicaUrls,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    archiveDir: path.resolve(env.ARCHIVE_DIR || path.join(env.DATA_DIR || '.data', 'archive')),
    exportStore: exportStore as Config['exportStore'],
    embeddedPostgresPort: errors.integer(env, 'EMBEDDED_PG_PORT', 54329, 1024, 65535),
    databasePoolSize: errors.integer(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    databaseWaitMs: errors.integer(env, 'DATABASE_WAIT_MS', 2_000, 0, 60_000),
    databaseHangMs: errors.integer(env, 'DATABASE_HANG_MS', 5_000, 100, 60_000),
    webWorkers: errors.integer(env, 'WEB_WORKERS', Math.min(MAX_DEFAULT_WEB_WORKERS, os.availableParallelism()), 1, 64),
    valuationThreads: errors.integer(env, 'VALUATION_THREADS', 1, 0, 16),
    limitScope,
    limits: {
      requestsPerMinute: errors.integer(env, 'LIMIT_PER_MINUTE', 250, 1, 10_000_000),
      requestsPerSecond: errors.integer(env, 'LIMIT_PER_SECOND', 30, 1, 1_000_000),
      requestsInFlight: errors.integer(env, 'LIMIT_IN_FLIGHT', 4, 1, 10_000),
      keylessRequestsPerMinute: errors.integer(env, 'LIMIT_KEYLESS_PER_MINUTE', 60, 1, 10_000_000),
      cooldownAfterRejections: errors.integer(env, 'LIMIT_COOLDOWN_AFTER_REJECTIONS', 30, 1, 1_000_000),
      cooldownMs: errors.integer(env, 'LIMIT_COOLDOWN_MS', 60_000, 0, 3_600_000),
      endpointTimeoutMs: errors.integer(env, 'ENDPOINT_TIMEOUT_MS', 20_000, 10, 600_000),
      exportsQueuedOrRunning: errors.integer(env, 'LIMIT_EXPORTS', 5, 1, 1000),
      exportMaxRows: 100_000,
      exportMaxBytes: 64 * 1024 * 1024,
      exportFlatMaxRows: errors.integer(env, 'EXPORT_FLAT_MAX_ROWS', 3_000_000, 1, 100_000_000),
      exportFlatMaxBytes: errors.integer(env, 'EXPORT_FLAT_MAX_BYTES', 512 * 1024 ** 2, 1024, Number.MAX_SAFE_INTEGER),
      exportMaxQueryParams: 32,
      exportBytesHeld: {
        basic: errors.integer(env, 'LIMIT_EXPORT_BYTES_BASIC', 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
        pro: errors.integer(env, 'LIMIT_EXPORT_BYTES_PRO', 4 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
      },
      exportDiskFloorBytes: errors.integer(env, 'EXPORT_DISK_FLOOR_BYTES', 1024 ** 3, 0, Number.MAX_SAFE_INTEGER),
    },
    trustProxyHops: errors.integer(env, 'TRUST_PROXY', 0, 0, 10),
    publicUrl: errors.origin(env, 'PUBLIC_URL'),
    validateResponses: errors.boolean(env, 'VALIDATE_RESPONSES', false),
    stageTiming: errors.boolean(env, 'STAGE_TIMING', false),
    logLevel,
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : errors.integer(env, 'METRICS_PORT', 0, 0, 65535),
    compressionThresholdBytes: errors.integer(env, 'COMPRESSION_THRESHOLD', 131_072, 0, 1_073_741_824),
    authCacheTtlMs: errors.integer(env, 'AUTH_CACHE_TTL_MS', 5_000, 0, 600_000),
    requestLogFlushMs: errors.integer(env, 'REQUEST_LOG_FLUSH_MS', 1_000, 10, 60_000),
    requestLogRetentionDays: 7,
    seedOnStart,
    liveMode,
    liveCatchUpMinutes: errors.integer(env, 'LIVE_CATCH_UP_MINUTES', 120, 0, 1440),
    shutdownGraceMs: errors.integer(env, 'SHUTDOWN_GRACE_MS', 20_000, 0, 600_000),
    replaySpeed: errors.integer(env, 'REPLAY_SPEED', 60, 1, 10_000),
    clockStart: errors.instant(env, 'CLOCK_START'),
    clockOffsetMs:
      env.CLOCK_OFFSET_MS === undefined || env.CLOCK_OFFSET_MS === ''
        ? null
        : errors.integer(env, 'CLOCK_OFFSET_MS', 0, -MAX_OFFSET_MS, MAX_OFFSET_MS),
    version: '1.0.0',
  } as Config;

  if (errors.problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${errors.problems.join('\n  - ')}`);
  }
  Object.freeze(config.limits.exportBytesHeld);
  Object.freeze(config.limits);
  return Object.freeze(config);
}
