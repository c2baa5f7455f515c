/**
 * The outcomes of a load's records, and the rule that they add up: every record a file gives is
 * counted in exactly one named outcome, so that read = loaded + rejected + duplicates + skipped +
 * superseded + cancels + cancels_of_stored + cancels_already_applied + cancels_unmatched. Every
 * loader checks it inside its transaction, before the ledger records the file, and throws when
 * the counts do not add up: that means the pipeline lost or invented records (a fault of the code,
 * not of the file), and committing would store rows that no count vouches for and mark the file
 * loaded, so that loading it again after the fix would need --force. Thrown, the transaction rolls
 * back, nothing is written, and the error names every count. The summary names each outcome a file
 * of its kind can have (the command's line, seed logs).
 */
import type { MarketLoadResult } from './source.js';
import { isVendorKind, VENDOR_ADAPTERS } from './vendors.js';

/** Each outcome: its field in MarketLoadResult and its name in summaries. */
export const LOAD_OUTCOMES = [
  { field: 'loaded', name: 'loaded' },
  { field: 'rejected', name: 'rejected' },
  { field: 'duplicates', name: 'duplicates' },
  { field: 'skipped', name: 'skipped' },
  { field: 'superseded', name: 'superseded' },
  { field: 'cancels', name: 'cancels' },
  { field: 'cancelsOfStored', name: 'cancels_of_stored' },
  { field: 'cancelsAlreadyApplied', name: 'cancels_already_applied' },
  { field: 'cancelsUnmatched', name: 'cancels_unmatched' },
] as const;

export type LoadOutcome = (typeof LOAD_OUTCOMES)[number]['field'];

const CANCEL_OUTCOMES: readonly LoadOutcome[] = ['cancels', 'cancelsOfStored', 'cancelsAlreadyApplied', 'cancelsUnmatched'];

/** The records of a result counted in `outcome`. */
export function outcomeCount(result: MarketLoadResult, outcome: LoadOutcome): number {
  return outcome === 'rejected' ? result.rejected.length : result[outcome];
}

/**
 * The outcomes a file of `kind` can have: loaded, rejected and duplicates; skipped for a vendor
 * layout (records of other types); superseded for quotes and futures statistics; the cancel
 * outcomes for prints.
 */
export function outcomesOf(kind: MarketLoadResult['kind']): LoadOutcome[] {
  const canonical = isVendorKind(kind) ? VENDOR_ADAPTERS[kind].canonical : kind;
  return LOAD_OUTCOMES.map((o) => o.field).filter(
    (field) =>
      field === 'loaded' ||
      field === 'rejected' ||
      field === 'duplicates' ||
      (field === 'skipped' && isVendorKind(kind)) ||
      (field === 'superseded' && (canonical === 'quotes' || canonical === 'futures_statistics')) ||
      (CANCEL_OUTCOMES.includes(field) && canonical === 'prints'),
  );
}

/** The records the outcomes account for: read, when the counts add up. */
export function accountedRecords(result: MarketLoadResult): number {
  return LOAD_OUTCOMES.reduce((sum, o) => sum + outcomeCount(result, o.field), 0);
}

/**
 * `read R, loaded L, rejected X, duplicates D, ...`: the records read, then the outcomes of the
 * result's kind, zeros included, and any other outcome that is not zero; when the counts add up,
 * the outcomes sum to R.
 */
export function countsSummary(result: MarketLoadResult): string {
  const own = outcomesOf(result.kind);
  const terms = LOAD_OUTCOMES.filter((o) => own.includes(o.field) || outcomeCount(result, o.field) !== 0).map(
    (o) => `${o.name} ${outcomeCount(result, o.field)}`,
  );
  return [`read ${result.read}`, ...terms].join(', ');
}

/** A load whose counts do not add up (see the header): a fault of the pipeline. */
export class LoadCountError extends Error {
  constructor(readonly result: MarketLoadResult) {
    const accounted = accountedRecords(result);
    const bad = LOAD_OUTCOMES.filter((o) => !isCount(outcomeCount(result, o.field))).map((o) => o.name);
    const gap = result.read - accounted;
    super(
      `${result.file}: the load's counts do not add up, nothing was written: ${countsSummary(result)}` +
        (gap > 0 ? ` (the outcomes sum to ${accounted}: ${gap} records unexplained)` : '') +
        (gap < 0 ? ` (the outcomes sum to ${accounted}: ${-gap} more than read)` : '') +
        (bad.length > 0 ? ` (not a count: ${bad.join(', ')})` : ''),
    );
    this.name = 'LoadCountError';
  }
}

function isCount(n: number): boolean {
  return Number.isInteger(n) && n >= 0;
}

/** Throws LoadCountError unless every count is a whole number and read = the sum of the outcomes. */
export function checkLoadCounts(result: MarketLoadResult): void {
  if (
    !isCount(result.read) ||
    accountedRecords(result) !== result.read ||
    LOAD_OUTCOMES.some((o) => !isCount(outcomeCount(result, o.field)))
  ) {
    throw new LoadCountError(result);
  }
}
