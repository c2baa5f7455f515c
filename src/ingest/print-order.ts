/**
 * A file's prints in classification order: by trading date in calendar order, then timestamp,
 * sequence and line, with repeats dropped (a print whose trading date, contract, timestamp and
 * sequence repeat the previous one). The order is a permutation of table indexes, so the columns
 * never move; a file already in order, the usual case, is not sorted again. For each trading date
 * the load also needs to know whether its row keys (contract, sequence) are unique, which decides
 * between the direct COPY into a new table and the staging path (db/bulk-copy.ts).
 */
import type { ReadPrints } from './print-reader.js';
import type { PrintTable } from './print-table.js';

/** One trading date's prints: its span of the order, and whether its row keys are unique. */
export interface PrintDay {
  tradingDate: string;
  start: number;
  end: number;
  uniqueKeys: boolean;
}

/** A file's prints in classification order, by trading date. */
export interface SortedPrints {
  table: PrintTable;
  /** Indexes into the table, sorted, repeats dropped. */
  order: Int32Array;
  /** Per trading date, in calendar order. */
  days: PrintDay[];
  /** The repeats dropped. */
  duplicates: number;
}

/**
 * Whether no two prints (cancel records aside, they are never stored) of one trading date share a
 * contract and sequence. Quick when each contract's sequences rise in time order, as a feed's do;
 * otherwise each contract's sequences are sorted and compared.
 */
export function keysUnique(table: PrintTable, day: Int32Array): boolean {
  const slots = table.slots.length;
  const last = new Float64Array(slots).fill(-1);
  let rising = true;
  for (const i of day) {
    if (table.isCancel(i)) continue;
    const s = table.slotAt(i);
    const sequence = table.sequenceAt(i);
    if (sequence <= (last[s] ?? -1)) {
      rising = false;
      break;
    }
    last[s] = sequence;
  }
  if (rising) return true;
  // Group the sequences by contract (a counting sort), then sort and compare within each group.
  const counts = new Int32Array(slots);
  for (const i of day) {
    if (table.isCancel(i)) continue;
    const s = table.slotAt(i);
    counts[s] = (counts[s] ?? 0) + 1;
  }
  // offsets[s]: where contract s's group starts; the last, where the groups end.
  const offsets = new Int32Array(slots + 1);
  counts.forEach((count, s) => (offsets[s + 1] = (offsets[s] ?? 0) + count));
  const fill = offsets.slice(0, -1);
  const grouped = new Float64Array(offsets[slots] ?? 0);
  for (const i of day) {
    if (table.isCancel(i)) continue;
    const s = table.slotAt(i);
    const at = fill[s] ?? 0;
    grouped[at] = table.sequenceAt(i);
    fill[s] = at + 1;
  }
  for (let s = 0; s < slots; s++) {
    const group = grouped.subarray(offsets[s], offsets[s + 1]).sort();
    for (let g = 1; g < group.length; g++) if (group[g] === group[g - 1]) return false;
  }
  return true;
}

/** Whether print `b` comes after print `a` or with it (same date, time and sequence). */
function inOrder(table: PrintTable, a: number, b: number): boolean {
  const d = table.dateAt(b) - table.dateAt(a);
  const t = table.timestampAt(b) - table.timestampAt(a);
  return d > 0 || (d === 0 && (t > 0 || (t === 0 && table.sequenceAt(b) >= table.sequenceAt(a))));
}

/** Whether print `b` repeats print `a`: same trading date, contract, timestamp and sequence, neither a cancel record. */
function repeats(table: PrintTable, a: number, b: number): boolean {
  return (
    !table.isCancel(a) &&
    !table.isCancel(b) &&
    table.sequenceAt(a) === table.sequenceAt(b) &&
    table.timestampAt(a) === table.timestampAt(b) &&
    table.dateAt(a) === table.dateAt(b) &&
    table.slotAt(a) === table.slotAt(b)
  );
}

/**
 * The prints of a read file in classification order. Renumbers the table's trading dates in
 * calendar order (date index d becomes the rank of its date).
 */
export function sortPrints({ table, dateIndex }: ReadPrints): SortedPrints {
  const dates = [...dateIndex.keys()].sort();
  const rank = new Int32Array(dates.length);
  dates.forEach((date, r) => (rank[dateIndex.get(date) ?? -1] = r));
  table.renumberDates(rank);
  const n = table.length;

  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = inOrder(table, i - 1, i);
  let order = new Int32Array(n);
  if (sorted) for (let i = 0; i < n; i++) order[i] = i;
  else {
    // Lines rise in read order, so the table index breaks the remaining ties.
    const indexes = Array.from({ length: n }, (_, i) => i);
    indexes.sort(
      (a, b) =>
        table.dateAt(a) - table.dateAt(b) ||
        table.timestampAt(a) - table.timestampAt(b) ||
        table.sequenceAt(a) - table.sequenceAt(b) ||
        a - b,
    );
    order = Int32Array.from(indexes);
  }

  let kept = 0;
  let previous = -1;
  for (const i of order) {
    if (previous >= 0 && repeats(table, previous, i)) continue;
    order[kept++] = i;
    previous = i;
  }
  const duplicates = n - kept;
  order = order.subarray(0, kept);

  const days: PrintDay[] = [];
  let start = 0;
  while (start < kept) {
    const date = table.dateAt(order[start] ?? -1);
    let end = start;
    while (end < kept && table.dateAt(order[end] ?? -1) === date) end++;
    days.push({ tradingDate: dates[date] ?? '', start, end, uniqueKeys: keysUnique(table, order.subarray(start, end)) });
    start = end;
  }
  return { table, order, days, duplicates };
}
