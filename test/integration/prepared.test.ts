/**
 * Named prepared statements (src/db/prepared.ts) on a real PostgreSQL: the same rows as the
 * query run the usual way, the statement kept by the connection under its digest name, a
 * transaction served the usual way, and a server error that leaves the connection in use.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { DatabaseHandle } from '../../src/db/connection.js';
import { openTestHandle } from '../support/database.js';
import { executePrepared, statementName } from '../../src/db/prepared.js';

describe('executePrepared', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    // One connection: every statement below runs in the same PostgreSQL session.
    handle = await openTestHandle(inject('postgresUrl'));
  });
  afterAll(async () => handle.close());

  const series = (upTo: number) =>
    sql<{
      n: number;
      label: string;
    }>`select n::int4 as n, ${sql.lit('row')} || n as label from generate_series(1, ${sql.lit(upTo)}) as n where n % ${2}::int4 = 0`;

  it('returns the rows of the usual execution, and the connection keeps the statement by name', async () => {
    const compiled = series(10).compile(handle.db);
    const usual = (await series(10).execute(handle.db)).rows;
    for (let i = 0; i < 7; i += 1) expect(await executePrepared(handle.db, compiled)).toEqual(usual);
    expect(usual.map((r) => r.n)).toEqual([2, 4, 6, 8, 10]);
    const kept = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(handle.db);
    expect(kept.rows).toContainEqual({ name: statementName(compiled.sql), statement: compiled.sql });
    // Another text is another statement, never the first one's plan.
    const other = series(4).compile(handle.db);
    expect(statementName(other.sql)).not.toBe(statementName(compiled.sql));
    expect((await executePrepared(handle.db, other)).map((r) => r.n)).toEqual([2, 4]);
  });

  it('runs inside a transaction the usual way', async () => {
    const rows = await handle.db.transaction().execute(async (trx) => await executePrepared(trx, series(6).compile(trx)));
    expect(rows.map((r) => r.n)).toEqual([2, 4, 6]);
  });

  it('rejects a server error and keeps the connection usable', async () => {
    await expect(executePrepared(handle.db, sql<{ x: number }>`select 1 / (${0}::int4) as x`.compile(handle.db))).rejects.toThrow(
      /division by zero/,
    );
    expect((await executePrepared(handle.db, series(2).compile(handle.db))).map((r) => r.n)).toEqual([2]);
  });
});
