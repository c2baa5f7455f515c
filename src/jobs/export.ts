/**
 * The export worker: runs the target route's handler for the account, follows its pages until the
 * data ends, and writes one file in the export's format, page by page: JSON `{data, meta, pages,
 * truncated}` of at most 100,000 rows and 64 MiB whatever the answer's shape (export-file.ts), or
 * the rows as gzip-compressed CSV (export-csv.ts) or Parquet (export-parquet.ts) under the flat
 * formats' caps (EXPORT_FLAT_MAX_ROWS, EXPORT_FLAT_MAX_BYTES); truncated true when cut. A pool of
 * EXPORT_WORKERS workers runs the queue; a run first claims the export (db/exports.ts claimExport),
 * which does nothing for an export that is ready, failed or run by a live run, and parks it when
 * its account already runs its share, so one account cannot hold every worker. While it runs, its
 * lease is renewed every EXPORT_HEARTBEAT_MS; a run whose process dies is resumed by the sweep
 * (export-sweep.ts), and a run that lost its lease stops and changes nothing. The finished file stays
 * under DATA_DIR/exports (EXPORT_STORE=disk), or is copied into the database in chunks fenced by the
 * run's lease and removed from the disk (EXPORT_STORE=database: any machine serves its download).
 *
 * Outcomes: a 503 of the target (data_pending: an archived session is being loaded), or the disk
 * below its floor (services/export-disk.ts), sends the export back to the queue after the route's Retry-After, not counted as an attempt, for up to
 * EXPORT_DATA_PENDING_MAX_MS; another request error of the target (no data, a bad parameter) fails
 * it at once; anything else is retried (status retrying) up to EXPORT_ATTEMPTS runs, then fails.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { exportColumns } from '../api-contract/export-columns.js';
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import { findAccount } from '../db/accounts.js';
import { addExportChunk, databaseFilePath, deleteExportChunks } from '../db/export-chunks.js';
import { claimExport, endRun, renewLease, type ExportRow } from '../db/exports.js';
import { authenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import type { Handler, HandlerMap } from '../handlers/types.js';
import type { ServiceDeps } from '../service.js';
import { metaOf } from '../services/envelope.js';
import { checkExportDisk } from '../services/export-disk.js';
import { exportCaps, exportQueryRules } from '../services/exports.js';
import type { Result } from '../services/types.js';
import { CsvGzipWriter } from './export-csv.js';
import { ExportFileWriter, exportFilePath, exportRunFilePath, removeFile, type ExportWriter } from './export-file.js';
import { ParquetExportWriter } from './export-parquet.js';
import {
  EXPORT_ATTEMPTS,
  EXPORT_DATA_PENDING_MAX_MS,
  EXPORT_DATA_WAIT_MAX_MS,
  EXPORT_FILE_RETENTION_MS,
  EXPORT_HEARTBEAT_MS,
  EXPORT_LEASE_MS,
  EXPORT_POLL_SECONDS,
  EXPORT_RUNS_PER_ACCOUNT,
  EXPORT_WORKERS,
} from './export-policy.js';
import { superviseExports, wakeAccount } from './export-sweep.js';
import { QUEUES, type JobQueue } from './queue.js';
import type { JobDefinition } from './types.js';

export { EXPORT_ATTEMPTS } from './export-policy.js';

/** The largest page the route serves (its `limit` maximum), used to read it in as few pages as possible. */
function pageSize(operation: OperationSpec): number {
  const limit = operation.parameters.find((p) => p.name === 'limit');
  return typeof limit?.schema.maximum === 'number' ? limit.schema.maximum : 100;
}

/** Thrown inside a run whose lease was taken over: it stops and writes nothing. */
class LeaseLost extends Error {}

