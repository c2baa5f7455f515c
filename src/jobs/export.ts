/**
 * The export worker: runs the target route's handler for the account, follows its pages until the
 * data ends, and writes one JSON file `{data, meta, pages, truncated}` of at most 100,000 rows and
 * 64 MiB (truncated true when cut). Idempotent: a job whose export is ready or failed does nothing.
 * A request error of the target (no data, a bad parameter) fails the export at once; anything else
 * is retried (status retrying) up to three attempts, then fails.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OperationId, OperationSpec } from '../contract.js';
import { findAccount } from '../db/accounts.js';
import { findExport, updateExport, type ExportRow } from '../db/exports.js';
import { authenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import type { Handler, HandlerMap } from '../handlers/types.js';
import type { ServiceDeps } from '../service.js';
import { metaOf } from '../services/envelope.js';
import { exportQueryRules } from '../services/exports.js';
import type { Result } from '../services/types.js';
import { QUEUES } from './queue.js';
import type { JobDefinition } from './types.js';

export const EXPORT_ATTEMPTS = 3;

export function exportFilePath(dataDir: string, id: string): string {
  return path.join(dataDir, 'exports', `${id}.json`);
}

/** The largest page the route serves (its `limit` maximum), used to read it in as few pages as possible. */
function pageSize(operation: OperationSpec): number {
  const limit = operation.parameters.find((p) => p.name === 'limit');
  return typeof limit?.schema.maximum === 'number' ? limit.schema.maximum : 100;
}

interface Collected {
  data: unknown;
  meta: unknown;
  pages: number;
  rows: number;
  truncated: boolean;
}

async function collect(service: ServiceDeps, handlers: HandlerMap, job: ExportRow, operation: OperationSpec): Promise<Collected> {
  const account = await findAccount(service.db, job.account_id);
  if (!account) throw new ApiError(404, 'not_found', 'The account of this export no longer exists.');
  const handler: Handler<OperationId> | undefined = handlers[operation.operationId];
  if (!handler) throw new ApiError(400, 'invalid_parameter', `${operation.path} is not served.`);
  const checked = service.queries.check(operation.operationId, job.query, exportQueryRules(operation, service.config.limits.exportMaxRows));
  if (!checked.ok) throw new ApiError(400, 'invalid_parameter', 'The export query is no longer valid.', checked.details);
  const maxRows = Math.min(Number(checked.query.limit ?? service.config.limits.exportMaxRows), service.config.limits.exportMaxRows);
  const maxBytes = service.config.limits.exportMaxBytes;
  const accountContext = authenticatedAccount(account, null);

  const rows: unknown[] = [];
  let bytes = 0;
  let pages = 0;
  let meta: unknown = null;
  let cursor: string | undefined;
  for (;;) {
    const query: Record<string, unknown> = { ...checked.query };
    if (operation.facts.paginated) {
      query.limit = Math.min(pageSize(operation), maxRows - rows.length);
      if (cursor) query.cursor_id = cursor;
    }
    const now = service.clock();
    const result: Result<OperationId> = await handler({
      query: query,
      params: {},
      body: undefined,
      operation,
      account: accountContext,
      requestId: `export:${job.id}`,
      now,
      deps: service,
      link: { path: operation.path, search: '' },
      headers: {},
    });
    pages += 1;
    meta ??= { ...metaOf(result, now, `export:${job.id}`), export_id: job.id };
    if (!operation.facts.paginated || !Array.isArray(result.data)) {
      return { data: result.data, meta, pages, rows: Array.isArray(result.data) ? result.data.length : 1, truncated: false };
    }
    for (const row of result.data as unknown[]) {
      const size = Buffer.byteLength(JSON.stringify(row)) + 1;
      if (rows.length >= maxRows || bytes + size > maxBytes - 4096) {
        return { data: rows, meta, pages, rows: rows.length, truncated: true };
      }
      rows.push(row);
      bytes += size;
    }
    const next = result.pagination?.next_cursor_id ?? null;
    if (next === null) return { data: rows, meta, pages, rows: rows.length, truncated: false };
    if (rows.length >= maxRows) return { data: rows, meta, pages, rows: rows.length, truncated: true };
    cursor = next;
  }
}

export async function runExport(service: ServiceDeps, handlers: HandlerMap, id: string): Promise<void> {
  const job = await findExport(service.db, id);
  if (!job || job.status === 'ready' || job.status === 'failed') return;
  const operation = service.contract.byId.get(job.operation_id as OperationId);
  const attempt = job.attempts + 1;
  await updateExport(service.db, id, { attempts: attempt, last_attempt_at: new Date(service.clock()) });
  try {
    if (!operation) throw new ApiError(400, 'invalid_parameter', `${job.path} is not a route of the contract.`);
    const collected = await collect(service, handlers, job, operation);
    const body = JSON.stringify({ data: collected.data, meta: collected.meta, pages: collected.pages, truncated: collected.truncated });
    const file = exportFilePath(service.config.dataDir, id);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, body);
    fs.renameSync(`${file}.tmp`, file);
    await updateExport(service.db, id, {
      status: 'ready',
      file_path: file,
      bytes: Buffer.byteLength(body),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      rows: collected.rows,
      pages: collected.pages,
      truncated: collected.truncated,
      resolution: `${collected.rows} row${collected.rows === 1 ? '' : 's'} of ${job.path} in ${collected.pages} page${collected.pages === 1 ? '' : 's'}${collected.truncated ? ', truncated at a limit' : ''}`,
    });
  } catch (error) {
    const final = error instanceof ApiError || attempt >= EXPORT_ATTEMPTS;
    if (!final) {
      await updateExport(service.db, id, { status: 'retrying' });
      throw error;
    }
    await updateExport(service.db, id, {
      status: 'failed',
      failed_at: new Date(service.clock()),
      error_code: error instanceof ApiError ? error.code : 'internal_error',
      failure_reason: error instanceof ApiError ? error.message : `The export failed after ${attempt} attempts.`,
    });
    if (!(error instanceof ApiError)) service.logger.error('export failed', { export_id: id, error: error instanceof Error ? error.message : String(error) });
  }
}

export const exportJob: JobDefinition<{ id: string }> = {
  name: QUEUES.export,
  options: { retryLimit: EXPORT_ATTEMPTS - 1, retryDelay: 2, retryBackoff: true, expireInSeconds: 900 },
  handler: async (deps, data) => {
    if (!deps.service) throw new Error('the export worker needs the service');
    await runExport(deps.service.deps, deps.service.handlers, data.id);
  },
};
