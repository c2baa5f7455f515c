/**
 * The route catalog, built from the contract's operations and their `x-` route facts: nothing else
 * repeats them. Parameter types are named in the catalog's vocabulary (string, int, number, decimal,
 * bool, ms, date, enum, list).
 */
import type { components } from '../../generated/openapi.js';
import type { OperationSpec, ParameterSpec } from './openapi.js';

export type CatalogEntry = components['schemas']['CatalogEntry'];
type CatalogParam = CatalogEntry['params'][number];
type Schema = Record<string, unknown>;

const UNIX_MS_MINIMUM = 946_684_800_000;

function typeName(schema: Schema): CatalogParam['type'] {
  const type = schema.type;
  if (type === 'array') return 'list';
  if (Array.isArray(schema.enum)) return 'enum';
  if (type === 'boolean') return 'bool';
  if (type === 'integer') return typeof schema.minimum === 'number' && schema.minimum >= UNIX_MS_MINIMUM ? 'ms' : 'int';
  if (type === 'number') return schema.format === 'strike' ? 'decimal' : 'number';
  if (schema.format === 'date') return 'date';
  return 'string';
}

function catalogParam(param: ParameterSpec): CatalogParam {
  const schema = param.schema;
  const out: CatalogParam = { name: param.name, type: typeName(schema), required: param.required, description: param.description };
  if (schema.default !== undefined) out.default = schema.default;
  const items = schema.items as Schema | undefined;
  const enumSource = (items?.enum ?? schema.enum) as unknown[] | undefined;
  if (Array.isArray(enumSource)) out.enum = enumSource.map(String);
  if (items) out.item = typeName(items);
  const min = schema.minimum ?? schema.exclusiveMinimum;
  if (typeof min === 'number') out.min = min;
  if (typeof schema.maximum === 'number') out.max = schema.maximum;
  if (typeof schema.maxItems === 'number') out.max_items = schema.maxItems;
  return out;
}

export function buildCatalog(operations: readonly OperationSpec[]): CatalogEntry[] {
  return operations
    .map((op) => {
      const entry: CatalogEntry = {
        id: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        family: op.facts.family,
        dataset: op.facts.dataset,
        public: op.facts.public,
        mcp: op.facts.mcp,
        streamable: op.facts.streamable,
        overnight: op.facts.overnight,
        paginated: op.facts.paginated,
        summary: op.summary,
        description: op.description.trim(),
        params: op.parameters.filter((p) => p.in === 'query').map(catalogParam),
      };
      if (op.facts.historyParams.length > 0) entry.history_params = op.facts.historyParams;
      return entry;
    })
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Families whose routes are data endpoints: the only ones an export may target. */
export const EXPORTABLE_FAMILIES: ReadonlySet<string> = new Set(['options', 'futures', 'indices', 'stocks', 'market']);
