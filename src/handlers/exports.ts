/** Exports: queue a file export of a data route, poll it, download the file. */
import fs from 'node:fs';
import { EXPORTABLE_FAMILIES } from '../analytics/catalog.js';
import type { OperationSpec } from '../contract.js';
import type { Database } from '../db/connection.js';
import { checkEntitlements, type AuthenticatedAccount } from '../middleware/auth.js';
import { findExport, insertExportWithinLimit, type ExportRow } from '../db/exports.js';
import { newId } from '../middleware/api-keys.js';
import { ApiError } from '../errors.js';
import type { QueryValue } from '../middleware/query-validation.js';
import { exportJob, exportQueryRules } from '../jobs/export.js';
import { accountOf, type DataOf, type Handler } from './types.js';
import { PENDING_OPERATIONS } from './pending.js';
import { crossParameterProblems } from './query-rules.js';

type ExportJobData = DataOf<'getExport'>;

function view(row: ExportRow): ExportJobData {
  const job: ExportJobData = {
    id: row.id,
    path: row.path,
    query: row.query,
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

function exportable(operation: OperationSpec | undefined): operation is OperationSpec {
  return operation !== undefined && operation.method === 'get' && EXPORTABLE_FAMILIES.has(operation.facts.family) && !operation.facts.public;
}

export const createExport: Handler<'createExport'> = async (ctx) => {
  const account = accountOf(ctx);
  const { deps, body } = ctx;
  const operation = deps.contract.operations.find((o) => o.path === body.path && o.method === 'get');
  if (!exportable(operation)) {
    throw new ApiError(400, 'invalid_body', `${body.path} is not an exportable data route (platform and account routes cannot be exported).`, [{ parameter: 'body.path', message: 'not an exportable data route of the catalog' }]);
  }
  if (PENDING_OPERATIONS.has(operation.operationId)) {
    throw new ApiError(400, 'invalid_body', `${body.path} is not served yet, so it cannot be exported.`, [{ parameter: 'body.path', message: 'route not served yet' }]);
  }
  const query = (body.query ?? {}) as Record<string, QueryValue>;
  if ('cursor_id' in query) {
    throw new ApiError(400, 'invalid_body', 'cursor_id is not accepted by exports: the worker follows the pages itself.', [{ parameter: 'query.cursor_id', message: 'not accepted by exports' }]);
  }
  const checked = deps.queries.check(operation.operationId, query, exportQueryRules(operation, deps.config.limits.exportMaxRows));
  const details = checked.ok ? crossParameterProblems(operation.operationId, checked.query, ctx.now) : checked.details;
  if (details.length > 0) {
    throw new ApiError(400, 'invalid_parameter', `The query is rejected by ${operation.path}.`, details.map((d) => ({ parameter: `query.${d.parameter}`, message: d.message })));
  }
  // The same dataset and overnight rules as a request to the route: the worker runs the handler
  // without the request middleware that checks them.
  checkEntitlements(operation, account, checked.ok ? checked.query : query);
  if (!deps.boss) throw new ApiError(503, 'upstream_busy', 'Exports are temporarily unavailable.', [], 30_000);
  const row = await insertExportWithinLimit(
    deps.db,
    { id: newId('exp', 20), account_id: account.id, operation_id: operation.operationId, path: operation.path, query: asText(query) },
    deps.config.limits.exportsQueuedOrRunning,
  );
  if (!row) {
    throw new ApiError(429, 'export_limit', `At most ${deps.config.limits.exportsQueuedOrRunning} exports may be queued or running per account.`, [], 5_000);
  }
  await deps.boss.send(exportJob.name, { id: row.id }, { singletonKey: row.id });
  return { data: view(row), status: 202, metaRequestIdOnly: true };
};

async function ownExport(ctx: { deps: { db: Database }; params: { id: string }; account: AuthenticatedAccount | null }): Promise<ExportRow> {
  const account = accountOf(ctx);
  const row = await findExport(ctx.deps.db, ctx.params.id);
  if (!row || row.account_id !== account.id) throw new ApiError(404, 'not_found', 'No such export for this account.');
  return row;
}

export const getExport: Handler<'getExport'> = async (ctx) => ({ data: view(await ownExport(ctx)), metaRequestIdOnly: true });

export const downloadExport: Handler<'downloadExport'> = async (ctx) => {
  const row = await ownExport(ctx);
  if (row.status !== 'ready' || !row.file_path || !row.etag) {
    throw new ApiError(409, 'export_not_ready', `The export is ${row.status}; poll /v1/exports/${row.id} until it is ready.`);
  }
  if (!fs.existsSync(row.file_path)) throw new ApiError(404, 'not_found', 'The export file is no longer held.');
  return { data: undefined as never, file: { path: row.file_path, bytes: Number(row.bytes ?? 0), etag: row.etag, downloadName: `${row.id}.json` } };
};
