/**
 * The service's metrics in Prometheus's text format (prom-client), served on a port of their own
 * (config.metricsPort; unset: no metrics server), apart from the API so that they need no key,
 * spend no rate limit and are not reachable where only the API port is published.
 *
 * Each process keeps its own registry. In a cluster the primary serves the port and the workers do
 * not listen on it: on each scrape the primary asks every HTTP worker for its metrics over the
 * cluster's IPC channel and adds them to its own with prom-client's AggregatorRegistry.aggregate
 * (counters and histograms summed, so one scrape sees the whole service as one; gauges summed too:
 * the connections in use across all the pools of a kind). A worker that does not answer within
 * WORKER_ANSWER_MS is left out of that scrape rather than failing it.
 */
import cluster, { type Worker } from 'node:cluster';
import http from 'node:http';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';
import type { ReplicaStatus } from './db/replicas.js';

/** Connections of a pg pool, as pg counts them. */
export interface PoolCounts {
  total: number;
  idle: number;
  waiting: number;
}

/** What the metrics read of the read replicas (db/replicas.ts ReplicaSet). */
export interface ReplicaFigures {
  status(): ReplicaStatus[];
  counts: { fallbackLag: number; fallbackFailure: number; fallbackDown: number };
}

/** How long the primary waits for a worker's metrics. */
const WORKER_ANSWER_MS = 2_000;

/** Request durations, seconds: from a cached page (a few ms) to the endpoint time-out (20 s). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];
/** Stream delivery, seconds: a few ms for a small load to a few streams, seconds for a connection-heavy process behind. */
const STREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5];
/** Export durations, seconds: a small export in a second, the largest in minutes. */
const EXPORT_BUCKETS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

export class Metrics {
  readonly registry = new Registry();
  private readonly pools = new Map<string, () => PoolCounts | null>();
  private queueDepths: (() => Promise<Map<string, number>>) | null = null;
  private replicas: ReplicaFigures | null = null;

