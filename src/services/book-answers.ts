/**
 * The answers stored with a valued book (migration 20261128T070000): when the book valuer
 * (jobs/book-valuer.ts) values a family's newest minute, it also computes the answer of each
 * valuing route to its default query for the family (`underlying_symbol` and the session, every
 * other parameter at its contract default and the contract's conditional defaults, as the request
 * validator and parameter rules complete a request) and stores them with the book, before the
 * minute is mapped. A request of that minute with the same query then reads one row
 * (books.ts bookAnswer) where every HTTP worker of every machine computed the view of the book
 * before; any other query still computes its view from the book.
 *
 * An answer is the route's own computation on the book (the functions the routes call), so a
 * stored answer equals the one a request computes, to the last digit. A route that has no answer
 * for the family (422: nothing selected, no price) stores none, and its requests answer the error
 * as they would.
 */
import type { OperationId } from '../api-contract/openapi.js';
import type { VolatilitySession } from '../analytics/volatility/valuation.js';
import type { BookAnswerRow } from '../db/position-books.js';
import { ApiError } from '../errors.js';
import { applyConditionalDefaults } from '../parameters/index.js';
import type { FamilyBook } from './book-columns.js';
import { answerQueryKey, type BookAnswer } from './books.js';
import type { ValuationWindow } from './chain-valuation.js';
import { exposureHeatmap } from './exposure-heatmap.js';
import { exposureLevels } from './positioning.js';
import type { ServiceContext } from './types.js';
import { volatilitySkew } from './volatility-skew.js';

/** The routes whose default answers are stored with a book, and how each computes its answer on a book. */
const ANSWERED: Record<string, (ctx: ServiceContext, q: never, at: BookAnswer) => Promise<unknown>> = {
  getExposureLevels: exposureLevels,
  getExposureHeatmap: exposureHeatmap,
  getVolatilitySkew: volatilitySkew,
};

/** How a route of the valuer's answers computes its answer on a book (the valuation threads call it: valuation-tasks.ts). */
export function answerFunction(operationId: string): (ctx: ServiceContext, q: never, at: BookAnswer) => Promise<unknown> {
  const compute = ANSWERED[operationId];
  if (compute === undefined) throw new Error(`${operationId} has no answer computed on a book`);
  return compute;
}

/** The routes whose default answers the valuer stores. */
export const ANSWERED_OPERATIONS = Object.keys(ANSWERED) as OperationId[];

/**
 * A route's default query for a family and session: the contract's defaults and conditional
 * defaults, as a request naming only `underlying_symbol` (and `session`) arrives at its handler.
 */
export function defaultQuery(
  ctx: ServiceContext,
  operationId: OperationId,
  symbol: string,
  session: VolatilitySession,
): Record<string, unknown> {
  const operation = ctx.deps.apiContract.byId.get(operationId);
  if (operation === undefined) throw new Error(`${operationId} is not a route of the contract`);
  const defaults = Object.fromEntries(
    operation.parameters.filter((p) => p.in === 'query' && p.schema.default !== undefined).map((p) => [p.name, p.schema.default]),
  );
  return applyConditionalDefaults(operation.facts.parameterRules, { ...defaults, underlying_symbol: symbol, session });
}

/** Computes and stores the default answers of a book at the window's minute (module comment). */
export async function storeDefaultAnswers(
  ctx: ServiceContext,
  window: ValuationWindow,
  session: VolatilitySession,
  bookId: number,
  book: FamilyBook,
): Promise<void> {
  const answers: BookAnswerRow[] = [];
  for (const operationId of ANSWERED_OPERATIONS) {
    const operation = ctx.deps.apiContract.byId.get(operationId);
    if (operation === undefined) continue;
    const q = defaultQuery(ctx, operationId, window.symbol, session);
    const compute = ANSWERED[operationId] as (ctx: ServiceContext, q: never, at: BookAnswer) => Promise<unknown>;
    try {
      const data = await compute({ ...ctx, operation }, q as never, { book, window, pendingInstant: null });
      answers.push({ operation: operationId, queryKey: answerQueryKey(q as never), body: JSON.stringify(data) });
    } catch (error) {
      // No answer for the family (422): its requests answer the error themselves.
      if (!(error instanceof ApiError)) throw error;
    }
  }
  await ctx.deps.repositories.books.storeBookAnswers(bookId, window.instant, answers);
}
