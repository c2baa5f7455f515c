/**
 * A service context for unit tests: the deps a service reads (repositories, memos, cursors, the job
 * queue port, a logger), with the repositories the test hands it and no database. A repository the
 * test does not give throws when read, so a test also says what a use case may read.
 */
import { loadApiContract, type OperationId } from '../api-contract/openapi.js';
import type { ServiceDeps } from '../service.js';
import { CursorCodec } from './cursor.js';
import { ServiceMemos } from './memos.js';
import { memoryBooks } from './memory-books.fixtures.js';
import type { Repositories } from './repositories.js';
import type { QueryOf, ServiceContext } from './types.js';

const contract = loadApiContract();

/** A repository whose every read fails the test. */
function unexpected(name: string): never {
  return new Proxy(
    {},
    {
      get: (_, method) => () => {
        throw new Error(`unexpected read: ${name}.${String(method)}`);
      },
    },
  ) as never;
}

export interface UnitContextOptions {
  now: number;
  repositories: Partial<Repositories>;
  /** The memos (default: fresh ones). */
  memos?: ServiceMemos;
  /** The query string of the request, for next-page links. */
  search?: string;
}

/** A context of the operation, as the HTTP layer builds one, on the given repositories. */
export function unitContext(operationId: OperationId, options: UnitContextOptions): ServiceContext {
  const operation = contract.byId.get(operationId);
  if (operation === undefined) throw new Error(`${operationId} is not a route of the contract`);
  const repositories: Repositories = {
    indices: options.repositories.indices ?? unexpected('indices'),
    futuresBars: options.repositories.futuresBars ?? unexpected('futuresBars'),
    futuresTrades: options.repositories.futuresTrades ?? unexpected('futuresTrades'),
    futuresBasis: options.repositories.futuresBasis ?? unexpected('futuresBasis'),
    printFeeds: options.repositories.printFeeds ?? unexpected('printFeeds'),
    references: options.repositories.references ?? unexpected('references'),
    chain: options.repositories.chain ?? unexpected('chain'),
    positioning: options.repositories.positioning ?? unexpected('positioning'),
    marketData: options.repositories.marketData ?? unexpected('marketData'),
    sessions: options.repositories.sessions ?? unexpected('sessions'),
    books: options.repositories.books ?? memoryBooks(),
    volatilityIndex: options.repositories.volatilityIndex ?? unexpected('volatilityIndex'),
  };
  const deps = {
    contract,
    repositories,
    memos: options.memos ?? new ServiceMemos(),
    cursors: new CursorCodec(Buffer.alloc(32, 7)),
    jobs: null,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined },
    metrics: { bookValuation: { observe: () => undefined } },
  } as unknown as ServiceDeps;
  return {
    deps,
    operation,
    account: null,
    requestId: 'req_unit',
    now: options.now,
    link: { path: operation.path, search: options.search ?? '' },
  };
}

/** The query with the contract's defaults applied, as the request validator leaves it. */
export function withContractDefaults<Op extends OperationId>(operationId: Op, query: Partial<QueryOf<Op>>): QueryOf<Op> {
  const operation = contract.byId.get(operationId);
  const defaults = Object.fromEntries(
    (operation?.parameters ?? []).filter((p) => p.in === 'query' && p.schema.default !== undefined).map((p) => [p.name, p.schema.default]),
  );
  return { ...defaults, ...query } as QueryOf<Op>;
}
