/**
 * The columns of a flat export file (csv, parquet), read from the contract: the properties of the
 * route's row schema (the items of its 200 answer's `data` array), in the contract's order, each
 * with the kind of value it holds. A route whose `data` is not an array of objects has no columns:
 * it is exported as JSON only.
 *
 * Kinds: `timestamp` for Unix milliseconds (a `UnixMs` reference, or an integer named `timestamp`
 * or `…_timestamp`); `date` for a string of format date; `integer`, `number`, `boolean`, `string`
 * (enumerations included) for scalars; `json` for anything else (arrays, objects, unions), which a
 * flat file carries as its JSON text.
 */
import { resolveRef, type Json } from '../json-ref.js';
import type { ApiContract, OperationSpec } from './openapi.js';

export type ColumnKind = 'timestamp' | 'date' | 'integer' | 'number' | 'boolean' | 'string' | 'json';

export interface ExportColumn {
  name: string;
  kind: ColumnKind;
}

const UNIX_MS = '#/components/schemas/UnixMs';

/** The schema's types without 'null' (`type: [number, 'null']` is a number that may be null). */
function typesOf(schema: Json): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? type.map(String) : typeof type === 'string' ? [type] : [];
  return types.filter((t) => t !== 'null');
}

function kindOf(document: Json, name: string, property: unknown): ColumnKind {
  if ((property as Json | undefined)?.$ref === UNIX_MS) return 'timestamp';
  const schema = resolveRef(document, property);
  const types = typesOf(schema);
  if (types.length !== 1) return 'json';
  const type = types[0];
  if (type === 'integer') return name === 'timestamp' || name.endsWith('_timestamp') ? 'timestamp' : 'integer';
  if (type === 'number' || type === 'boolean') return type;
  if (type === 'string') return schema.format === 'date' ? 'date' : 'string';
  return 'json';
}

/** The row columns of an operation's answer, or null when its `data` is not an array of objects. */
export function columnsOf(document: Json, operation: Pick<OperationSpec, 'path' | 'method'>): ExportColumn[] | null {
  const op = ((document.paths as Record<string, Json>)[operation.path] as Record<string, Json> | undefined)?.[operation.method];
  const response = resolveRef(document, (op?.responses as Json | undefined)?.['200']);
  const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
  if (!media) return null;
  const body = resolveRef(document, media.schema);
  const data = resolveRef(document, (body.properties as Json | undefined)?.data);
  if (!typesOf(data).includes('array') || data.items === undefined) return null;
  const row = resolveRef(document, data.items);
  const properties = row.properties as Json | undefined;
  if (!typesOf(row).includes('object') || !properties) return null;
  return Object.entries(properties).map(([name, property]) => ({ name, kind: kindOf(document, name, property) }));
}

const memo = new WeakMap<ApiContract, Map<string, ExportColumn[] | null>>();

/** columnsOf, read once per contract and operation. */
export function exportColumns(contract: ApiContract, operation: OperationSpec): ExportColumn[] | null {
  let byOperation = memo.get(contract);
  if (!byOperation) memo.set(contract, (byOperation = new Map<string, ExportColumn[] | null>()));
  if (!byOperation.has(operation.operationId)) byOperation.set(operation.operationId, columnsOf(contract.document, operation));
  return byOperation.get(operation.operationId) ?? null;
}
