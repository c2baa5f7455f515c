/**
 * What a request's parameters may be, in one module: the contract's parameter schemas (checked on
 * a request by express-openapi-validator with PARAMETER_FORMATS, on a query given as data by
 * QueryValidator), the two forms a list parameter may be sent in (list-forms.ts) and its rules
 * between parameters (`x-parameter-rules`, rules.ts), calendar windows included. The HTTP edge (middleware/validation.ts, middleware/parameter-rules.ts, and MCP
 * through it), exports and the stream channels all ask here. Below middleware and services: it
 * reads the contract, errors, formats and the pure calendar (src/analytics) only.
 */
import type { OperationSpec } from '../api-contract/openapi.js';
import type { ErrorDetail } from '../errors.js';
import { parameterRuleProblems } from './rules.js';

export { PARAMETER_FORMATS } from './formats.js';
export { joinRepeatedLists } from './list-forms.js';
export { QueryValidator, type QueryCheck, type QueryValue } from './query-validator.js';
export { applyConditionalDefaults, CALENDAR_KINDS, parameterRuleProblems, type ParameterRule } from './rules.js';

/**
 * Problems of a query given as data (schema-valid, coerced, defaults applied) with the operation's
 * rules, in the order the contract declares them; empty when the route would accept it.
 */
export function queryProblems(operation: Pick<OperationSpec, 'facts'>, query: Record<string, unknown>): ErrorDetail[] {
  return parameterRuleProblems(operation.facts.parameterRules, query);
}
