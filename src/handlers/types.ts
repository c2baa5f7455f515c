/**
 * A handler is the HTTP face of one operation: it receives the validated input (query, path,
 * body, headers) with the call's context and returns the result of one service function. The
 * shapes themselves are the services' (services/types.ts), typed by the generated operation types.
 */
import type { OperationId } from '../api-contract/openapi.js';
import type { BodyOf, PathOf, QueryOf, Result, ServiceContext } from '../services/types.js';

export interface HandlerContext<Op extends OperationId> extends ServiceContext {
  query: QueryOf<Op>;
  params: PathOf<Op>;
  body: BodyOf<Op>;
  /** Request headers a handler may read (If-None-Match on downloads); lower-case names. */
  headers: Record<string, string | undefined>;
}

export type Handler<Op extends OperationId> = (ctx: HandlerContext<Op>) => Promise<Result<Op>>;
/** Every operation's handler: the compiler sees that each operation of the contract is served. */
export type HandlerMap = { [Op in OperationId]: Handler<Op> };
/** Handlers laid over the map (tests: one that sleeps, one that fails). */
export type HandlerOverrides = Partial<HandlerMap>;
