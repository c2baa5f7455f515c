/**
 * The binary COPY writer (src/db/copy-binary.ts) read by a real PostgreSQL: every value form it
 * writes lands in a column of its type with the value written, edge values included (NULLs,
 * negative and large bigints, dates before 2000, UTF-8 text, empty and non-empty arrays, a row
 * larger than a chunk); and a malformed stream is refused, so nothing half-written is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { rawClient, type DatabaseHandle } from '../../src/db/connection.js';
import { openTestHandle } from '../support/database.js';
import { CopyBinaryWriter } from '../../src/db/copy-binary.js';

interface Values {
  i4: number | null;
  i8: number | null;
  f8: number | null;
  b: boolean;
  d: string;
  t: string | null;
  ia: number[];
  ta: string[];
}

const ROWS: Values[] = [
  { i4: -2147483648, i8: -9007199254740991, f8: -0.000123, b: true, d: '1999-12-31', t: 'naïve → ✓', ia: [], ta: [] },
  { i4: 2147483647, i8: 9007199254740991, f8: 6599.62, b: false, d: '2026-11-20', t: '', ia: [209, -1], ta: ['iso', 'déjà', ''] },
  { i4: null, i8: null, f8: null, b: false, d: '2000-01-01', t: null, ia: [7], ta: ['x'.repeat(70_000)] },
];

async function copyRows(client: pg.PoolClient, write: (w: CopyBinaryWriter) => void): Promise<void> {
  const stream = client.query(copyFrom('COPY binary_probe (i4, i8, f8, b, d, t, ia, ta) FROM STDIN WITH (FORMAT binary)'));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  const w = new CopyBinaryWriter((chunk) => stream.write(chunk), 4096);
  write(w);
  stream.end();
  await done;
}

describe('binary COPY into PostgreSQL', () => {
  let handle: DatabaseHandle;
  let client: pg.PoolClient;
  beforeAll(async () => {
    handle = await openTestHandle(inject('postgresUrl'));
    client = (await rawClient(handle.db)) as pg.PoolClient;
    await client.query(
      'create temporary table binary_probe (i4 integer, i8 bigint, f8 double precision, b boolean, d date, t text, ia integer[], ta text[])',
    );
  });
  afterAll(async () => {
    client.release();
    await handle.close();
  });

  it('stores each value as written, in its column type', async () => {
    await copyRows(client, (w) => {
      w.header();
      for (const r of ROWS) {
        w.row(8);
        w.int4OrNull(r.i4);
        w.int8OrNull(r.i8);
        w.float8OrNull(r.f8);
        w.bool(r.b);
        w.date(r.d);
        w.textOrNull(r.t);
        w.int4Array(r.ia);
        w.textArray(r.ta);
        w.endRow();
      }
      w.end();
    });
    const stored = await client.query<{
      i4: number | null;
      i8: string | null;
      f8: number | null;
      b: boolean;
      d: string;
      t: string | null;
      ia: number[];
      ta: string[];
    }>(`select i4, i8::text, f8, b, d::text, t, ia, ta from binary_probe order by d`);
    expect(stored.rows).toEqual(
      [...ROWS].sort((x, y) => x.d.localeCompare(y.d)).map((r) => ({ ...r, i8: r.i8 === null ? null : String(r.i8) })),
    );
    // An empty array is '{}', the zero-dimension array, as PostgreSQL writes it.
    const empty = await client.query<{ n: number | null; text: string }>(
      `select array_ndims(ia) as n, ia::text as text from binary_probe where d = '1999-12-31'`,
    );
    expect(empty.rows).toEqual([{ n: null, text: '{}' }]);
    await client.query('truncate binary_probe');
  });

  it('refuses a row whose field count is wrong, and stores none of the stream', async () => {
    await expect(
      copyRows(client, (w) => {
        w.header();
        w.row(8);
        for (let i = 0; i < 8; i++) w.null();
        w.endRow();
        w.row(2);
        w.null();
        w.null();
        w.endRow();
        w.end();
      }),
    ).rejects.toThrow(/row field count is 2, expected 8/);
    expect((await client.query<{ n: number }>('select count(*) as n from binary_probe')).rows).toEqual([{ n: 0 }]);
  });
});
