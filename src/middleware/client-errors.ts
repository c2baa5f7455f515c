/**
 * The errors node's HTTP server answers itself, before any request reaches express: header fields
 * larger than the server's limit (431), a request that is not HTTP (400), chunk extensions too
 * large (413) and a request not received in time (408). Node's own answer is a status line without
 * a body; answerClientError, the server's 'clientError' listener, writes the service's JSON error
 * body instead, with a request id, whenever nothing of a response has been written to the
 * connection yet (the same condition as node's own), and then closes the connection.
 *
 * The contract has no code for these statuses; each takes the nearest one: a request node could not
 * read as HTTP or whose headers are too large is `invalid_parameter` naming `request` or `headers`,
 * one whose body is too large or that arrived too slowly is `invalid_body`.
 */
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.js';
import { newRequestId } from '../ids.js';
import { errorBody } from './errors.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/** The ApiError of a client error, by node's error code. */
export function clientErrorOf(code: string): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'invalid_parameter', 'The request headers are too large.', [{ parameter: 'headers', message: 'too large' }]);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'invalid_body', "The request body's chunk extensions are too large.", [
        { parameter: 'body', message: 'too large' },
      ]);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'invalid_body', 'The request was not received in time.', [
        { parameter: 'request', message: 'not received in time' },
      ]);
    default:
      return new ApiError(400, 'invalid_parameter', 'The request is not valid HTTP.', [{ parameter: 'request', message: 'malformed' }]);
  }
}

/** The raw HTTP/1.1 response of a client error, with the JSON error body. */
export function clientErrorResponse(error: ApiError, requestId: string): string {
  const body = JSON.stringify(errorBody(error, requestId));
  return [
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Node's in-flight response of a connection, if any (what node itself looks at before answering). */
interface ServerSocket extends Duplex {
  _httpMessage?: { headersSent?: boolean } | null;
}

/**
 * The 'clientError' listener of an HTTP server: `server.on('clientError', (e, s) => answerClientError(e, s, clock))`;
 * `clock` (the service's) stamps the request id, as it does every request's.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, clock: () => number = Date.now): void {
  const inFlight = (socket as ServerSocket)._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || (inFlight && inFlight.headersSent)) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(clientErrorOf(error.code ?? ''), newRequestId(clock())), () => socket.destroy());
}
