/**
 * A reader of binary COPY data for unit tests (the layout copy-binary.ts writes): the rows of a
 * stream as their fields' bytes, NULL as null, and the elements of a one-dimensional array value.
 */

/** Each row of a whole COPY stream (signature to trailer): its fields' bytes, null for NULL. */
export function copyRows(bytes: Buffer): (Buffer | null)[][] {
  const rows: (Buffer | null)[][] = [];
  let p = 19;
  for (let count = bytes.readInt16BE(p); count !== -1; count = bytes.readInt16BE(p)) {
    p += 2;
    const fields: (Buffer | null)[] = [];
    for (let f = 0; f < count; f++) {
      const length = bytes.readInt32BE(p);
      p += 4;
      fields.push(length < 0 ? null : bytes.subarray(p, p + length));
      p += Math.max(length, 0);
    }
    rows.push(fields);
  }
  if (p + 2 !== bytes.length) throw new Error(`${bytes.length - p - 2} bytes after the trailer`);
  return rows;
}

/** A one-dimensional array's elements (array_send layout). */
export function arrayElements(value: Buffer): Buffer[] {
  if (value.readInt32BE(0) === 0) return [];
  const n = value.readInt32BE(12);
  const out: Buffer[] = [];
  let p = 20;
  for (let k = 0; k < n; k++) {
    const length = value.readInt32BE(p);
    out.push(value.subarray(p + 4, p + 4 + length));
    p += 4 + length;
  }
  return out;
}
