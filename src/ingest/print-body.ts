/**
 * The print as served, written as the body column's text value of its stored row: the JSON object
 * of the contract's Print schema (openapi/v1.yaml components.schemas.OptionPrint), its fields in the
 * contract's order, exactly as JSON.stringify writes it. The order is read from the contract when
 * this module loads, and each field has its writer here, keyed by its name: a field of the
 * contract without a writer, or a writer without a field, stops the load with an error naming it,
 * so the body cannot drift from the contract. The body is written straight into the COPY buffer
 * in constant parts (the keys, joined with the constant text around them), cached segments (a
 * field of few values with the text around it) and numbers, with no string built for it and none
 * left for the collector; building the JSON as a string and writing it costs more, the numbers'
 * String() most of it. Its strings are words of fixed vocabularies, validated dates, and ids and
 * symbols made of a validated OCC root (letters and digits), dates, digits and colons: none holds
 * a quote, backslash or control character, so each is written between quotes as it is. Each
 * field's writer is its own function, so that its property read stays monomorphic.
 */
import type { components } from '../../generated/openapi.js';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import type { CopyBinaryWriter } from '../db/copy-binary.js';
import { apiContractPath, contractDocument } from '../api-contract/openapi.js';

/** A field of the contract's Print schema. */
export type PrintField = keyof components['schemas']['OptionPrint'];

/** Writes a print's served body into the text value its writer's row is at. */
export type PrintBodyWriter = (r: ClassifiedPrintRecord, w: CopyBinaryWriter) => void;

/** Writes one field: the constant text before its value, its value, and the text after it it took. */
type FieldWriter = (r: ClassifiedPrintRecord, w: CopyBinaryWriter) => void;

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Values a segment cache keeps (each field's vocabulary, roots, expiries and exchanges stay far below). */
const MAX_SEGMENTS = 4096;

/**
 * `prefix + value + suffix` as bytes, kept per value: for the body's fields of few values (fixed
 * vocabularies, expiries, exchanges, underlyings), a field's key, value and quotes in one copy.
 */
class Segments {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly prefix: string,
    private readonly suffix: string,
  ) {}

  of(value: string): Buffer {
    let segment = this.cache.get(value);
    if (segment === undefined) {
      segment = Buffer.from(`${this.prefix}${value}${this.suffix}`, 'utf8');
      if (this.cache.size < MAX_SEGMENTS) this.cache.set(value, segment);
    }
    return segment;
  }
}

/** `text` as bytes, or null when it is empty (nothing to write). */
function constant(text: string): Buffer | null {
  return text === '' ? null : bytes(text);
}

function numberField(w: CopyBinaryWriter, before: Buffer | null, value: number): void {
  if (before !== null) w.appendBytes(before);
  w.appendNumber(value);
}

/** `nullText`: the text before the value and `null`, in one constant. */
function numberOrNullField(w: CopyBinaryWriter, before: Buffer | null, nullText: Buffer, value: number | null): void {
  if (value === null) w.appendBytes(nullText);
  else numberField(w, before, value);
}

/** A string of known-safe characters (see the header) between constants (its quotes among them). */
function asciiField(w: CopyBinaryWriter, open: Buffer, value: string, close: Buffer): void {
  w.appendBytes(open);
  w.appendAscii(value);
  w.appendBytes(close);
}

/** The segments of a field whose value is one of few strings: the text around it and its quotes. */
function wordSegments(before: string, after: string): Segments {
  return new Segments(`${before}"`, `"${after}`);
}

/** A boolean field's two texts, each whole: [false, true]. */
function booleanTexts(before: string, after: string): [no: Buffer, yes: Buffer] {
  return [bytes(`${before}false${after}`), bytes(`${before}true${after}`)];
}

const FLAGS_NEXT = bytes('","');

/**
 * How a field is written. `make` is given the constant text around its value: `before`, its key
 * (`{"ask":` for the first field, `,"bid":` for the others) and any text the field before it left
 * (empty when that field took this one's key); and, for a field whose value ends in constant text
 * (`closes`: a quote, a bracket, a word of a vocabulary), `after`, the next field's key or the
 * closing brace, folded into its own constants. Each field's constant parts are so joined into as
 * few copies as the values between them allow.
 */
interface FieldEntry {
  closes: boolean;
  make: (before: string, after: string) => FieldWriter;
}

