/**
 * Validates a query given as data (an export's `query`, a stream subscription's parameters) by the
 * target route's own parameter schemas from the contract: the same schemas, with the same formats,
 * that express-openapi-validator enforces on a request (middleware/validation.ts), compiled once
 * per operation. The rules between parameters come after (index.ts queryProblems).
 * Values arrive as JSON (string, number, boolean, or an array of those); list parameters also
 * accept the comma-separated form. The result is the coerced query with the contract's defaults
 * applied, or one detail per bad parameter.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiContract, OperationId, OperationSpec } from '../api-contract/openapi.js';
import type { ErrorDetail } from '../errors.js';
import { echoed, numericTypeOf, numericValueProblem } from '../formats.js';
import { PARAMETER_FORMATS } from './formats.js';
import { applyConditionalDefaults } from './rules.js';

export type QueryValue = string | number | boolean | (string | number | boolean)[];
export type QueryCheck = { ok: true; query: Record<string, unknown> } | { ok: false; details: ErrorDetail[] };

function describe(error: ErrorObject): { parameter: string; message: string } {
  const [, name = ''] = error.instancePath.split('/');
  if (error.keyword === 'additionalProperties') {
    return { parameter: echoed(String((error.params as { additionalProperty: string }).additionalProperty)), message: 'unknown parameter' };
  }
  if (error.keyword === 'required') {
    return { parameter: String((error.params as { missingProperty: string }).missingProperty), message: 'is required' };
  }
  return { parameter: name, message: error.message ?? 'is invalid' };
}

export class QueryValidator {
  private readonly validators = new Map<OperationId, { validate: ValidateFunction; operation: OperationSpec }>();

  constructor(contract: ApiContract) {
    const ajv = new Ajv2020({ coerceTypes: true, allErrors: true, strict: false, useDefaults: true });
    addFormats.default(ajv);
    for (const [name, format] of Object.entries(PARAMETER_FORMATS)) ajv.addFormat(name, format);
    for (const operation of contract.operations) {
      const query = operation.parameters.filter((p) => p.in === 'query');
      const schema = {
        type: 'object',
        additionalProperties: false,
        required: query.filter((p) => p.required).map((p) => p.name),
        properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
      };
      this.validators.set(operation.operationId, { validate: ajv.compile(schema), operation });
    }
  }

  check(operationId: OperationId, query: Record<string, QueryValue>, overrides: Record<string, Record<string, unknown>> = {}): QueryCheck {
    const entry = this.validators.get(operationId);
    if (!entry) return { ok: false, details: [{ parameter: 'path', message: 'not a route of the contract' }] };
    const details: ErrorDetail[] = [];
    const normalised: Record<string, unknown> = {};
    // A numeric parameter is refused as the request path refuses it (formats.ts): a string not in
    // plain decimal, a boolean, or a JSON number that is not finite (1e309 parses to Infinity).
    const badNumbers = new Set<string>();
    for (const [name, value] of Object.entries(query)) {
      const param = entry.operation.parameters.find((p) => p.in === 'query' && p.name === name);
      const isList = param?.schema.type === 'array';
      if (Array.isArray(value) && !isList) {
        details.push({ parameter: echoed(name), message: 'takes one value, not a list' });
        continue;
      }
      const items = isList ? (Array.isArray(value) ? value : String(value).split(',')) : [value];
      const numeric = param ? numericTypeOf(param.schema) : null;
      const problem = numeric ? items.map((item) => numericValueProblem(numeric.type, item)).find((p) => p !== null) : null;
      if (problem) {
        details.push({ parameter: name, message: problem });
        badNumbers.add(name);
      } else {
        normalised[name] = isList ? items : value;
      }
    }
    // Parameters whose rules differ for exports (limit) are checked here and left out of the schema.
    for (const [name, rule] of Object.entries(overrides)) {
      if (!(name in normalised)) continue;
      // Its form is checked above (a numeric parameter of the contract): Number() reads it as the validator would.
      const value = Number(normalised[name]);
      const min = Number(rule.minimum);
      const max = Number(rule.maximum);
      if (!Number.isInteger(value) || value < min || value > max)
        details.push({ parameter: name, message: `must be an integer from ${min} to ${max}` });
      else normalised[name] = value;
    }
    const forSchema = Object.fromEntries(Object.entries(normalised).filter(([name]) => !(name in overrides)));
    if (!entry.validate(forSchema)) {
      for (const error of entry.validate.errors ?? []) {
        const detail = describe(error);
        if (!badNumbers.has(detail.parameter)) details.push(detail);
      }
    }
    if (details.length > 0) return { ok: false, details };
    // The defaults that depend on another parameter (the contract's default_when rules) too, as the
    // request path applies them.
    const coerced = { ...forSchema, ...Object.fromEntries(Object.entries(normalised).filter(([name]) => name in overrides)) };
    // A parameter whose rules differ (an export's limit: the file's row cap) takes no default of the
    // route's own when not sent: the route's default page size is not the export's cap.
    for (const name of Object.keys(overrides)) if (!(name in normalised)) delete coerced[name];
    return { ok: true, query: applyConditionalDefaults(entry.operation.facts.parameterRules, coerced) };
  }
}
