/**
 * Exports: a request to export a data route is checked as a request to the route would be (its
 * parameters by the contract, the rules between them, the account's entitlements), recorded, and
 * queued; the worker pool (jobs/export.ts) follows the route's pages and writes one file, kept
 * until the export's expiry (410 after it). Polling and downloading read the record, for its own
 * account only.
 */
import fs from 'node:fs';
import { EXPORTABLE_FAMILIES } from '../api-contract/catalog.js';
import { exportColumns } from '../api-contract/export-columns.js';
import type { OperationSpec } from '../api-contract/openapi.js';
import type { Limits } from '../config.js';
import { exportChunk, hasExportChunks, runOfDatabaseFile } from '../db/export-chunks.js';
import { findExport, insertExportWithinLimit, updateExport, type ExportRow } from '../db/exports.js';
import { checkEntitlements, exportBytesCap } from '../entitlements.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { queryProblems, type QueryValue } from '../parameters/index.js';
import { checkExportDisk } from './export-disk.js';
import { EXPORT_FORMATS, type ExportFormat } from './export-formats.js';
import { accountOf, type BodyOf, type DataOf, type FileBody, type Result, type ServiceContext } from './types.js';

type ExportJobData = DataOf<'getExport'>;

/** Parameters whose rules differ for exports: on a paginated route, limit is the file's row cap. */
export function exportQueryRules(operation: OperationSpec, maxRows: number): Record<string, Record<string, unknown>> {
  return operation.facts.paginated ? { limit: { minimum: 1, maximum: maxRows } } : {};
}

/** The caps of a file of the format: JSON's (the spec's), or the flat formats' (a whole date of prints). */
export function exportCaps(limits: Limits, format: ExportFormat): { maxRows: number; maxBytes: number } {
  return format === 'json'
    ? { maxRows: limits.exportMaxRows, maxBytes: limits.exportMaxBytes }
    : { maxRows: limits.exportFlatMaxRows, maxBytes: limits.exportFlatMaxBytes };
}

function view(row: ExportRow): ExportJobData {
  const job: ExportJobData = {
    id: row.id,
    path: row.path,
    query: row.query,
    format: row.format,
    status: row.status,
    revision: row.revision,
    created_timestamp: row.created_at.getTime(),
  };
  if (row.last_attempt_at && row.status !== 'ready') job.last_attempt_timestamp = row.last_attempt_at.getTime();
  if (row.status === 'ready') {
    job.bytes = Number(row.bytes ?? 0);
    job.download_url = `/v1/exports/${row.id}/download`;
    job.pages = row.pages ?? 0;
    job.rows = row.rows ?? 0;
    job.truncated = row.truncated ?? false;
    job.resolution = row.resolution ?? '';
    if (row.expires_at) job.expires_timestamp = row.expires_at.getTime();
  }
  if (row.status === 'failed') {
    job.error_code = row.error_code ?? 'internal_error';
    job.failure_reason = row.failure_reason ?? 'The export failed.';
    job.failed_timestamp = row.failed_at?.getTime() ?? row.created_at.getTime();
  }
  return job;
}

/** The query as requested, one string per parameter: numbers and booleans as text, lists comma-joined. */
function asText(query: Record<string, QueryValue>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(',') : String(v)]));
}

/** A data route of the catalog that is served: platform and account routes are not exported. */
function exportable(operation: OperationSpec | undefined): operation is OperationSpec {
  return (
    operation !== undefined && operation.method === 'get' && EXPORTABLE_FAMILIES.has(operation.facts.family) && !operation.facts.public
  );
}

