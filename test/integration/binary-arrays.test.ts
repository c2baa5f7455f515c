/**
 * Array parameters in PostgreSQL's binary form (src/db/binary-arrays.ts) read by a real PostgreSQL:
 * each reaches its cast's type with every element as given (the text a literal of the same values
 * gives, array-literals.ts), edge values included: NULL elements, NaN, ±Infinity and -0, the
 * largest safe integers, dates before 2000, UTF-8 and empty texts, empty arrays. A wrong element
 * type and a number an int8 does not hold exactly are refused.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { numberArrayLiteral, textArrayLiteral } from '../../src/db/array-literals.js';
import { boolArray, dateArray, float8Array, int4Array, int8Array, textArray } from '../../src/db/binary-arrays.js';
import type { DatabaseHandle } from '../../src/db/connection.js';
import { openTestHandle } from '../support/database.js';

describe('binary array parameters', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openTestHandle(inject('postgresUrl'));
  });
  afterAll(async () => await handle.close());

  /** The array's text as PostgreSQL writes it, and whether it equals (elementwise, NULLs and all) the array of the literal. */
  const both = async (binary: Buffer, literal: string, type: string): Promise<{ text: string; same: boolean }> => {
    const result = await sql<{ text: string; same: boolean }>`
      select ${binary}::${sql.raw(type)}::text as text,
        ${binary}::${sql.raw(type)}::text = ${literal}::${sql.raw(type)}::text as same`.execute(handle.db);
    return result.rows[0]!;
  };

  it('gives each element as given, as the text literal of the same values does', async () => {
    const floats = [
      6599.62,
      -0.000123,
      null,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -0,
      5e-324,
      1.7976931348623157e308,
    ];
    const f = await both(float8Array(floats), numberArrayLiteral(floats), 'float8[]');
    expect(f.text).toBe('{6599.62,-0.000123,NULL,NaN,Infinity,-Infinity,-0,5e-324,1.7976931348623157e+308}');
    // The literal writes -0 as String(-0), '0': the binary form keeps it, and is otherwise the same.
    expect(f.same).toBe(false);
    const withoutNegativeZero = floats.map((v) => (Object.is(v, -0) ? 0 : v));
    expect((await both(float8Array(withoutNegativeZero), numberArrayLiteral(floats), 'float8[]')).same).toBe(true);
    const ints = [9007199254740991, -9007199254740991, 0, -1, null, 4294967296, -4294967297, 1795185000024];
    expect(await both(int8Array(ints), numberArrayLiteral(ints), 'int8[]')).toEqual({
      text: '{9007199254740991,-9007199254740991,0,-1,NULL,4294967296,-4294967297,1795185000024}',
      same: true,
    });
    const int4s = [2147483647, -2147483648, null, 100];
    expect(await both(int4Array(int4s), numberArrayLiteral(int4s), 'int4[]')).toEqual({
      text: '{2147483647,-2147483648,NULL,100}',
      same: true,
    });
    const dates = ['2026-11-20', null, '1999-12-31', '2000-01-01', '2026-11-20'];
    expect(await both(dateArray(dates), `{${dates.map((d) => d ?? 'NULL').join(',')}}`, 'date[]')).toEqual({
      text: '{2026-11-20,NULL,1999-12-31,2000-01-01,2026-11-20}',
      same: true,
    });
    const texts = ['SPXW', 'naïve → ✓', '', 'a "quoted" \\ one', 'x'.repeat(70_000)];
    const t = await both(textArray(texts), textArrayLiteral(texts), 'text[]');
    expect(t.same).toBe(true);
    const round = await sql<{ a: string[] }>`select ${textArray(texts)}::text[] as a`.execute(handle.db);
    expect(round.rows[0]!.a).toEqual(texts);
    const nullText = await sql<{ a: (string | null)[] }>`select ${textArray(['x', null])}::text[] as a`.execute(handle.db);
    expect(nullText.rows[0]!.a).toEqual(['x', null]);
    expect(await both(boolArray([true, false, null]), '{t,f,NULL}', 'boolean[]')).toEqual({ text: '{t,f,NULL}', same: true });
  });

  it('sends an empty array as the zero-dimension array', async () => {
    for (const [binary, type] of [
      [float8Array([]), 'float8[]'],
      [int8Array([]), 'int8[]'],
      [int4Array([]), 'int4[]'],
      [boolArray([]), 'boolean[]'],
      [dateArray([]), 'date[]'],
      [textArray([]), 'text[]'],
    ] as const) {
      const result = await sql<{ n: number | null; text: string }>`
        select array_ndims(${binary}::${sql.raw(type)}) as n, ${binary}::${sql.raw(type)}::text as text`.execute(handle.db);
      expect(result.rows[0]).toEqual({ n: null, text: '{}' });
    }
  });

  it('is refused under another element type, and a number an int8 or a date it cannot hold is refused before sending', async () => {
    await expect(sql`select ${float8Array([1])}::int8[]`.execute(handle.db)).rejects.toThrow(
      /element type 701 \(double precision\) instead of expected 20 \(bigint\)/,
    );
    expect(() => int8Array([1.5])).toThrow(RangeError);
    expect(() => int8Array([2 ** 60])).toThrow(RangeError);
    expect(() => dateArray(['2026-13-45'])).toThrow(RangeError);
  });
});
