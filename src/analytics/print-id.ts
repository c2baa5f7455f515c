/**
 * The two identifiers of the print store, built and read here only. A contract key names one listed
 * contract (`root:expiry:strike × 1000:C|P`); a print id adds the trading date and the vendor's
 * sequence (`SPXW:2024-12-20:5900000:C:2024-12-19:8812`), which together with the contract make a
 * print unique. Cancels name the print they retract by this id, so the parse must invert the build.
 */
import type { OptionType } from './pricing.js';

export interface ContractKeyParts {
  root: string;
  dateOfExpiry: string;
  strike: number;
  type: OptionType;
}

export interface PrintIdParts extends ContractKeyParts {
  tradingDate: string;
  sequence: number;
}

/** root:expiry:strike × 1000:C|P. */
export function contractKey(p: ContractKeyParts): string {
  const right = p.type === 'call' ? 'C' : 'P';
  return `${p.root}:${p.dateOfExpiry}:${Math.round(p.strike * 1000)}:${right}`;
}

/** root:expiry:strike × 1000:C|P:tradingDate:sequence. */
export function printId(p: PrintIdParts): string {
  return printIdOf(contractKey(p), p.tradingDate, p.sequence);
}

/** The print id from a contract key already built (the classifier keeps one per contract). */
export function printIdOf(key: string, tradingDate: string, sequence: number): string {
  return `${key}:${tradingDate}:${sequence}`;
}

/** The contract key, trading date and sequence of a print id; null when the text is not one. */
export function parsePrintId(id: string): { contractKey: string; tradingDate: string; sequence: number } | null {
  const parts = id.split(':');
  if (parts.length !== 6) return null;
  const [root = '', expiry = '', strike = '', right = '', tradingDate = '', sequence = ''] = parts;
  if (root === '' || !/^\d{4}-\d{2}-\d{2}$/.test(expiry) || !/^\d+$/.test(strike) || (right !== 'C' && right !== 'P')) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(tradingDate) || !/^\d+$/.test(sequence)) return null;
  return { contractKey: `${root}:${expiry}:${strike}:${right}`, tradingDate, sequence: Number(sequence) };
}
