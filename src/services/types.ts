/**
 * The shapes every use case shares, typed by the generated operation types: the query a service
 * receives is the contract's, validated and with the contract's defaults applied (by the request
 * validator, or for an export by the query validator); the result it returns is the contract's 200
 * (or 202) data plus what the envelope needs (source, coverage, pagination). The HTTP layer and the
 * export worker both turn a result into an envelope (envelope.ts), so a service never builds one.
 */
import type { components, operations } from '../../generated/openapi.js';
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import type { AuthenticatedAccount } from '../entitlements.js';
import type { ServiceDeps } from '../service.js';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessBody<Op extends OperationId> = operations[Op]['responses'] extends { 200: infer R }
  ? Json<R>
  : operations[Op]['responses'] extends { 202: infer R }
    ? Json<R>
    : never;

export type QueryOf<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : Record<string, never>;
export type PathOf<Op extends OperationId> = operations[Op]['parameters'] extends { path: infer P } ? P : Record<string, never>;
export type BodyOf<Op extends OperationId> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : undefined;
export type DataOf<Op extends OperationId> = SuccessBody<Op> extends { data: infer D } ? D : SuccessBody<Op>;
export type Meta = components['schemas']['Meta'];
export type Pagination = components['schemas']['Pagination'];

/** The request's path and query string, for next-page links (exports pass the target route's). */
export interface PageLink {
  path: string;
  search: string;
}

/** What a use case knows of the call besides its input. */
export interface ServiceContext {
  deps: ServiceDeps;
  /** The operation called (its path is the cursor's route, its facts the entitlements). */
  operation: OperationSpec;
  /** Null only on public routes. */
  account: AuthenticatedAccount | null;
  requestId: string;
  /** When the request arrived, Unix ms. */
  now: number;
  link: PageLink;
  /** Marks the end of a stage of the service's work (STAGE_TIMING, src/stage-timing.ts); absent when not timed. */
  stamp?: (stage: string) => void;
}

/** A file sent as the body (export downloads), with its validator. */
export interface FileBody {
  /** The file on this machine's disk; or, without it, `read` gives its bytes in order (a file held in the database). */
  path?: string;
  read?: () => AsyncIterable<Buffer>;
  bytes: number;
  etag: string;
  downloadName: string;
  /** Content-Type of the file (its export's format). */
  mediaType: string;
}

export interface Result<Op extends OperationId> {
  data: DataOf<Op>;
  /**
   * `data` already serialized as JSON text (the print feeds: stored bodies joined), so the HTTP
   * path can write it into the envelope without decoding and re-encoding it; `data` then stays
   * readable (lazily parsed) for response validation and exports.
   */
  dataJson?: string;
  source?: Meta['source'];
  coverage?: Omit<Meta['coverage'], 'complete'> & { complete?: boolean };
  pagination?: Pagination;
  status?: 200 | 202;
  /** Send `data` as the whole body (the OpenAPI document), without the envelope. */
  bare?: boolean;
  /** Export responses carry only request_id in meta. */
  metaRequestIdOnly?: boolean;
  headers?: Record<string, string>;
  /** Stream this file instead of a JSON body (304 when If-None-Match has its ETag). */
  file?: FileBody;
}

/** The account of an authenticated route (the auth middleware guarantees it). */
export function accountOf(ctx: { account: AuthenticatedAccount | null }): AuthenticatedAccount {
  if (!ctx.account) throw new Error('authenticated route reached without an account');
  return ctx.account;
}

/**
 * A parameter the contract gives a default: present once the validator has applied the default.
 * Its absence is a fault of the wiring, not of the request.
 */
export function withDefault<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`${name} has a default in the contract, which the validator applies`);
  return value;
}