export async function createExport(ctx: ServiceContext, body: BodyOf<'createExport'>): Promise<Result<'createExport'>> {
  const account = accountOf(ctx);
  const { deps } = ctx;
  const operation = deps.apiContract.operations.find((o) => o.path === body.path && o.method === 'get');
  if (!deps.apiContract.operations.some((o) => o.path === body.path)) {
    throw new ApiError(400, 'invalid_body', `${body.path} is not a route of the catalog.`, [
      { parameter: 'body.path', message: 'not a route of the catalog' },
    ]);
  }
  if (!exportable(operation)) {
    throw new ApiError(
      400,
      'invalid_body',
      `${body.path} is not an exportable data route (platform and account routes cannot be exported).`,
      [{ parameter: 'body.path', message: 'not an exportable data route of the catalog' }],
    );
  }
  if (!deps.served.has(operation.operationId)) {
    throw new ApiError(400, 'invalid_body', `${body.path} is not served yet, so it cannot be exported.`, [
      { parameter: 'body.path', message: 'route not served yet' },
    ]);
  }
  const query = (body.query ?? {}) as Record<string, QueryValue>;
  if ('cursor_id' in query) {
    throw new ApiError(400, 'invalid_body', 'cursor_id is not accepted by exports: the worker follows the pages itself.', [
      { parameter: 'query.cursor_id', message: 'not accepted by exports' },
    ]);
  }
  const format = body.format ?? 'json';
  if (format !== 'json' && exportColumns(deps.apiContract, operation) === null) {
    throw new ApiError(400, 'invalid_body', `${body.path} answers an object, not rows: it is exported as json only.`, [
      { parameter: 'body.format', message: 'csv and parquet need a route whose data is rows' },
    ]);
  }
  const checked = deps.queries.check(
    operation.operationId,
    query,
    exportQueryRules(operation, exportCaps(deps.config.limits, format).maxRows),
  );
  const details = checked.ok ? queryProblems(operation, checked.query) : checked.details;
  if (details.length > 0) {
    throw new ApiError(
      400,
      'invalid_parameter',
      `The query is rejected by ${operation.path}.`,
      details.map((d) => ({ parameter: `query.${d.parameter}`, message: d.message })),
    );
  }
  // The same dataset and overnight rules as a request to the route: the worker runs the route's
  // service without the request middleware that checks them.
  checkEntitlements(operation, account, checked.ok ? checked.query : query);
  if (!deps.jobs) throw new ApiError(503, 'upstream_busy', 'Exports are temporarily unavailable.', [], 30_000);
  await checkExportDisk(deps.config);
  const cap = exportBytesCap(deps.config.limits, account.plan);
  const inserted = await insertExportWithinLimit(
    deps.db,
    {
      id: newId('exp', 20),
      account_id: account.id,
      operation_id: operation.operationId,
      path: operation.path,
      query: asText(query),
      format,
    },
    { activeLimit: deps.config.limits.exportsQueuedOrRunning, bytesLimit: cap.bytes, now: new Date(ctx.now) },
  );
  if (inserted.outcome === 'active_limit') {
    throw new ApiError(
      429,
      'export_limit',
      `At most ${deps.config.limits.exportsQueuedOrRunning} exports may be queued or running per account.`,
      [],
      5_000,
    );
  }
  if (inserted.outcome === 'bytes_limit') {
    // The cap frees as the soonest-expiring file expires.
    const freedAt = inserted.firstExpiry?.getTime() ?? ctx.now;
    throw new ApiError(
      429,
      'export_limit',
      `The account's export files hold ${inserted.bytes} bytes, at or above its plan's cap of ${cap.bytes} bytes (${cap.setting}); a file is deleted at its expires_timestamp.`,
      [],
      Math.max(1_000, freedAt - ctx.now),
    );
  }
  const row = inserted.row;
  try {
    await deps.jobs.submitExport(row.id);
  } catch (error) {
    // Not left queued without a job, holding one of the account's slots.
    await updateExport(deps.db, row.id, {
      status: 'failed',
      failed_at: new Date(ctx.now),
      error_code: 'upstream_busy',
      failure_reason: 'The export could not be queued.',
    });
    deps.logger.error('export not queued', {
      request_id: ctx.requestId,
      export_id: row.id,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new ApiError(503, 'upstream_busy', 'Exports are temporarily unavailable.', [], 30_000);
  }
  return { data: view(row), status: 202, metaRequestIdOnly: true };
}

async function ownExport(ctx: ServiceContext, id: string): Promise<ExportRow> {
  const account = accountOf(ctx);
  const row = await findExport(ctx.deps.db, id);
  if (!row || row.account_id !== account.id) throw new ApiError(404, 'not_found', 'No such export for this account.');
  return row;
}

export async function getExport(ctx: ServiceContext, id: string): Promise<Result<'getExport'>> {
  return { data: view(await ownExport(ctx, id)), metaRequestIdOnly: true };
}

export async function downloadExport(ctx: ServiceContext, id: string): Promise<Result<'downloadExport'>> {
  const row = await ownExport(ctx, id);
  if (row.status !== 'ready' || !row.etag) {
    throw new ApiError(409, 'export_not_ready', `The export is ${row.status}; poll /v1/exports/${row.id} until it is ready.`);
  }
  if (row.expires_at && row.expires_at.getTime() <= ctx.now) {
    throw new ApiError(
      410,
      'export_expired',
      `The file of this export was deleted at its expiry, ${row.expires_at.toISOString()}; create the export again.`,
    );
  }
  const gone = (): never => {
    throw new ApiError(404, 'not_found', 'The export file is no longer held.');
  };
  if (!row.file_path) gone();
  const filePath = row.file_path ?? '';
  const storedBy = runOfDatabaseFile(filePath);
  let where: Pick<FileBody, 'path' | 'read'>;
  if (storedBy === null) {
    if (!fs.existsSync(filePath)) gone();
    where = { path: filePath };
  } else {
    // Held in the database (EXPORT_STORE=database): any machine streams its chunks, one at a time.
    const db = ctx.deps.db;
    if (!(await hasExportChunks(db, row.id, storedBy))) gone();
    where = {
      read: async function* () {
        for (let seq = 0; ; seq += 1) {
          const chunk = await exportChunk(db, row.id, storedBy, seq);
          if (chunk === null) return;
          yield chunk;
        }
      },
    };
  }
  return {
    data: undefined as never,
    file: {
      ...where,
      bytes: Number(row.bytes ?? 0),
      etag: row.etag,
      downloadName: `${row.id}.${EXPORT_FORMATS[row.format].extension}`,
      mediaType: EXPORT_FORMATS[row.format].mediaType,
    },
  };
}
