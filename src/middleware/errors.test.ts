import type { Request, Response } from 'express';
// eslint-disable-next-line no-restricted-imports -- the test builds the driver's own errors (pg.DatabaseError)
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_MS, DatabaseUnavailableError } from '../db-server/unavailable.js';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { ECHO_MAX, echoed } from '../formats.js';
import type { Logger } from '../logging.js';
import { errorBody, errorMiddleware, toApiError } from './errors.js';

/** The shape express-openapi-validator throws. */
function validatorError(
  status: number,
  errors: { path?: string; message?: string; errorCode?: string }[],
  message = 'validation failed',
): Error {
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

    const nested = mapped(
      validatorError(400, [
        { path: '/body/query/limit', message: 'must be string' },
        { path: '.body', message: 'must have required property path' },
      ]),
    );
    expect(nested.code).toBe('invalid_body');
    expect(nested.details.map((d) => d.parameter)).toEqual(['body.query.limit', 'body']);
  });

  it('cuts a long name of the body (an unknown member) to formats.ts ECHO_MAX characters', () => {
    const name = 'n'.repeat(10_240);
    const error = mapped(
      validatorError(400, [
        { path: `/body/${name}`, message: 'must NOT have additional properties', errorCode: 'additionalProperties.openapi.validation' },
      ]),
    );
    expect(error.details).toEqual([{ parameter: echoed(`body.${name}`), message: 'must NOT have additional properties' }]);
    expect(error.details[0]?.parameter).toHaveLength(ECHO_MAX);
  });

  it('a mix of query and body errors is invalid_parameter', () => {
    const error = mapped(
      validatorError(400, [
        { path: '/query/limit', message: 'x' },
        { path: '/body/path', message: 'y' },
      ]),
    );
    expect(error.code).toBe('invalid_parameter');
    expect(error.details.map((d) => d.parameter)).toEqual(['limit', 'body.path']);
  });

  it("names `path` for a malformed percent-encoding in the URL, which the validator reports with the URL as the error's path", () => {
    // express-openapi-validator's finding for GET /v1/exports/%E0%A4%A, as it gives it.
    const error = mapped(validatorError(400, [{ path: '/v1/exports/%E0%A4%A', message: "malformed uri'" }], "malformed uri'"));
    expect(error.code).toBe('invalid_parameter');
    expect(error.details).toEqual([{ parameter: 'path', message: 'malformed percent-encoding' }]);
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
    expect(mapped(validatorError(405, [{ path: '/v1/catalog', message: 'POST method not allowed' }]))).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
    });
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

  it("maps a body in another charset or content encoding (body-parser's 415) to a 400 invalid_body, never a 500", () => {
    const charset = Object.assign(new Error('unsupported charset "LATIN1"'), {
      status: 415,
      type: 'charset.unsupported',
      charset: 'latin1',
    });
    expect(mapped(charset)).toMatchObject({
      status: 400,
      code: 'invalid_body',
      details: [{ parameter: 'body', message: 'unsupported charset' }],
    });
    expect(mapped(charset).message).not.toContain('LATIN1');
    expect(mapped({ type: 'encoding.unsupported', status: 415 })).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(mapped({ type: 'request.size.invalid', status: 400 })).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(toApiError({ type: 'constructor' })).toBeNull();
  });

  it('names a value that matches no branch of an anyOf once, not once per branch', () => {
    const anyOf = 'anyOf.openapi.validation';
    const error = mapped(
      validatorError(400, [
        { path: '/body/query/limit', message: 'must be string', errorCode: 'type.openapi.validation' },
        { path: '/body/query/limit', message: 'must be number', errorCode: 'type.openapi.validation' },
        { path: '/body/query/limit', message: 'must match a schema in anyOf', errorCode: anyOf },
        { path: '/body/path', message: 'must match pattern', errorCode: 'pattern.openapi.validation' },
      ]),
    );
    expect(error.details).toEqual([
      { parameter: 'body.query.limit', message: 'must match a schema in anyOf' },
      { parameter: 'body.path', message: 'must match pattern' },
    ]);
  });

  it('maps a lost database to a 503 upstream_busy asking to retry after DATABASE_RETRY_AFTER_MS, and a failed query on a live one to nothing (500)', () => {
    const killed = Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), {
      code: '57P01',
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:54329'), { code: 'ECONNREFUSED' });
    const lost = [
      killed,
      refused,
      new Error('Connection terminated unexpectedly'),
      new DatabaseUnavailableError(),
      new AggregateError([refused], 'connect failed'),
      // A full connection table: the server answers but has no slot for a new connection.
      Object.assign(new pg.DatabaseError('sorry, too many clients already', 0, 'error'), { code: '53300' }),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const err of lost) {
      const error = mapped(err);
      expect(error).toMatchObject({ status: 503, code: 'upstream_busy', details: [], retryAfterMs: DATABASE_RETRY_AFTER_MS });
      expect(error.message).not.toMatch(/ECONNREFUSED|terminat|54329|administrator|clients|timeout/);
    }
    const missingTable = Object.assign(new pg.DatabaseError('relation "prints" does not exist', 0, 'error'), { code: '42P01' });
    expect(toApiError(missingTable)).toBeNull();
    // body-parser's aborted request carries ECONNABORTED too: it stays a 400 about the body.
    expect(
      mapped(Object.assign(new Error('request aborted'), { code: 'ECONNABORTED', type: 'request.aborted', status: 400 })),
    ).toMatchObject({ status: 400, code: 'invalid_body' });
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

describe('errorBody', () => {
  it('cuts a message past 256 characters (one that echoes a long path), keeping the details', () => {
    const long = new ApiError(405, 'method_not_allowed', `POST is not allowed on /v1/exports/${'z'.repeat(5000)}.`, [
      { parameter: 'p', message: 'm' },
    ]);
    const body = errorBody(long, 'req_1');
    expect(body.error.message).toHaveLength(256);
    expect(body.error.message.endsWith('…')).toBe(true);
    expect(body.error.details).toEqual([{ parameter: 'p', message: 'm' }]);
    expect(errorBody(new ApiError(400, 'invalid_body', 'short'), 'req_2').error.message).toBe('short');
  });
});

describe('errorMiddleware', () => {
  /** A response that records what the middleware sends (express itself is exercised by the integration tiers). */
  function recorder(locals: Record<string, unknown>): {
    res: Response;
    sent: { status?: number; body?: unknown; headers: Record<string, string> };
  } {
    const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const res = {
      locals,
      headersSent: false,
      setHeader: (name: string, value: string) => ((sent.headers[name.toLowerCase()] = value), res),
      status: (status: number) => ((sent.status = status), res),
      json: (body: unknown) => ((sent.body = body), res),
    };
    return { res: res as unknown as Response, sent };
  }
  const silent = { error: () => undefined } as unknown as Logger;

  it('names a parameter the edge refused (a number not in plain decimal) once, not again by the validator', () => {
    const earlier = [
      { parameter: 'bogus', message: 'unknown parameter' },
      { parameter: 'limit', message: 'must be an integer in plain decimal digits' },
    ];
    const { res, sent } = recorder({ requestId: 'req_1', parameterProblems: earlier });
    const err = validatorError(400, [
      { path: '/query/limit', message: 'must be <= 500' },
      { path: '/query/side', message: 'must be equal to one of the allowed values' },
    ]);
    errorMiddleware(silent)(err, {} as Request, res, () => undefined);
    expect(sent.status).toBe(400);
    expect((sent.body as { error: { details: unknown[] } }).error.details).toEqual([
      ...earlier,
      { parameter: 'side', message: 'must be equal to one of the allowed values' },
    ]);
  });

  it('answers a query that met a lost database with 503 and Retry-After, the SQL and the stack kept out of the body', () => {
    const { res, sent } = recorder({ requestId: 'req_2' });
    const lost = Object.assign(new pg.DatabaseError('terminating connection due to administrator command', 0, 'error'), {
      code: '57P01',
      query: 'select body from prints where root = $1',
    });
    errorMiddleware(silent)(lost, {} as Request, res, () => undefined);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe(String(Math.ceil(DATABASE_RETRY_AFTER_MS / 1000)));
    expect(sent.body).toEqual({
      error: {
        code: 'upstream_busy',
        message: expect.any(String) as string,
        status: 503,
        request_id: 'req_2',
        details: [],
        retry_after_ms: DATABASE_RETRY_AFTER_MS,
      },
    });
    const text = JSON.stringify(sent.body);
    for (const leaked of [
      'select',
      'prints',
      'terminating',
      'administrator',
      '57P01',
      ' at ',
      lost.stack?.split('\n')[1]?.trim() ?? 'never',
    ])
      expect(text).not.toContain(leaked);
  });
});
