import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';

/** node-pg's own conversion of a JS array parameter (what the columns were sent as before). */
const pgPrepare = (createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown }).prepareValue;

describe('array literals of a column', () => {
  it('write numbers as node-pg does, without its quotes', () => {
    const values = [
      0,
      -0,
      1,
      -17,
      2.5,
      0.1 + 0.2,
      1e21,
      1.5e-7,
      123456789012,
      Number.MAX_SAFE_INTEGER,
      null,
      4395.25,
      Number.NaN,
      Infinity,
    ];
    expect(numberArrayLiteral(values)).toBe((pgPrepare(values) as string).replaceAll('"', ''));
    expect(numberArrayLiteral([])).toBe('{}');
  });

  it('write texts and dates exactly as node-pg quotes them', () => {
    const values = ['SPXW  261127C05000000', '2026-11-25', '', 'a,b', 'with "quotes"', 'back\\slash', '{braces}', 'NULL', ' spaced ', 'é'];
    expect(textArrayLiteral(values)).toBe(pgPrepare(values));
    expect(textArrayLiteral([])).toBe(pgPrepare([]));
  });
});
