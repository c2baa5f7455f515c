/**
 * Cross-parameter rules the contract's schemas cannot express (one of two parameters, windows
 * within one session, a sort valid for the grain, ranges of at most 31 days), by operation, for
 * queries given as data: exports check them before accepting a job, as the routes do per request.
 */
import type { OperationId } from '../contract.js';
import type { ErrorDetail } from '../errors.js';
import { ivQueryProblems } from './contract.js';
import { feedQueryProblems, leadersQueryProblems } from './flow.js';

type Rule = (query: Record<string, unknown>, now: number) => ErrorDetail[];

export const CROSS_PARAMETER_RULES: Partial<Record<OperationId, Rule>> = {
  listOptionTrades: (q, now) => feedQueryProblems('listOptionTrades', q, now),
  listOptionFlow: (q, now) => feedQueryProblems('listOptionFlow', q, now),
  listOvernightOptionFlow: (q, now) => feedQueryProblems('listOvernightOptionFlow', q, now),
  getPremiumDrift: (q, now) => feedQueryProblems('getPremiumDrift', q, now),
  listFlowLeaders: (q) => leadersQueryProblems(q),
  listContractImpliedVolatility: (q, now) => ivQueryProblems(q, now),
};

/** Problems of a (schema-valid, coerced) query under its operation's cross-parameter rules. */
export function crossParameterProblems(operationId: OperationId, query: Record<string, unknown>, now: number): ErrorDetail[] {
  return CROSS_PARAMETER_RULES[operationId]?.(query, now) ?? [];
}
