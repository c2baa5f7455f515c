/**
 * The one error type of the service and its two common constructors. Services and handlers throw
 * `ApiError` with a code of the contract's ErrorCode set; the error middleware
 * (middleware/errors.ts) turns it, a validator error or anything unexpected into the error body.
 * It lives outside middleware/ because services, jobs and the CLI throw it too.
 */
import type { components } from '../generated/openapi.js';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorBody = components['schemas']['ErrorResponse'];
export interface ErrorDetail {
  parameter: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalidParameters = (details: ErrorDetail[]): ApiError =>
  new ApiError(400, 'invalid_parameter', `Invalid parameters: ${[...new Set(details.map((d) => d.parameter))].join(', ')}.`, details);

export const noData = (message = 'No data exists for this request.'): ApiError => new ApiError(422, 'no_data', message);
