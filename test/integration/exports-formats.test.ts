/**
 * Exports in the flat formats (issue 36 §5): a whole trading date of one underlying's prints, every
 * session, exported as JSON, as gzip-compressed CSV and as Parquet; the CSV read back by gunzip and
 * an RFC 4180 parser, the Parquet by pyarrow (an independent reader: test/support/parquet-to-json.py),
 * each compared with the JSON export of the same query and with the stored prints of that date.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getAccountLimits, getExport } from '../../generated/client/index.js';
import type { OptionPrint } from '../../generated/client/types.gen.js';
import { exportColumns, type ColumnKind } from '../../src/api-contract/export-columns.js';
import { loadApiContract } from '../../src/api-contract/openapi.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const QUERY = { underlying_symbol: 'SPX', date: DAY, session: 'all', limit: 100_000 };

/** RFC 4180: fields split at commas and CRLF outside quotes, doubled quotes inside them. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  expect(field).toBe('');
  return out;
}

/** The Arrow type pyarrow reads each kind of column as. */
const ARROW_TYPE: Record<ColumnKind, RegExp> = {
  timestamp: /^timestamp\[us, tz=UTC\]$/,
  date: /^date32\[day\]$/,
  integer: /^int64$/,
  number: /^double$/,
  boolean: /^bool$/,
  string: /^string$/,
  json: /^(string|extension<arrow\.json>)$/,
};