/** A run's hold on its export: renewed every EXPORT_HEARTBEAT_MS until stopped; `lost` once taken over. */
class Lease {
  lost = false;
  private renewing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly service: ServiceDeps,
    private readonly id: string,
    readonly runId: string,
  ) {
    this.timer = setInterval(() => void this.renew(), EXPORT_HEARTBEAT_MS);
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.lost) return;
    this.renewing = true;
    try {
      if (!(await renewLease(this.service.db, this.id, this.runId))) this.lost = true;
    } catch (error) {
      // The lease may go stale meanwhile; the run's writes are fenced by its run id.
      this.service.logger.error('export heartbeat failed', {
        export_id: this.id,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.renewing = false;
    }
  }

  check(): void {
    if (this.lost) throw new LeaseLost('the export was taken over by another run');
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

interface Collected {
  writer: ExportWriter;
  pages: number;
  truncated: boolean;
}

/** The writer of the export's format, opened on the run's temporary file once the first page's meta is known. */
async function openWriter(
  service: ServiceDeps,
  job: ExportRow,
  operation: OperationSpec,
  runId: string,
  meta: unknown,
): Promise<ExportWriter> {
  const file = exportRunFilePath(service.config.dataDir, job.id, runId);
  const { maxBytes } = exportCaps(service.config.limits, job.format);
  if (job.format === 'json') return await ExportFileWriter.open(file, maxBytes, meta);
  const columns = exportColumns(service.apiContract, operation);
  if (!columns) throw new ApiError(400, 'invalid_body', `${operation.path} answers an object, not rows: it is exported as json only.`);
  return job.format === 'csv'
    ? await CsvGzipWriter.open(file, maxBytes, columns)
    : await ParquetExportWriter.open(file, maxBytes, columns, meta);
}

async function collect(
  service: ServiceDeps,
  handlers: HandlerMap,
  job: ExportRow,
  operation: OperationSpec,
  lease: Lease,
): Promise<Collected> {
  const account = await findAccount(service.db, job.account_id);
  if (!account) throw new ApiError(404, 'not_found', 'The account of this export no longer exists.');
  const handler = handlers[operation.operationId] as Handler<OperationId>;
  const caps = exportCaps(service.config.limits, job.format);
  const checked = service.queries.check(operation.operationId, job.query, exportQueryRules(operation, caps.maxRows));
  if (!checked.ok) throw new ApiError(400, 'invalid_parameter', 'The export query is no longer valid.', checked.details);
  const maxRows = Math.min(Number(checked.query.limit ?? caps.maxRows), caps.maxRows);
  const accountContext = authenticatedAccount(account, null);
  const requestId = `export:${job.id}`;

  let writer: ExportWriter | null = null;
  let pages = 0;
  let cursor: string | undefined;
  try {
    for (;;) {
      lease.check();
      const query: Record<string, unknown> = { ...checked.query };
      if (operation.facts.paginated) {
        query.limit = Math.min(pageSize(operation), maxRows - (writer?.rowCount ?? 0));
        if (cursor) query.cursor_id = cursor;
      }
      const now = service.clock();
      const result: Result<OperationId> = await handler({
        query: query,
        params: {},
        body: undefined,
        operation,
        account: accountContext,
        requestId,
        now,
        deps: service,
        link: { path: operation.path, search: '' },
        headers: {},
      });
      lease.check();
      pages += 1;
      writer ??= await openWriter(service, job, operation, lease.runId, { ...metaOf(result, now, requestId), export_id: job.id });
      const data: unknown = result.data;
      if (!Array.isArray(data)) {
        if (!(writer instanceof ExportFileWriter)) throw new ApiError(400, 'invalid_body', `${operation.path} did not answer rows.`);
        if (!(await writer.setPayload(data))) {
          throw new ApiError(
            400,
            'export_too_large',
            `The answer of ${operation.path} is larger than the export file limit of ${caps.maxBytes} bytes; narrow the query.`,
          );
        }
        return { writer, pages, truncated: false };
      }
      const taken = await writer.addRows(data, maxRows);
      if (taken < data.length || writer.full) return { writer, pages, truncated: true };
      const next = operation.facts.paginated ? (result.pagination?.next_cursor_id ?? null) : null;
      if (next === null) return { writer, pages, truncated: false };
      if (writer.rowCount >= maxRows) return { writer, pages, truncated: true };
      cursor = next;
    }
  } catch (error) {
    await writer?.discard();
    throw error;
  }
}

/** The run proper: the pages read into the run's file, the file moved into place, the export ready. */
async function run(service: ServiceDeps, handlers: HandlerMap, job: ExportRow, lease: Lease): Promise<void> {
  const operation = service.apiContract.byId.get(job.operation_id as OperationId);
  if (!operation) throw new ApiError(400, 'invalid_parameter', `${job.path} is not a route of the contract.`);
  // Below the disk floor the export waits as for data being loaded (503: runExport's waitForData).
  await checkExportDisk(service.config);
  const collected = await collect(service, handlers, job, operation, lease);
  const file = exportFilePath(service.config.dataDir, job.id, lease.runId, job.format);
  const written = await collected.writer.finish(file, collected.pages, collected.truncated);
  const { rows, truncated } = written;
  const inDatabase = service.config.exportStore === 'database';
  let ready = false;
  try {
    if (inDatabase) await storeInDatabase(service, job.id, lease, file);
    const readyAt = service.clock();
    ready = await endRun(service.db, job.id, lease.runId, {
      status: 'ready',
      file_path: inDatabase ? databaseFilePath(lease.runId) : file,
      bytes: written.bytes,
      etag: written.etag,
      rows,
      pages: collected.pages,
      truncated,
      resolution: `${rows} row${rows === 1 ? '' : 's'} of ${job.path} in ${collected.pages} page${collected.pages === 1 ? '' : 's'}${job.format === 'json' ? '' : ` as ${job.format}`}${truncated ? ', truncated at a limit' : ''}`,
      expires_at: new Date(readyAt + EXPORT_FILE_RETENTION_MS),
      pending_since: null,
    });
  } finally {
    if (!ready || inDatabase) await removeFile(file);
    if (!ready && inDatabase) await deleteExportChunks(service.db, job.id, lease.runId).catch(() => undefined);
  }
  if (!ready) throw new LeaseLost('the export was taken over by another run');
}

/** Bytes of one chunk of a file held in the database (db/export-chunks.ts). */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;

/**
 * Copies the run's finished file into the database, chunk by chunk, each fenced by the run's lease
 * (EXPORT_STORE=database): every machine then serves its download. Stops at the first chunk the run
 * may no longer write (taken over).
 */
async function storeInDatabase(service: ServiceDeps, id: string, lease: Lease, file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(EXPORT_CHUNK_BYTES);
    for (let seq = 0; ; seq += 1) {
      lease.check();
      const { bytesRead } = await handle.read(buffer, 0, EXPORT_CHUNK_BYTES, null);
      if (bytesRead === 0) return;
      if (!(await addExportChunk(service.db, id, lease.runId, seq, Buffer.from(buffer.subarray(0, bytesRead)))))
        throw new LeaseLost('the export was taken over by another run');
    }
  } finally {
    await handle.close();
  }
}

/**
 * The target answered 503 (its data is being loaded), or the disk is below its floor: the export goes
 * back to the queue after the Retry-After, its attempt not counted, unless it has waited
 * EXPORT_DATA_PENDING_MAX_MS.
 */
async function waitForData(service: ServiceDeps, queue: JobQueue, job: ExportRow, runId: string, error: ApiError): Promise<void> {
  const now = service.clock();
  const since = job.pending_since?.getTime() ?? now;
  if (now - since >= EXPORT_DATA_PENDING_MAX_MS) {
    await endRun(service.db, job.id, runId, {
      status: 'failed',
      failed_at: new Date(now),
      error_code: error.code,
      failure_reason: `This export could still not run after ${Math.round((now - since) / 60_000)} minutes: ${error.message}`,
    });
    return;
  }
  if (await endRun(service.db, job.id, runId, { pending_since: new Date(since) }, { served: false, attemptsBack: true, sent: true })) {
    const waitMs = Math.min(error.retryAfterMs ?? EXPORT_DATA_WAIT_MAX_MS, EXPORT_DATA_WAIT_MAX_MS);
    await queue.submitExport(job.id, { startAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });
  }
}

export async function runExport(service: ServiceDeps, handlers: HandlerMap, queue: JobQueue, id: string): Promise<void> {
  const runId = randomUUID();
  const claim = await claimExport(service.db, id, {
    runId,
    perAccount: EXPORT_RUNS_PER_ACCOUNT,
    leaseMs: EXPORT_LEASE_MS,
    now: new Date(service.clock()),
  });
  if (claim.outcome !== 'claimed') return;
  const job = claim.row;
  const lease = new Lease(service, id, runId);
  const started = performance.now();
  let outcome = 'failed';
  try {
    await run(service, handlers, job, lease);
    outcome = 'ready';
  } catch (error) {
    if (error instanceof LeaseLost) {
      outcome = 'taken_over';
      service.logger.info('export run stopped: taken over by another run', { export_id: id });
      return;
    }
    if (error instanceof ApiError && error.status === 503) {
      outcome = 'waiting';
      await waitForData(service, queue, job, runId, error);
      return;
    }
    const final = error instanceof ApiError || job.attempts >= EXPORT_ATTEMPTS;
    if (!final) {
      // The queue runs the job again after its retry delay.
      outcome = 'retrying';
      await endRun(service.db, id, runId, { status: 'retrying' }, { sent: true });
      throw error;
    }
    await endRun(service.db, id, runId, {
      status: 'failed',
      failed_at: new Date(service.clock()),
      error_code: error instanceof ApiError ? error.code : 'internal_error',
      failure_reason: error instanceof ApiError ? error.message : `The export failed after ${job.attempts} attempts.`,
    });
    if (!(error instanceof ApiError))
      service.logger.error('export failed', { export_id: id, error: error instanceof Error ? error.message : String(error) });
  } finally {
    lease.stop();
    service.metrics.exportDuration.observe({ outcome }, (performance.now() - started) / 1000);
    // A run of the account ended (or waits): a parked export of the account may run now.
    await wakeAccount(service, queue, job.account_id).catch((error: unknown) =>
      service.logger.error('export wake failed', {
        account_id: job.account_id,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

export const exportJob: JobDefinition<{ id: string }> = {
  name: QUEUES.export,
  options: { retryLimit: EXPORT_ATTEMPTS - 1, retryDelay: 2, retryBackoff: true, expireInSeconds: 900 },
  workers: EXPORT_WORKERS,
  work: { pollingIntervalSeconds: EXPORT_POLL_SECONDS },
  supervise: superviseExports,
  handler: async (deps, data) => {
    const service = deps.service;
    if (!service) throw new Error('the export worker needs the service');
    if (!service.deps.jobs) throw new Error('the export worker needs the job queue');
    await runExport(service.deps, service.handlers, service.deps.jobs, data.id);
  },
};
