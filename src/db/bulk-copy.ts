/**
 * COPY for bulk loads (pg-copy-streams). COPY needs the raw connection, which Kysely does not
 * expose, so a copy session owns one pg client and a Kysely bound to it alone: a load runs its
 * transaction on that Kysely and streams COPY FROM STDIN on the same connection, inside the
 * transaction. Prints go through a temporary staging table and INSERT … SELECT … ON CONFLICT DO
 * NOTHING, so a print already stored is left as stored, as with the unnest write.
 */
import { Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database, Queryable } from './connection.js';
import { PRINT_COLUMN_NAMES, type PrintColumns } from './market-data.js';
import type { DB } from './schema.js';

export interface CopySession {
  /** A Kysely over this session's single connection. */
  db: Database;
  /**
   * Writes a batch of prints by COPY through a staging table into `table` (default prints),
   * skipping prints already stored; `direct` copies straight into `table` (no conflict check).
   */
  copyPrints(trx: Queryable, rows: PrintColumns, options?: { table?: string; direct?: boolean }): Promise<number>;
  close(): Promise<void>;
}

const ESCAPES = /[\\\t\n\r]/;

/** A text value in COPY's text format: backslash, tab and line breaks escaped. */
function escapeText(text: string): string {
  return ESCAPES.test(text) ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : text;
}

/**
 * Columns whose values are free text. Every other column holds numbers, booleans, dates or words
 * of a fixed vocabulary (validated symbols, enums, flag and code literals), which need no escape.
 */
const FREE_TEXT = new Set(['body', 'id', 'group_id']);

/** The rows of a batch as COPY text, one line per row (\N for null). */
export function printCopyText(rows: PrintColumns): string {
  const columns = PRINT_COLUMN_NAMES.map((name) => {
    const values = rows.columns[name];
    return FREE_TEXT.has(name) ? values.map((v) => (typeof v === 'string' ? escapeText(v) : v)) : values;
  });
  const width = columns.length;
  let out = '';
  for (let i = 0; i < rows.length; i += 1) {
    for (let c = 0; c < width; c += 1) {
      const v = (columns[c] as unknown[])[i];
      out += v === null || v === undefined ? '\\N' : `${v as string | number | boolean}`;
      out += c === width - 1 ? '\n' : '\t';
    }
  }
  return out;
}

async function copyInto(client: pg.Client, table: string, text: string): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${table} (${PRINT_COLUMN_NAMES.join(', ')}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', () => resolve());
    stream.end(text);
  });
  return stream.rowCount;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export async function openCopySession(connectionString: string): Promise<CopySession> {
  const client = new pg.Client({ connectionString, application_name: 'oads-ingest' });
  await client.connect();
  client.on('error', () => undefined);
  const pool: PostgresPool = {
    connect: async () => Object.assign(client, { release: () => undefined }),
    end: async () => undefined,
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let stagedFor: Queryable | null = null;
  return {
    db,
    async copyPrints(trx, rows, options = {}) {
      if (rows.length === 0) return 0;
      const text = printCopyText(rows);
      const table = options.table ?? 'prints';
      if (!IDENTIFIER.test(table)) throw new RangeError(`bad table name ${table}`);
      if (options.direct === true) return await copyInto(client, table, text);
      if (stagedFor !== trx) {
        // Dropped at the end of the load's transaction.
        await sql`create temporary table if not exists prints_stage (like prints including defaults) on commit drop`.execute(trx);
        stagedFor = trx;
      }
      await copyInto(client, 'prints_stage', text);
      const result = await sql`insert into ${sql.table(table)} select * from prints_stage on conflict do nothing`.execute(trx);
      await sql`truncate prints_stage`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    },
    async close() {
      await client.end();
    },
  };
}