  /** Responses by route template (`unmatched` outside the contract), method and status. */
  readonly requests = new Counter({
    name: 'oads_http_requests_total',
    help: 'HTTP responses of the API, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly requestDuration = new Histogram({
    name: 'oads_http_request_duration_seconds',
    help: "Time from a request's arrival to its response's end, by route template and method.",
    labelNames: ['route', 'method'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  /** 429s by what refused them (a window, the in-flight cap, a cool-down, a keyless budget: Rejection.kind). */
  readonly limiterRejections = new Counter({
    name: 'oads_limiter_rejections_total',
    help: "Requests refused with 429 by the rate limiter, by kind: in_flight, second, minute, cooldown (an account's limits), keyless_credentials, keyless_public (a client network's budgets without a key).",
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  /** 503s of the database gate: an account's share of the request pool was full for too long. */
  readonly gateRejections = new Counter({
    name: 'oads_database_gate_rejections_total',
    help: 'Requests refused with 503 because no place at the database gate was free in time.',
    registers: [this.registry],
  });

  readonly exportDuration = new Histogram({
    name: 'oads_export_duration_seconds',
    help: 'Duration of export runs, from claim to end, by outcome (ready, failed, retrying, waiting for its data, taken_over by another run).',
    labelNames: ['outcome'] as const,
    buckets: EXPORT_BUCKETS,
    registers: [this.registry],
  });

  /** Stream delivery: a live prints load's commit to its last prints message written to this process's streams (stream/hub.ts). */
  readonly streamLoadDelay = new Histogram({
    name: 'oads_stream_load_delivery_seconds',
    help: "Time from a prints load's commit (the database's clock) to the last of its prints messages written to the sockets of the streams subscribed in this process: what a subscriber waits for a load, less the network. Live loads of the current session only.",
    buckets: STREAM_BUCKETS,
    registers: [this.registry],
  });

  /** Books valued (services/books.ts ensureBook): how long each took, by who valued it. */
  readonly bookValuation = new Histogram({
    name: 'oads_book_valuation_seconds',
    help: 'Time to value and store one book of a family at a minute of data (read its inputs, fit its surface, write it), by who valued it: the valuer (the newest minute of a running session), a request (a minute without a book), or a request in the background (the newest minute, while the previous answered).',
    labelNames: ['by'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20],
    registers: [this.registry],
  });

  /** The valuer's delay: the end of a minute of data to its book mapped (jobs/book-valuer.ts). */
  readonly bookReadyDelay = new Histogram({
    name: 'oads_book_ready_seconds',
    help: "Time from the end of a running session's minute of data to its book being stored and mapped by the valuer (the service's clock): how far the newest book trails the market. The minute's load commits about a second after the minute ends.",
    buckets: [0.5, 1, 1.5, 2, 3, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly ingestRows = new Counter({
    name: 'oads_ingest_rows_total',
    help: 'Rows written to the store by ingest (file loads, session reloads), by kind; its rate is the rows per second.',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly ingestRowsPerSecond = new Gauge({
    name: 'oads_ingest_rows_per_second',
    help: 'Rows per second of the last file loaded, by kind.',
    labelNames: ['kind'] as const,
    // The last load of a kind was run by one process: the others report none.
    aggregator: 'max',
    registers: [this.registry],
  });

  constructor() {
    const pools = this.pools;
    const counts = (read: (c: PoolCounts) => number) =>
      function (this: Gauge<'pool'>): void {
        this.reset();
        for (const [name, source] of pools) {
          const c = source();
          if (c) this.set({ pool: name }, read(c));
        }
      };
    new Gauge({
      name: 'oads_db_pool_connections_in_use',
      help: 'Connections checked out of the database pools, by pool (api: requests; admin: jobs, ingest, the request log).',
      labelNames: ['pool'] as const,
      collect: counts((c) => c.total - c.idle),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_pool_connections_open',
      help: 'Connections open in the database pools, by pool.',
      labelNames: ['pool'] as const,
      collect: counts((c) => c.total),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_pool_waiting',
      help: 'Queries waiting for a connection of the database pools, by pool.',
      labelNames: ['pool'] as const,
      collect: counts((c) => c.waiting),
      registers: [this.registry],
    });
    const depths = () => this.queueDepths;
    new Gauge({
      name: 'oads_job_queue_depth',
      help: 'Jobs waiting in the pg-boss queues (created or retrying, not yet active), by queue.',
      labelNames: ['queue'] as const,
      // Read from the database by the process that runs the jobs: one answer for the service.
      aggregator: 'max',
      async collect(this: Gauge<'queue'>) {
        const read = depths();
        if (!read) return;
        this.reset();
        for (const [queue, depth] of await read()) this.set({ queue }, depth);
      },
      registers: [this.registry],
    });
    const replicas = () => this.replicas;
    const perReplica = (read: (r: ReplicaStatus) => number | null) =>
      function (this: Gauge<'replica'>): void {
        this.reset();
        for (const r of replicas()?.status() ?? []) {
          const value = read(r);
          if (value !== null) this.set({ replica: r.name }, value);
        }
      };
    // Each process polls the same replicas: one answer for the service (max), not a sum.
    new Gauge({
      name: 'oads_db_replica_up',
      help: 'Whether a read replica is in rotation (1) or left out (0), by replica (host:port/database).',
      labelNames: ['replica'] as const,
      aggregator: 'max',
      collect: perReplica((r) => (r.state === 'up' ? 1 : 0)),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_replica_lag_bytes',
      help: "Bytes of WAL the primary has written that a read replica has not replayed (pg_current_wal_lsn() against the replica's pg_last_wal_replay_lsn()).",
      labelNames: ['replica'] as const,
      aggregator: 'max',
      collect: perReplica((r) => r.lagBytes),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_replica_lag_seconds',
      help: 'Seconds a read replica is behind: since the last transaction it replayed while it has not replayed all the primary wrote (0 when caught up).',
      labelNames: ['replica'] as const,
      aggregator: 'max',
      collect: perReplica((r) => r.lagSeconds),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_replica_reads',
      help: 'Statements served by a read replica since the process started, by replica (summed over the processes).',
      labelNames: ['replica'] as const,
      collect: perReplica((r) => r.reads),
      registers: [this.registry],
    });
    new Gauge({
      name: 'oads_db_replica_fallbacks',
      help: 'Reads of a request sent to the primary since the process started, by reason: lag (no replica reached the floor in time), failure (run again after the replica failed), down (no replica up).',
      labelNames: ['reason'] as const,
      collect(this: Gauge<'reason'>) {
        const counts = replicas()?.counts;
        this.reset();
        if (!counts) return;
        this.set({ reason: 'lag' }, counts.fallbackLag);
        this.set({ reason: 'failure' }, counts.fallbackFailure);
        this.set({ reason: 'down' }, counts.fallbackDown);
      },
      registers: [this.registry],
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reports the read replicas' health, lag and reads on each scrape. */
  watchReplicas(replicas: ReplicaFigures): void {
    this.replicas = replicas;
  }

  /** Reports a pool's connections on each scrape (null: the pool is gone). */
  watchPool(name: string, counts: () => PoolCounts | null): void {
    this.pools.set(name, counts);
  }

  /** Reports the job queues' depths on each scrape (the process that runs the jobs). */
  watchQueues(depths: () => Promise<Map<string, number>>): void {
    this.queueDepths = depths;
  }

  /** One file or session loaded: its rows, and its rows per second. */
  ingested(kind: string, rows: number, seconds: number): void {
    this.ingestRows.inc({ kind }, rows);
    if (seconds > 0) this.ingestRowsPerSecond.set({ kind }, rows / seconds);
  }

  /** This process's metrics and, in a cluster's primary, its workers'. */
  async text(): Promise<string> {
    const workers = cluster.isPrimary
      ? Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected())
      : [];
    if (workers.length === 0) return await this.registry.metrics();
    const own = await this.registry.getMetricsAsJSON();
    const theirs = await Promise.all(workers.map(askWorker));
    const all = [own, ...theirs.filter((m): m is MetricObjectWithValues<MetricValue<string>>[] => m !== null)];
    return await AggregatorRegistry.aggregate(all).metrics();
  }
}

interface MetricsRequest {
  oads: 'metrics';
  id: number;
}

interface MetricsAnswer {
  oads: 'metrics';
  id: number;
  metrics: MetricObjectWithValues<MetricValue<string>>[];
}

function isMetricsMessage(message: unknown): message is MetricsRequest | MetricsAnswer {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === 'metrics';
}

let nextRequest = 0;

/** A worker's metrics, or null when it does not answer in time. */
function askWorker(worker: Worker): Promise<MetricObjectWithValues<MetricValue<string>>[] | null> {
  const id = nextRequest++;
  return new Promise((resolve) => {
    const done = (metrics: MetricObjectWithValues<MetricValue<string>>[] | null): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(metrics);
    };
    const onMessage = (message: unknown): void => {
      if (isMetricsMessage(message) && message.id === id && 'metrics' in message) done(message.metrics);
    };
    const timer = setTimeout(() => done(null), WORKER_ANSWER_MS);
    worker.on('message', onMessage);
    try {
      worker.send({ oads: 'metrics', id } satisfies MetricsRequest);
    } catch {
      done(null);
    }
  });
}

/** In a cluster's HTTP worker: answers the primary's requests for this process's metrics. */
export function answerMetricsRequests(metrics: Metrics): () => void {
  const channel = process as NodeJS.Process & { send?: (message: unknown) => boolean };
  const onMessage = (message: unknown): void => {
    if (!isMetricsMessage(message) || 'metrics' in message) return;
    void metrics.registry
      .getMetricsAsJSON()
      .then((json) => channel.send?.({ oads: 'metrics', id: message.id, metrics: json } satisfies MetricsAnswer));
  };
  process.on('message', onMessage);
  return () => process.off('message', onMessage);
}

/** The metrics server: GET (or HEAD) /metrics, nothing else. */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method not allowed.\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType, 'Content-Length': Buffer.byteLength(text) }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
