/**
 * Validates a query given as data (an export's `query`) by the target route's own parameter rules
 * from the contract: the same schemas the request validator enforces, compiled once per operation.
 * Values arrive as JSON (string, number, boolean, or an array of those); list parameters also
 * accept the comma-separated form. The result is the coerced query, or one detail per bad parameter.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Contract, OperationId, OperationSpec } from '../contract.js';
import type { ErrorDetail } from '../errors.js';

export type QueryValue = string | number | boolean | (string | number | boolean)[];
export type QueryCheck = { ok: true; query: Record<string, unknown> } | { ok: false; details: ErrorDetail[] };

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** A strike in dollars with at most three decimals (float noise tolerated). */
export function hasAtMostThreeDecimals(value: number): boolean {
  return Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}

function describe(error: ErrorObject): { parameter: string; message: string } {
  const [, name = ''] = error.instancePath.split('/');
  if (error.keyword === 'additionalProperties') {
    return { parameter: String((error.params as { additionalProperty: string }).additionalProperty), message: 'unknown parameter' };
  }
  if (error.keyword === 'required') {
    return { parameter: String((error.params as { missingProperty: string }).missingProperty), message: 'is required' };
  }
  return { parameter: name, message: error.message ?? 'is invalid' };
}

export class QueryValidator {
  private readonly validators = new Map<OperationId, { validate: ValidateFunction; operation: OperationSpec }>();

  constructor(contract: Contract) {
    const ajv = new Ajv2020({ coerceTypes: true, allErrors: true, strict: false, useDefaults: true });
    addFormats.default(ajv);
    ajv.addFormat('date', { type: 'string', validate: isCalendarDate });
    ajv.addFormat('strike', { type: 'number', validate: hasAtMostThreeDecimals });
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
    for (const [name, value] of Object.entries(query)) {
      const param = entry.operation.parameters.find((p) => p.in === 'query' && p.name === name);
      const isList = param?.schema.type === 'array';
      if (isList) normalised[name] = Array.isArray(value) ? value : String(value).split(',');
      else if (Array.isArray(value)) details.push({ parameter: name, message: 'takes one value, not a list' });
      else normalised[name] = value;
    }
    // Parameters whose rules differ for exports (limit) are checked here and left out of the schema.
    for (const [name, rule] of Object.entries(overrides)) {
      if (!(name in normalised)) continue;
      const value = Number(normalised[name]);
      const min = Number(rule.minimum);
      const max = Number(rule.maximum);
      if (!Number.isInteger(value) || value < min || value > max) details.push({ parameter: name, message: `must be an integer from ${min} to ${max}` });
      else normalised[name] = value;
    }
    const forSchema = Object.fromEntries(Object.entries(normalised).filter(([name]) => !(name in overrides)));
    if (!entry.validate(forSchema)) {
      for (const error of entry.validate.errors ?? []) details.push(describe(error));
    }
    if (details.length > 0) return { ok: false, details };
    return { ok: true, query: { ...forSchema, ...Object.fromEntries(Object.entries(normalised).filter(([name]) => name in overrides)) } };
  }
}
