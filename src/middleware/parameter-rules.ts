/**
 * The express glue of an operation's rules between parameters (the contract's `x-parameter-rules`,
 * checked by src/parameters), run after the validator: 400 naming every parameter of every broken
 * rule, or the query with its conditional defaults filled in (sort by grain on the flow leaders).
 *
 * A request that breaks only calendar rules (parameters CALENDAR_KINDS) goes on, its problems kept
 * in res.locals.calendarProblems, and is answered 400 by throwCalendarProblems after the entitlement
 * check (app.ts dispatch), where the services answered it before those rules were declared.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { OperationSpec } from '../api-contract/openapi.js';
import { invalidParameters, type ErrorDetail } from '../errors.js';
import { applyConditionalDefaults, CALENDAR_KINDS, parameterRuleProblems } from '../parameters/index.js';

export function parameterRules(operation: Pick<OperationSpec, 'facts'>): RequestHandler {
  const rules = operation.facts.parameterRules;
  if (rules.length === 0) return (_req, _res, next) => next();
  const hasDefaults = rules.some((r) => r.kind === 'default_when');
  const calendarRules = rules.filter((r) => CALENDAR_KINDS.has(r.kind));
  const otherRules = rules.filter((r) => !CALENDAR_KINDS.has(r.kind));
  return (req, res, next) => {
    const query = (req.query ?? {}) as Record<string, unknown>;
    // One 400 names every bad parameter: the calendar rules' problems too, in declaration order.
    if (parameterRuleProblems(otherRules, query).length > 0) {
      next(invalidParameters(parameterRuleProblems(rules, query)));
      return;
    }
    const calendar = parameterRuleProblems(calendarRules, query);
    if (calendar.length > 0) res.locals.calendarProblems = calendar;
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

/** The 400 of a request that broke only calendar rules (parameterRules), thrown after the entitlement check. */
export function throwCalendarProblems(res: Response): void {
  const problems = res.locals.calendarProblems as ErrorDetail[] | undefined;
  if (problems) throw invalidParameters(problems);
}
