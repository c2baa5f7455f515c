/**
 * The contract's own string and number formats (`format: date`, `format: strike`), checked the
 * same way by the request validator and by the query validator of exports.
 */

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** A strike in dollars with at most three decimals (float noise tolerated). */
export function hasAtMostThreeDecimals(value: number): boolean {
  return Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}

/**
 * The textual forms a numeric query value may take (the contract's info.description states them):
 * an integer is plain decimal digits with an optional minus sign (`-?\d+`), a safe integer; a number
 * is a decimal with an optional fraction and exponent (`-?\d+(\.\d+)?([eE][+-]?\d+)?`, JSON's
 * number text with leading zeros allowed), finite. Everything else JavaScript's Number() or ajv's
 * coercion would read (hex, binary, `Infinity`, `NaN`, blanks, a sign `+`, an empty value, an
 * exponent on an integer, an overflow to Infinity) is refused before the validator coerces it.
 */
const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export type NumericType = 'integer' | 'number';

/** The numeric type of a parameter schema (or of its items, for a list), or null. */
export function numericTypeOf(schema: Record<string, unknown>): { type: NumericType; list: boolean } | null {
  const items = schema.type === 'array' ? (schema.items as Record<string, unknown> | undefined) : undefined;
  const type = items ? items.type : schema.type;
  return type === 'integer' || type === 'number' ? { type, list: items !== undefined } : null;
}

/** Why `text` is not a numeric value of the type, or null when it is one. */
export function numericTextProblem(type: NumericType, text: string): string | null {
  if (type === 'integer') {
    if (!INTEGER_TEXT.test(text)) return 'must be an integer in plain decimal digits';
    return Number.isSafeInteger(Number(text)) ? null : 'is out of range';
  }
  if (!NUMBER_TEXT.test(text)) return 'must be a decimal number';
  return Number.isFinite(Number(text)) ? null : 'must be a finite number';
}

/** Why a JSON value (an export's query) is not a numeric value of the type, or null when it is one. */
export function numericValueProblem(type: NumericType, value: unknown): string | null {
  if (typeof value === 'string') return numericTextProblem(type, value);
  if (typeof value !== 'number') return type === 'integer' ? 'must be an integer' : 'must be a number';
  if (!Number.isFinite(value)) return 'must be a finite number';
  if (type === 'number') return null;
  if (!Number.isInteger(value)) return 'must be an integer';
  return Number.isSafeInteger(value) ? null : 'is out of range';
}

/** Longest user-given text echoed back in an error. */
export const ECHO_MAX = 64;

/** A user-given text as an error may echo it: at most ECHO_MAX characters, an ellipsis marking a cut. */
export function echoed(text: string): string {
  return text.length <= ECHO_MAX ? text : `${text.slice(0, ECHO_MAX - 1)}…`;
}
