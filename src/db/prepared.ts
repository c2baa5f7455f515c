/**
 * Named prepared statements for the API's hot, repeated reads. PostgreSQL parses a named statement
 * once per connection and, after five runs, keeps one generic plan for it when that plan costs no
 * more than the custom ones: a feed page then skips parsing and planning, which on these union
 * queries cost PostgreSQL more than running them. The caller writes every value that shapes the
 * plan into the text as a literal (validated words and integers) and binds only values the plan
 * does not depend on, so a generic plan is never a plan for another root or page size.
 * Through PgBouncer (DATABASE_POOLER_URL, transaction mode) every statement runs unnamed.
 */
import { createHash } from 'node:crypto';
import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import { rawClient, throughPooler, type Queryable } from './connection.js';

/** Named statements per connection at most: past it a new text runs unnamed (PostgreSQL keeps each until the connection closes). */
const PREPARED_PER_CONNECTION = 256;
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * The names of the texts seen: a text depends only on the shape of its filter (prepared statements
 * bind every value), so the process meets a few hundred at most, and a page's name is a lookup
 * instead of a SHA-1 of its 1-2 kB text. Emptied when it grows past MAX_NAMES (a caller that wrote values into its texts).
 */
const names = new Map<string, string>();
const MAX_NAMES = 4096;

/** The statement name of a query text: a digest, so one name never stands for two texts. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `oads_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a compiled query as a named prepared statement of the pooled connection it lands on.
 * Anything but a Kysely opened by openDatabase() (a transaction) runs it the usual way.
 */
export async function executePrepared<R>(db: Queryable, query: CompiledQuery<R>): Promise<R[]> {
  const client = await rawClient(db);
  if (client === null) return (await db.executeQuery(query)).rows;
  let broken: Error | undefined;
  try {
    const name = statementName(query.sql);
    let prepared = preparedOn.get(client);
    if (prepared === undefined) preparedOn.set(client, (prepared = new Set()));
    // Through PgBouncer in transaction mode the next statement of this client may land on another
    // server connection, which never saw the name: unnamed there (parsed and planned each time).
    const named = !throughPooler(client) && (prepared.has(name) || prepared.size < PREPARED_PER_CONNECTION);
    if (named) prepared.add(name);
    const values = [...query.parameters];
    const result = await client.query<R & pg.QueryResultRow>(named ? { name, text: query.sql, values } : { text: query.sql, values });
    return result.rows;
  } catch (error) {
    // An error from the server (a statement time-out, a constraint) leaves the connection usable;
    // anything else (a lost socket) discards it.
    if (!(error instanceof pg.DatabaseError)) broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}
