/**
 * Every rule a query must keep besides each parameter's own schema, for a query given as data (an
 * export's): the rules between parameters that the contract declares (x-parameter-rules, applied to
 * requests by middleware/parameter-rules.ts), and the rules that need the exchange calendar, which
 * the route's service checks on a request (a window within one session; a range of at most 31
 * days). A request to the route and an export of it are refused for the same reasons.
 */
import type { OperationId, OperationSpec } from '../contract.js';
import type { ErrorDetail } from '../errors.js';
import { parameterRuleProblems } from '../parameter-rules.js';
import { ivRangeProblems } from './contract-history.js';
import { feedWindowProblems } from './print-feeds.js';

type CalendarRule = (query: Record<string, unknown>, now: number) => ErrorDetail[];

const CALENDAR_RULES: Partial<Record<OperationId, CalendarRule>> = {
  listOptionTrades: (q, now) => feedWindowProblems('listOptionTrades', q, now),
  listOptionFlow: (q, now) => feedWindowProblems('listOptionFlow', q, now),
  listOvernightOptionFlow: (q, now) => feedWindowProblems('listOvernightOptionFlow', q, now),
  getPremiumDrift: (q, now) => feedWindowProblems('getPremiumDrift', q, now),
  listContractImpliedVolatility: (q, now) => ivRangeProblems(q, now),
};

/** Problems of the rules that need the calendar; empty for a route that has none. */
export function calendarProblems(operation: OperationSpec, query: Record<string, unknown>, now: number): ErrorDetail[] {
  return CALENDAR_RULES[operation.operationId]?.(query, now) ?? [];
}

/** Problems of a (schema-valid, coerced, defaults applied) query; empty when the route would accept it. */
export function queryProblems(operation: OperationSpec, query: Record<string, unknown>, now: number): ErrorDetail[] {
  return [...parameterRuleProblems(operation.facts.parameterRules, query), ...calendarProblems(operation, query, now)];
}