describe('exports as csv and parquet', () => {
  let service: TestService;
  let account: Awaited<ReturnType<TestService['newAccount']>>;
  let stored: OptionPrint[];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-formats-'));
  const columns = exportColumns(loadApiContract(), loadApiContract().byId.get('listOptionTrades')!)!;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    account = await service.newAccount({ plan: 'pro' });
    stored = (await printBodies(service.database.admin, DAY))
      .map((b) => JSON.parse(b) as OptionPrint)
      .filter((p) => p.underlying_symbol === 'SPX' || p.underlying_symbol === 'SPXW');
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await service.stop();
  });

  /** Runs an export to its end and downloads its file. */
  async function exported(format: 'json' | 'csv' | 'parquet', query: Record<string, unknown> = QUERY) {
    const created = await createExport({ client: account.client, body: { path: '/v1/options/trades', query, format } });
    expect(created.response.status).toBe(202);
    expect(created.data?.data.format).toBe(format);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 60_000 });
    const job = (await getExport({ client: account.client, path: { id } })).data!.data;
    expect(job).toMatchObject({ status: 'ready', format });
    const response = await fetch(`${service.url}${job.download_url}`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(job.bytes);
    expect(Number(response.headers.get('content-length'))).toBe(job.bytes);
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    return { job, bytes, headers: response.headers };
  }

  it('exports the whole date of SPX and SPXW prints, every session, in each format, with the same rows', async () => {
    const json = await exported('json');
    const file = JSON.parse(json.bytes.toString('utf8')) as { data: OptionPrint[]; truncated: boolean };
    expect(file.truncated).toBe(false);
    expect(file.data).toHaveLength(stored.length);
    expect(new Set(file.data.map((p) => p.id))).toEqual(new Set(stored.map((p) => p.id)));
    expect(new Set(file.data.map((p) => p.session)).size).toBeGreaterThan(1);
    const rows = file.data;

    const csv = await exported('csv');
    expect(csv.headers.get('content-type')).toBe('application/gzip');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${csv.job.id}.csv.gz"`);
    expect(csv.job).toMatchObject({ rows: rows.length, truncated: false });
    const lines = parseCsv(zlib.gunzipSync(csv.bytes).toString('utf8'));
    expect(lines[0]).toEqual(columns.map((c) => c.name));
    expect(lines[0]).toEqual(Object.keys(rows[0]!));
    const text = (v: unknown): string => (v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    expect(lines.slice(1)).toEqual(rows.map((r) => columns.map((c) => text((r as unknown as Record<string, unknown>)[c.name]))));

    const parquet = await exported('parquet');
    expect(parquet.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(parquet.headers.get('content-disposition')).toBe(`attachment; filename="${parquet.job.id}.parquet"`);
    expect(parquet.job).toMatchObject({ rows: rows.length, truncated: false });
    const saved = path.join(dir, 'trades.parquet');
    fs.writeFileSync(saved, parquet.bytes);
    const read = spawnSync('.venv/bin/python', ['test/support/parquet-to-json.py', saved], { encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(read.status, read.stderr).toBe(0);
    const table = JSON.parse(read.stdout) as {
      columns: { name: string; type: string }[];
      parquet_types: Record<string, { physical: string; logical: string }>;
      num_rows: number;
      metadata: Record<string, string>;
      rows: Record<string, unknown>[];
    };
    expect(table.num_rows).toBe(rows.length);
    expect(table.columns.map((c) => c.name)).toEqual(columns.map((c) => c.name));
    for (const c of columns) expect(table.columns.find((t) => t.name === c.name)?.type, c.name).toMatch(ARROW_TYPE[c.kind]);
    expect(table.parquet_types.timestamp?.logical).toMatch(/Timestamp\(isAdjustedToUTC=true, timeUnit=microseconds/);
    // The values are those of the JSON export: timestamps in microseconds, JSON columns as their text.
    const asRead = rows.map((r) =>
      Object.fromEntries(
        columns.map((c) => {
          const v = (r as unknown as Record<string, unknown>)[c.name] ?? null;
          return [c.name, c.kind === 'timestamp' ? (v as number) * 1000 : c.kind === 'json' ? JSON.stringify(v) : v];
        }),
      ),
    );
    expect(table.rows).toEqual(asRead);
    expect(JSON.parse(table.metadata['oads.export'] ?? '{}')).toMatchObject({ pages: parquet.job.pages, truncated: false });
  });

  it('takes a row limit above JSON’s 100,000 for the flat formats only, and refuses them for a route whose data is not rows', async () => {
    const big = { ...QUERY, limit: 2_000_000 };
    const json = await createExport({ client: account.client, body: { path: '/v1/options/trades', query: big } });
    expect(json.response.status).toBe(400);
    expect(json.error?.error.details.map((d) => d.parameter)).toEqual(['query.limit']);
    const csv = await exported('csv', big);
    expect(csv.job).toMatchObject({ rows: stored.length, truncated: false });
    // The flat formats' caps are stated to the account, and the body's limit is held to them.
    const limits = (await getAccountLimits({ client: account.client })).data!.data.limits;
    expect(limits).toMatchObject({ export_flat_max_rows: 3_000_000, export_flat_max_bytes: 512 * 1024 ** 2, export_max_rows: 100_000 });
    const over = await createExport({
      client: account.client,
      body: { path: '/v1/options/trades', query: { ...QUERY, limit: limits.export_flat_max_rows + 1 }, format: 'csv' },
    });
    expect(over.response.status).toBe(400);
    expect(over.error?.error.details.map((d) => d.parameter)).toEqual(['query.limit']);

    const calendar = await createExport({
      client: account.client,
      body: { path: '/v1/market/calendar', query: { date: DAY }, format: 'parquet' },
    });
    expect(calendar.response.status).toBe(400);
    expect(calendar.error?.error).toMatchObject({ code: 'invalid_body', details: [{ parameter: 'body.format' }] });
  });

  it("without a limit, holds every row up to the file cap, not the route's default page of 100", async () => {
    const { limit: _limit, ...unlimited } = QUERY;
    expect(stored.length).toBeGreaterThan(500);
    for (const format of ['json', 'csv'] as const) {
      const file = await exported(format, unlimited);
      expect(file.job, format).toMatchObject({ rows: stored.length, truncated: false });
      expect(file.job.pages, format).toBeGreaterThan(1);
    }
  });

  it('cuts the rows at the row limit, the same first rows in every format', async () => {
    const query = { ...QUERY, limit: 25 };
    const json = JSON.parse((await exported('json', query)).bytes.toString('utf8')) as { data: OptionPrint[] };
    const csv = await exported('csv', query);
    expect(csv.job).toMatchObject({ rows: 25, truncated: true });
    const ids = parseCsv(zlib.gunzipSync(csv.bytes).toString('utf8'))
      .slice(1)
      .map((line) => line[columns.findIndex((c) => c.name === 'id')]);
    expect(ids).toEqual(json.data.map((p) => p.id));
  });
});
