import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseCannotServe, databaseFull, databaseUnavailable, DatabaseUnavailableError } from './unavailable.js';

/** A server error as node-pg builds it from an ErrorResponse message. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

/** A socket error as node's net module builds it. */
function socketError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:54329`), {
    code,
    errno: -111,
    syscall: 'connect',
    address: '127.0.0.1',
    port: 54329,
  });
}

describe('databaseUnavailable', () => {
  it('recognises a server that cannot be reached or cut the connection', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']) {
      expect(databaseUnavailable(socketError(code)), code).toBe(true);
    }
  });

  it("recognises node-pg's messages for a lost connection, a connect time-out and a pool that waited too long", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(databaseUnavailable(new Error(message)), message).toBe(true);
    }
  });

  it('recognises a server shutting down, killed, starting up, or a connection exception (SQLSTATE class 08)', () => {
    expect(databaseUnavailable(serverError('57P01', 'terminating connection due to unexpected postmaster exit'))).toBe(true);
    expect(databaseUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(databaseUnavailable(serverError('57P02', 'terminating connection because of crash of another server process'))).toBe(true);
    expect(databaseUnavailable(serverError('57P03', 'the database system is starting up'))).toBe(true);
    expect(databaseUnavailable(serverError('08006', 'connection failure'))).toBe(true);
    expect(databaseUnavailable(serverError('08P01', 'protocol violation'))).toBe(true);
  });

  it("recognises the service's own error, raised without a round trip while the database is known to be down", () => {
    expect(databaseUnavailable(new DatabaseUnavailableError())).toBe(true);
  });

  it("looks into an error's cause and an AggregateError's errors", () => {
    expect(databaseUnavailable(new Error('query failed', { cause: socketError('ECONNREFUSED') }))).toBe(true);
    expect(databaseUnavailable(new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'connect failed'))).toBe(
      true,
    );
    expect(databaseUnavailable(new AggregateError([new Error('other')], 'connect failed'))).toBe(false);
  });

  it('leaves alone the errors of a database that answers, and anything else', () => {
    expect(databaseUnavailable(serverError('57014', 'canceling statement due to statement timeout'))).toBe(false);
    expect(databaseUnavailable(serverError('42P01', 'relation "nope" does not exist'))).toBe(false);
    expect(databaseUnavailable(serverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(databaseUnavailable(serverError('53300', 'sorry, too many clients already'))).toBe(false);
    expect(databaseUnavailable(new Error('driver has already been destroyed'))).toBe(false);
    expect(databaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(databaseUnavailable(Object.assign(new Error('not found'), { code: 'ENOENT' }))).toBe(false);
    expect(databaseUnavailable('Connection terminated')).toBe(false);
    expect(databaseUnavailable(null)).toBe(false);
    expect(databaseUnavailable(undefined)).toBe(false);
  });

  it('stops at a cause chain that loops', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as Error & { cause?: unknown }).cause = b;
    expect(databaseUnavailable(a)).toBe(false);
  });

  it('tells a full connection table (53300) apart: not unavailable, but a database the request cannot use', () => {
    for (const message of [
      'sorry, too many clients already',
      'too many connections for role "oads"',
      'too many connections for database "oads"',
      'remaining connection slots are reserved for roles with the SUPERUSER attribute',
    ]) {
      const error = serverError('53300', message);
      expect(databaseFull(error), message).toBe(true);
      expect(databaseUnavailable(error), message).toBe(false);
      expect(databaseCannotServe(error), message).toBe(true);
    }
    expect(databaseFull(new Error('connect failed', { cause: serverError('53300', 'sorry, too many clients already') }))).toBe(true);
    expect(databaseCannotServe(socketError('ECONNREFUSED'))).toBe(true);
    expect(databaseCannotServe(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(databaseCannotServe(serverError('57014', 'canceling statement due to statement timeout'))).toBe(false);
    expect(databaseCannotServe(serverError('53200', 'out of memory'))).toBe(false);
  });
});
