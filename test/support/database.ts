/** New databases on the run's test server (global-setup.ts): empty, or copies of a template database. */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';

/** How long a copy waits for its template to have no session (PostgreSQL refuses a template in use). */
const TEMPLATE_BUSY_WAIT_MS = 120_000;

/**
 * A new database on the test server; its URL. Empty, or with `template` a copy of that database
 * (CREATE DATABASE ... TEMPLATE: PostgreSQL copies its files, indexes and all). PostgreSQL refuses
 * the copy while another session is connected to the template (SQLSTATE 55006): a file copying a
 * market's rows from it (market-template.ts) holds one for a few seconds, so the copy is tried again
 * until it is free.
 */
export async function createDatabase(baseUrl: string, options: { template?: string } = {}): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const from = options.template === undefined ? '' : ` template ${admin.escapeIdentifier(options.template)}`;
    const deadline = Date.now() + TEMPLATE_BUSY_WAIT_MS;
    for (;;) {
      try {
        await admin.query(`create database ${name}${from}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || Date.now() > deadline) throw error;
        await sleep(100);
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A handle on a database of the test server (the run's own database when none is named), without an
 * embedded server of its own: one connection by default, so that every statement of a file runs
 * in the same PostgreSQL session.
 */
export async function openTestHandle(
  databaseUrl: string,
  options: { poolSize?: number; statementTimeoutMs?: number } = {},
): Promise<DatabaseHandle> {
  return await openDatabase({
    databaseUrl,
    embeddedDir: '',
    embeddedPort: 0,
    poolSize: options.poolSize ?? 1,
    statementTimeoutMs: options.statementTimeoutMs ?? 5_000,
  });
}
