import { describe, expect, it } from 'vitest';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { toApiError } from './errors.js';

/** The shape express-openapi-validator throws. */
function validatorError(status: number, errors: { path?: string; message?: string; errorCode?: string }[], message = 'validation failed'): Error {
  return Object.assign(new Error(message), { status, errors });
}

function mapped(err: unknown): ApiError {
  const result = toApiError(err);
  if (!result) throw new Error('expected a mapping, got null');
  return result;
}

describe('ApiError', () => {
  it('is an Error carrying status, code, message, details and retryAfterMs', () => {
    const error = new ApiError(429, 'rate_limited', 'slow down', [{ parameter: 'x', message: 'y' }], 1500);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toBe('slow down');
    expect(error.details).toEqual([{ parameter: 'x', message: 'y' }]);
    expect(error.retryAfterMs).toBe(1500);
  });

  it('defaults to no details and no retryAfterMs', () => {
    const error = new ApiError(422, 'no_data', 'nothing');
    expect(error.details).toEqual([]);
    expect(error.retryAfterMs).toBeNull();
  });

  it('invalidParameters names each parameter once in the message and keeps every detail', () => {
    const error = invalidParameters([
      { parameter: 'limit', message: 'too big' },
      { parameter: 'side', message: 'bad item' },
      { parameter: 'limit', message: 'not an integer' },
    ]);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_parameter');
    expect(error.message).toBe('Invalid parameters: limit, side.');
    expect(error.details).toHaveLength(3);
  });

  it('noData is a 422 no_data', () => {
    expect(noData()).toMatchObject({ status: 422, code: 'no_data' });
    expect(noData('none here').message).toBe('none here');
  });
});

describe('toApiError', () => {
  it('passes an ApiError through unchanged', () => {
    const error = new ApiError(403, 'forbidden', 'no');
    expect(toApiError(error)).toBe(error);
  });

  it('maps a validator query error (/query/limit) to invalid_parameter naming limit', () => {
    const error = mapped(validatorError(400, [{ path: '/query/limit', message: 'must be <= 500' }]));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_parameter');
    expect(error.details).toEqual([{ parameter: 'limit', message: 'must be <= 500' }]);
    expect(error.message).toMatch(/limit/);
  });

  it('maps the .query.limit path form the same way', () => {
    const error = mapped(validatorError(400, [{ path: '.query.limit', message: 'must be <= 500' }]));
    expect(error.code).toBe('invalid_parameter');
    expect(error.details).toEqual([{ parameter: 'limit', message: 'must be <= 500' }]);
  });

  it('names the parameter, not the list index, for an item of a list parameter', () => {
    const error = mapped(validatorError(400, [{ path: '/query/side/0', message: 'must be equal to one of the allowed values' }]));
    expect(error.details[0]?.parameter).toBe('side');
  });

  it('names each parameter of several errors', () => {
    const error = mapped(
      validatorError(400, [
        { path: '/query/limit', message: 'must be <= 500' },
        { path: '/query/date', message: 'must match pattern' },
        { path: '.query.session', message: 'must be equal to one of the allowed values' },
      ]),
    );
    expect(error.code).toBe('invalid_parameter');
    expect(error.details.map((d) => d.parameter)).toEqual(['limit', 'date', 'session']);
    expect(error.message).toBe('Invalid parameters: limit, date, session.');
  });

  it('maps body errors to invalid_body with body.<field> parameters', () => {
    const error = mapped(validatorError(400, [{ path: '/body/path', message: 'must match pattern' }]));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_body');
    expect(error.details).toEqual([{ parameter: 'body.path', message: 'must match pattern' }]);

    const nested = mapped(validatorError(400, [{ path: '/body/query/limit', message: 'must be string' }, { path: '.body', message: 'must have required property path' }]));
    expect(nested.code).toBe('invalid_body');
    expect(nested.details.map((d) => d.parameter)).toEqual(['body.query.limit', 'body']);
  });

  it('a mix of query and body errors is invalid_parameter', () => {
    const error = mapped(validatorError(400, [{ path: '/query/limit', message: 'x' }, { path: '/body/path', message: 'y' }]));
    expect(error.code).toBe('invalid_parameter');
    expect(error.details.map((d) => d.parameter)).toEqual(['limit', 'body.path']);
  });

  it('falls back to a request detail when the validator gives no usable path or message', () => {
    const noPath = mapped(validatorError(400, [{ message: 'something' }]));
    expect(noPath.details).toEqual([{ parameter: 'request', message: 'something' }]);
    const noErrors = mapped(validatorError(400, [], 'bad request'));
    expect(noErrors.code).toBe('invalid_parameter');
    expect(noErrors.details).toEqual([{ parameter: 'request', message: 'bad request' }]);
    const noMessage = mapped(validatorError(400, [{ path: '/query/limit' }]));
    expect(noMessage.details).toEqual([{ parameter: 'limit', message: 'is invalid' }]);
  });

  it('maps validator 404 to not_found and 405 to method_not_allowed', () => {
    expect(mapped(validatorError(404, [{ path: '/v1/nope', message: 'not found' }]))).toMatchObject({ status: 404, code: 'not_found' });
    expect(mapped(validatorError(405, [{ path: '/v1/catalog', message: 'POST method not allowed' }]))).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('maps validator 415 to a 400 invalid_body naming body', () => {
    const error = mapped(validatorError(415, [{ path: '/body', message: 'unsupported media type' }]));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_body');
    expect(error.details[0]?.parameter).toBe('body');
  });

  it('maps an express.json parse failure to a 400 invalid_body', () => {
    const parseError = Object.assign(new SyntaxError('Unexpected token } in JSON'), { type: 'entity.parse.failed', status: 400 });
    const error = mapped(parseError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_body');
    expect(error.details).toEqual([{ parameter: 'body', message: 'malformed JSON' }]);
    expect(mapped({ type: 'entity.parse.failed' }).code).toBe('invalid_body');
  });

  it('maps a too-large body to a 400 invalid_body', () => {
    expect(mapped({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 400, code: 'invalid_body' });
  });

  it('returns null for anything else, so the middleware answers 500', () => {
    expect(toApiError(new Error('boom'))).toBeNull();
    expect(toApiError(new TypeError('x is undefined'))).toBeNull();
    expect(toApiError(Object.assign(new Error('db down'), { status: 500 }))).toBeNull();
    expect(toApiError(validatorError(500, []))).toBeNull();
    expect(toApiError(validatorError(401, []))).toBeNull();
    expect(toApiError('a string')).toBeNull();
    expect(toApiError(null)).toBeNull();
    expect(toApiError(undefined)).toBeNull();
  });
});
