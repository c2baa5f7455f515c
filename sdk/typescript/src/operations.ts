/**
 * The operations of the contract, as the generated SDK (src/generated/sdk.gen.ts, one function per
 * operationId) describes them: their types (parameters, body, result) read from the generated
 * functions' signatures, and each one's request (method, URL template, query serialisation,
 * security) read once by calling the function with a client that records what it was asked to send.
 * A new operation in the contract is a new method of `Oads` after `make codegen`, with nothing
 * written here.
 */
import type { Client } from './generated/client/index.js';
import * as sdk from './generated/sdk.gen.js';
import type { Options } from './generated/sdk.gen.js';

type Sdk = typeof sdk;

/** Every operationId of the contract. */
export type OperationId = { [K in keyof Sdk]: Sdk[K] extends (...args: never[]) => unknown ? K : never }[keyof Sdk];

type OptionsOf<K extends OperationId> = NonNullable<Parameters<Sdk[K]>[0]>;

/** `never` (a member the operation does not have) read as the empty object. */
type Present<T> = [T] extends [never] ? object : [T] extends [undefined] ? object : NonNullable<T>;

/** The path and query parameters of an operation, by their contract names, in one object. */
export type ParamsOf<K extends OperationId> = Present<OptionsOf<K>['path']> & Present<OptionsOf<K>['query']>;

/** The request body of an operation (`never` when it takes none). */
export type BodyOf<K extends OperationId> = NonNullable<OptionsOf<K>['body']>;

/** The parsed JSON body of an operation's successful answer. */
export type ResultOf<K extends OperationId> = NonNullable<Exclude<Awaited<ReturnType<Sdk[K]>>['data'], undefined>>;

/** The generated request type of an operation (`ListOptionTradesData`), read back from its function's options. */
type DataOf<K extends OperationId> = OptionsOf<K> extends Options<infer D, boolean> ? D : never;

/** The path (URL template) of an operation: `'/v1/options/trades'` for listOptionTrades. */
export type PathOf<K extends OperationId> = DataOf<K> extends { url: infer U extends string } ? U : never;

/**
 * The `data` of each GET operation's answer, by its path: what an export of that path holds in its
 * file's `data` (the rows of every page read, or the route's object).
 */
export type DataByPath = {
  [K in OperationId as PathOf<K>]: ResultOf<K> extends { data: infer D } ? D : unknown;
};

/** The error bodies an operation may answer (the contract's one error object). */
export type ErrorOf<K extends OperationId> = NonNullable<ErrorMember<Awaited<ReturnType<Sdk[K]>>>>;

type ErrorMember<R> = R extends { error: infer E } ? E : never;

/** The arguments of an operation's method: its body when it has one, else its parameters (optional when none is required). */
export type ArgsOf<K extends OperationId> = [BodyOf<K>] extends [never]
  ? undefined extends Parameters<Sdk[K]>[0]
    ? [params?: ParamsOf<K>]
    : [params: ParamsOf<K>]
  : [body: BodyOf<K>];

/** One method per operationId: its parameters (or body) in, the parsed JSON body out. */
export type OperationMethods = { [K in OperationId]: (...args: ArgsOf<K>) => Promise<ResultOf<K>> };

/** The operations whose answer is a page: a `pagination.next_cursor_id` out and a `cursor_id` in. */
export type PaginatedOperationId = {
  [K in OperationId]: ResultOf<K> extends { pagination: { next_cursor_id: string | null } }
    ? 'cursor_id' extends keyof ParamsOf<K>
      ? K
      : never
    : never;
}[OperationId];

/** What the generated function of an operation asks its client to send, less the caller's values. */
export interface OperationRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  /** The URL template (`/v1/exports/{id}`). */
  url: string;
  /** The names of the path parameters, in the order of the template. */
  pathNames: string[];
  /** Whether the operation takes a JSON body (the generator sets a Content-Type for it). */
  hasBody: boolean;
  /** The rest of the generated options: query serialisation (explode: false lists), security, headers. */
  options: Record<string, unknown>;
}

export const operationIds = (Object.keys(sdk) as (keyof Sdk)[]).filter((k): k is OperationId => typeof sdk[k] === 'function');

const requests = new Map<OperationId, OperationRequest>();

/** The request an operation's generated function makes (recorded on first use, then kept). */
export function operationRequest(id: OperationId): OperationRequest {
  const known = requests.get(id);
  if (known) return known;
  let recorded: OperationRequest | undefined;
  const record = (method: OperationRequest['method']) => (options: Record<string, unknown>) => {
    const { url, client: _client, ...rest } = options;
    const template = String(url);
    const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    const headers = (rest.headers ?? {}) as Record<string, unknown>;
    recorded = { method, url: template, pathNames, hasBody: headers['Content-Type'] !== undefined, options: rest };
    return Promise.resolve({});
  };
  // A client that sends nothing: the generated function hands it the request it would make. The
  // hey-api SDK takes any object with the client's methods (`options.client`) for this purpose.
  const recorder = {
    get: record('GET'),
    post: record('POST'),
    put: record('PUT'),
    patch: record('PATCH'),
    delete: record('DELETE'),
    head: record('HEAD'),
    options: record('OPTIONS'),
  } as unknown as Client;
  const fn = sdk[id] as (options: { client: Client }) => unknown;
  void fn({ client: recorder });
  if (!recorded) throw new Error(`The generated function of ${id} made no request.`);
  requests.set(id, recorded);
  return recorded;
}
