/**
 * Whether an error means that the database cannot be reached or has gone away, as opposed to a
 * query that failed on a database that answers. A request meeting such an error is answered 503
 * upstream_busy with Retry-After (middleware/errors.ts), never 500: the service itself is sound
 * and the same request succeeds once the database is back (the embedded server is restarted by
 * db-server/supervisor.ts, a server at DATABASE_URL is probed with backoff by db-server/watch.ts).
 *
 * Recognised: a socket that could not connect or was cut (ECONNREFUSED, ECONNRESET, ...); node-pg's
 * own messages for a connection that ended or timed out, and for a pool that waited too long for a
 * connection; PostgreSQL's SQLSTATE class 08 (connection exception) and 57P01-57P03 (admin
 * shutdown, crash shutdown, cannot connect now: a server stopping, killed or starting up); and the
 * service's own DatabaseUnavailableError, thrown without a round trip while the database is known to
 * be down. An error's `cause` and an AggregateError's errors (node's connect to several addresses)
 * are looked into.
 *
 * A full connection table is another case (databaseFull): the server answers, but refuses a new
 * connection (SQLSTATE 53300 too_many_connections: `sorry, too many clients already`, a role's or a
 * database's CONNECTION LIMIT, the slots reserved for superusers). The service's open connections
 * still work, so the database is not marked down for it (db-server/watch.ts), but a request that
 * needed a new connection is answered 503 upstream_busy with Retry-After like one that met a lost
 * database (databaseCannotServe), never 500.
 */

/** The code of DatabaseUnavailableError. */
export const DATABASE_UNAVAILABLE = 'OADS_DATABASE_UNAVAILABLE';

/** How long a client is asked to wait when the database is unavailable: the longest pause between reconnection attempts. */
export const DATABASE_RETRY_AFTER_MS = 2_000;

/** Thrown instead of connecting while the database is known to be down (db-server/watch.ts). */
export class DatabaseUnavailableError extends Error {
  readonly code = DATABASE_UNAVAILABLE;

  constructor(message = 'The database is unavailable.', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08 is matched by prefix. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

/** node-pg's (pg and pg-pool) messages for a connection lost, never made in time, or unusable after a loss. */
const DRIVER_MESSAGES = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/** 53300 too_many_connections: the server's, a role's or a database's connection slots are all taken. */
const FULL_CODES = new Set(['53300']);

const MAX_DEPTH = 5;

type Fields = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** Whether `error`, its cause or one of an AggregateError's errors satisfies `test`. */
function within(error: unknown, test: (fields: Fields) => boolean, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const fields = error as Fields;
  if (test(fields)) return true;
  if (Array.isArray(fields.errors) && fields.errors.some((inner) => within(inner, test, depth + 1))) return true;
  return fields.cause !== undefined && within(fields.cause, test, depth + 1);
}

function unavailable({ code, message }: Fields): boolean {
  if (typeof code === 'string') {
    if (code === DATABASE_UNAVAILABLE || SOCKET_CODES.has(code) || SERVER_CODES.has(code)) return true;
    // SQLSTATEs are five characters; node's error codes are longer words.
    if (code.length === 5 && code.startsWith('08')) return true;
  }
  return typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}

const full = ({ code }: Fields): boolean => typeof code === 'string' && FULL_CODES.has(code);

/** True when `error` says that the database cannot be reached or has gone away (see the file's header). */
export function databaseUnavailable(error: unknown): boolean {
  return within(error, unavailable);
}

/** True when `error` says that the server answers but has no connection slot left (see the file's header). */
export function databaseFull(error: unknown): boolean {
  return within(error, full);
}

/** True when a request met a database it could not use: unavailable or full. It is answered 503, never 500. */
export function databaseCannotServe(error: unknown): boolean {
  return databaseUnavailable(error) || databaseFull(error);
}