/** Each field of the contract's Print schema, and how it is written. */
const FIELD_WRITERS: { readonly [F in PrintField]: FieldEntry } = {
  ask: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.ask);
    },
  },
  bid: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.bid);
    },
  },
  condition_code: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.condition_code);
    },
  },
  contract_type: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.contract_type));
    },
  },
  date_of_expiry: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.date_of_expiry));
    },
  },
  day_volume: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.day_volume);
    },
  },
  days_to_expiry: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.days_to_expiry);
    },
  },
  delta: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.delta);
    },
  },
  exchange: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.exchange));
    },
  },
  exchange_code: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.exchange_code);
    },
  },
  flags: {
    closes: true,
    make: (before, after) => {
      const [none, open, close] = [bytes(`${before}[]${after}`), bytes(`${before}["`), bytes(`"]${after}`)];
      return (r, w) => {
        const flags = r.flags;
        if (flags.length === 0) {
          w.appendBytes(none);
          return;
        }
        let next = open;
        for (const flag of flags) {
          w.appendBytes(next);
          w.appendAscii(flag);
          next = FLAGS_NEXT;
        }
        w.appendBytes(close);
      };
    },
  },
  group_id: {
    closes: true,
    make: (before, after) => {
      const [none, open, close] = [bytes(`${before}null${after}`), bytes(`${before}"`), bytes(`"${after}`)];
      return (r, w) => {
        if (r.group_id === null) w.appendBytes(none);
        else asciiField(w, open, r.group_id, close);
      };
    },
  },
  id: {
    closes: true,
    make: (before, after) => {
      const [open, close] = [bytes(`${before}"`), bytes(`"${after}`)];
      return (r, w) => asciiField(w, open, r.id, close);
    },
  },
  implied_volatility: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.implied_volatility);
    },
  },
  is_block: {
    closes: true,
    make: (before, after) => {
      const [no, yes] = booleanTexts(before, after);
      return (r, w) => w.appendBytes(r.is_block ? yes : no);
    },
  },
  is_golden: {
    closes: true,
    make: (before, after) => {
      const [no, yes] = booleanTexts(before, after);
      return (r, w) => w.appendBytes(r.is_golden ? yes : no);
    },
  },
  is_unusual: {
    closes: true,
    make: (before, after) => {
      const [no, yes] = booleanTexts(before, after);
      return (r, w) => w.appendBytes(r.is_unusual ? yes : no);
    },
  },
  open_interest: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.open_interest);
    },
  },
  otm_percent: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.otm_percent);
    },
  },
  premium: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.premium);
    },
  },
  price: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.price);
    },
  },
  sentiment: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.sentiment));
    },
  },
  session: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.session));
    },
  },
  side: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.side));
    },
  },
  side_confidence: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.side_confidence);
    },
  },
  size: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.size);
    },
  },
  strike: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.strike);
    },
  },
  timestamp: {
    closes: false,
    make: (before) => {
      const k = constant(before);
      return (r, w) => numberField(w, k, r.timestamp);
    },
  },
  trade_type: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.trade_type));
    },
  },
  underlying_price: {
    closes: false,
    make: (before) => {
      const [k, n] = [constant(before), bytes(`${before}null`)];
      return (r, w) => numberOrNullField(w, k, n, r.underlying_price);
    },
  },
  underlying_symbol: {
    closes: true,
    make: (before, after) => {
      const s = wordSegments(before, after);
      return (r, w) => w.appendBytes(s.of(r.underlying_symbol));
    },
  },
};

function hasWriter(field: string): field is PrintField {
  return Object.hasOwn(FIELD_WRITERS, field);
}

/**
 * The body writer of the fields `fields`, in that order. Throws, naming them, when a field has no
 * writer, a writer has no field, or a field is named twice.
 */
export function printBodyWriter(fields: readonly string[]): PrintBodyWriter {
  const problems: string[] = [];
  const unwritten = fields.filter((f) => !hasWriter(f));
  if (unwritten.length > 0) problems.push(`fields without a writer: ${unwritten.join(', ')}`);
  const unused = Object.keys(FIELD_WRITERS).filter((f) => !fields.includes(f));
  if (unused.length > 0) problems.push(`writers without a field: ${unused.join(', ')}`);
  const repeated = fields.filter((f, k) => fields.indexOf(f) !== k);
  if (repeated.length > 0) problems.push(`fields named twice: ${repeated.join(', ')}`);
  if (problems.length > 0)
    throw new Error(`the print body (src/ingest/print-body.ts) does not match the contract's Print schema: ${problems.join('; ')}`);
  const keys = fields.map((f, k) => `${k === 0 ? '{' : ','}${JSON.stringify(f)}:`);
  const writers: FieldWriter[] = [];
  // The constant text not yet given to a field: a key, or at the end the closing brace.
  let pending = keys[0] ?? '{';
  fields.filter(hasWriter).forEach((field, k) => {
    const entry = FIELD_WRITERS[field];
    const next = keys[k + 1] ?? '}';
    writers.push(entry.make(pending, entry.closes ? next : ''));
    pending = entry.closes ? '' : next;
  });
  const close = constant(pending);
  return (r, w) => {
    w.openText();
    for (const write of writers) write(r, w);
    if (close !== null) w.appendBytes(close);
    w.closeText();
  };
}

/** `node[key]` when node is an object (a parsed YAML mapping), else undefined. */
function member(node: unknown, key: string): unknown {
  // An object of parsed YAML: its members are unknown until checked, as each caller does.
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
}

/** The fields of the contract's Print schema, in its order. */
export function contractPrintFields(file = apiContractPath): string[] {
  const document: unknown = contractDocument(file);
  const properties = member(member(member(member(document, 'components'), 'schemas'), 'OptionPrint'), 'properties');
  if (typeof properties !== 'object' || properties === null) throw new Error(`${file} has no components.schemas.OptionPrint.properties`);
  return Object.keys(properties);
}

/** Writes the print as served (see the header). */
export const writePrintBody: PrintBodyWriter = printBodyWriter(contractPrintFields());
