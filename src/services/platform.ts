/** Platform routes: status, the contract, the catalog. */
import { buildCatalog, type CatalogEntry } from '../api-contract/catalog.js';
import { healthOf, type Database } from '../db/connection.js';
import { dataOriginOf, originCounts, type OriginCounts } from '../db/data-origin.js';
import { datasetFreshness, datasetStamp, pingDatabase, type DatasetFreshness } from '../db/status.js';
import { servedDocument } from '../docs/enrich.js';
import { exportDisk } from './export-disk.js';
import type { QueryOf, Result, ServiceContext } from './types.js';

const catalogs = new WeakMap<object, CatalogEntry[]>();

/**
 * GET /v1/status answers within a second whatever the data tables do: its reads go through a pool
 * of their own whose statements are cancelled after 400 ms (connection.ts), and the dataset
 * figures are waited for until this deadline from the request, then the last figures read are
 * served instead (status degraded). A read that misses the deadline goes on and serves later calls.
 */
const STATUS_DEADLINE_MS = 800;
/**
 * The ping's own bound: a server that hangs answers neither it nor its statement time-out (the
 * status pool cuts such a connection: db/connection.ts); past it the database is reported down.
 */
const PING_WITHIN_MS = 500;
/**
 * How long dataset figures are served again while the data they are read from is unchanged (the
 * stamp of db/status.ts datasetStamp, read by every call in one statement): read anew at least this
 * often, for the planner's row estimates, which move without a write being logged.
 */
const FIGURES_REUSE_MS = 60_000;

/** `work`'s value, or null when it fails or has not settled within `ms`. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([work.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Figures {
  datasets: DatasetFreshness[];
  /** Where the market data comes from (data-origin.ts), read with the datasets; null before the first read. */
  origin: OriginCounts | null;
  readAt: number | null;
  /** The stamp of the data the figures were read from (db/status.ts datasetStamp); null before the first read. */
  stamp: string | null;
  /** The read under way, which calls join rather than start another. */
  reading: Promise<boolean> | null;
}

/** The last dataset figures read, per database (per service). */
const figuresOf = new WeakMap<Database, Figures>();

/** Reads the figures anew (or joins the read under way); true if they were read within `withinMs`. */
async function readFigures(figures: Figures, db: Database, clock: () => number, withinMs: number): Promise<boolean> {
  figures.reading ??= datasetStamp(db)
    .then(async (stamp) => {
      // The data unchanged since the last read (and that read recent): its figures still hold.
      if (stamp === figures.stamp && figures.readAt !== null && clock() - figures.readAt < FIGURES_REUSE_MS) return;
      const [datasets, origin] = await Promise.all([datasetFreshness(db), originCounts(db)]);
      figures.datasets = datasets;
      figures.origin = origin;
      figures.readAt = clock();
      figures.stamp = stamp;
    })
    .then(
      () => {
        figures.reading = null;
        return true;
      },
      () => {
        figures.reading = null;
        return false;
      },
    );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, withinMs));
  });
  try {
    return await Promise.race([figures.reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function getStatus({ deps }: ServiceContext): Promise<Result<'getStatus'>> {
  const started = performance.now();
  const health = healthOf(deps.db);
  const db = health?.probe ?? deps.db;
  let figures = figuresOf.get(deps.db);
  if (!figures) {
    figures = { datasets: [], origin: null, readAt: null, stamp: null, reading: null };
    figuresOf.set(deps.db, figures);
  }
  let latency: number | null = null;
  // Known down (the watch's probes fail): not asked again here.
  if (health?.state().status !== 'down') latency = await within(pingDatabase(db), PING_WITHIN_MS);
  const fresh = latency !== null && (await readFigures(figures, db, deps.clock, STATUS_DEADLINE_MS - (performance.now() - started)));
  return {
    data: {
      status: fresh ? 'ok' : 'degraded',
      version: deps.config.version,
      started_timestamp: deps.startedAt,
      database: latency === null ? { status: 'down', latency_ms: null } : { status: 'ok', latency_ms: latency },
      replicas: (deps.replicas?.status() ?? []).map((r) => ({
        name: r.name,
        status: r.state,
        lag_bytes: r.lagBytes,
        lag_seconds: r.lagSeconds,
        replay_paused: r.replayPaused,
        reads: r.reads,
      })),
      datasets: figures.datasets,
      datasets_timestamp: figures.readAt,
      data_source: figures.origin === null ? null : dataOriginOf(figures.origin),
      exports: (await exportDisk(deps.config).catch(() => null))?.paused ? 'paused' : 'ok',
    },
    source: 'derived',
  };
}

/**
 * The served contracts by origin, per contract: a few origins at most (the names one service is
 * reached by), and never more than this many, whatever Host headers are sent (the oldest goes).
 */
const ORIGINS_KEPT = 8;
const openApiDocuments = new WeakMap<object, Map<string, Record<string, unknown>>>();

/**
 * The contract with its examples and request samples (docs/enrich.ts), its `servers` and samples
 * naming `origin` (services/public-url.ts), served bare (no envelope); built on first request.
 */
export async function getOpenApiDocument({ deps }: ServiceContext, origin: string): Promise<Result<'getOpenApiDocument'>> {
  let byOrigin = openApiDocuments.get(deps.apiContract);
  if (!byOrigin) {
    byOrigin = new Map();
    openApiDocuments.set(deps.apiContract, byOrigin);
  }
  let document = byOrigin.get(origin);
  if (!document) {
    document = servedDocument(deps.apiContract, undefined, origin);
    if (byOrigin.size >= ORIGINS_KEPT) byOrigin.delete(byOrigin.keys().next().value as string);
    byOrigin.set(origin, document);
  }
  return { data: document as never, bare: true };
}

/** The AsyncAPI document of the streams (ServiceDeps.asyncApi), its server at `origin`, served bare. */
export async function getAsyncApiDocument({ deps }: ServiceContext, origin: string): Promise<Result<'getAsyncApiDocument'>> {
  const document = deps.asyncApi();
  const url = new URL(origin);
  const servers = document.servers as Record<string, Record<string, unknown>>;
  const service = { ...servers.service, host: url.host, protocol: url.protocol === 'https:' ? 'wss' : 'ws' };
  return { data: { ...document, servers: { ...servers, service } } as never, bare: true };
}

export async function listCatalog({ deps }: ServiceContext, query: QueryOf<'listCatalog'>): Promise<Result<'listCatalog'>> {
  let catalog = catalogs.get(deps.apiContract);
  if (!catalog) {
    catalog = buildCatalog(deps.apiContract.operations);
    catalogs.set(deps.apiContract, catalog);
  }
  return { data: query.family ? catalog.filter((e) => e.family === query.family) : catalog, source: 'derived' };
}
