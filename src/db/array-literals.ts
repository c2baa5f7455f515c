/**
 * Columns of a bulk write sent as one PostgreSQL array literal each: the small tables (contracts,
 * quote samples, bars, open interest) insert a batch from unnest() of such arrays, one round trip
 * per batch. Prints, the one large table, are written by COPY (bulk-copy.ts).
 */

/**
 * A column of numbers as one PostgreSQL array literal ('{1,2.5,NULL}'), each as String() writes
 * it, the text node-pg sends for a JS array; given a JS array, node-pg converts and quotes each
 * element in turn (prepareValue, escapeElement), some 1.4 s of a first start's CPU over the seed's
 * bars and open interest. The literal is parsed by the column's cast (`::int8[]`, `::float8[]`).
 */
export function numberArrayLiteral(values: readonly (number | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    text += value === null || value === undefined ? 'NULL' : String(value);
  }
  return `${text}}`;
}

/** A column of texts (or dates as YYYY-MM-DD) as one array literal, each element quoted as node-pg quotes it. */
export function textArrayLiteral(values: readonly string[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] as string;
    if (i > 0) text += ',';
    text += /["\\]/.test(value) ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${value}"`;
  }
  return `${text}}`;
}
