/**
 * An operation's rules between parameters (the contract's `x-parameter-rules`, parameter-rules.ts),
 * applied to each request after the validator: 400 naming every parameter of every broken rule, or
 * the query with its conditional defaults filled in (sort by grain on the flow leaders).
 */
import type { Request, RequestHandler, Response } from 'express';
import type { OperationSpec } from '../contract.js';
import { invalidParameters, type ErrorDetail } from '../errors.js';
import { applyConditionalDefaults, parameterRuleProblems } from '../parameter-rules.js';

export interface ParameterRulesOptions {
  /**
   * The operation's rules that stay in code (calendar, clock), asked only when a declared rule
   * fails, so that one 400 still names every bad parameter as before the rules were declared (the
   * print feeds and premium drift add their window's problems). When the declared rules pass,
   * the handler checks its own.
   */
  codedProblems?: (req: Request, res: Response) => ErrorDetail[];
}

export function parameterRules(operation: Pick<OperationSpec, 'facts'>, options: ParameterRulesOptions = {}): RequestHandler {
  const rules = operation.facts.parameterRules;
  if (rules.length === 0) return (_req, _res, next) => next();
  const hasDefaults = rules.some((r) => r.kind === 'default_when');
  return (req, res, next) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const problems = parameterRuleProblems(rules, query);
    if (problems.length > 0) {
      next(invalidParameters([...problems, ...(options.codedProblems?.(req, res) ?? [])]));
      return;
    }
    if (hasDefaults) {
      const completed = applyConditionalDefaults(rules, query);
      // express 5's req.query is a getter of the prototype that parses the URL again on each read;
      // the validator leaves its coerced query as a writable value of the request itself.
      if (completed !== query) {
        if (Object.getOwnPropertyDescriptor(req, 'query')?.writable) req.query = completed as Request['query'];
        else Object.defineProperty(req, 'query', { value: completed, writable: true, configurable: true, enumerable: true });
      }
    }
    next();
  };
}
