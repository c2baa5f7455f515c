/**
 * One throwaway PostgreSQL for a test run: an embedded cluster in a temporary folder, or the server
 * at DATABASE_URL when set. Each test file then creates a database of its own on it.
 *
 * The projects that name this set-up (integration, reliability, contract) share the one server,
 * started by the first and stopped by the last teardown: the simulated markets of market.ts are
 * loaded once per run into template databases on it (market-template.ts), which this teardown
 * drops (they would otherwise outlive the run on a DATABASE_URL server).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { freePort, startEmbeddedPostgres } from '../../src/db-server/embedded.js';
import { buildService } from './service-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** Names this run's market templates (market-template.ts). */
    marketRun: string;
  }
}

/** The start of the name of each market template database (market-template.ts). */
export const TEMPLATE_PREFIX = 'oads_market_';
/** The start of the name of each folder of a simulation shared by the templates (market-template.ts), in the temporary folder. */
export const SIMULATION_PREFIX = 'oads-test-simulation-';

interface Shared {
  url: string;
  run: string;
  /** The service compiled for the tests that start it as a process (service-build.ts). */
  serviceBuild: string;
  stop: () => Promise<void>;
}

interface SharedServer {
  started: Promise<Shared>;
  users: number;
}

/** On globalThis: each project may load this module anew, and they all run in the one main process. */
const SHARED = Symbol.for('oads.test.postgres');
type WithShared = typeof globalThis & { [SHARED]?: SharedServer };

async function start(): Promise<Shared> {
  const run = randomBytes(4).toString('hex');
  // The run's own temporary folder: the test files' workers (forked after this set-up) and every
  // process they start inherit it as TMPDIR, so what a test leaves there (files it loaded, the
  // PostgreSQL folders of the services it started as processes, simulations) goes with the run.
  const outside = os.tmpdir();
  const tmp = fs.mkdtempSync(path.join(outside, `oads-test-run-${run}-`));
  // As /tmp: embedded PostgreSQL's initdb runs as another user and reads its password file from here.
  fs.chmodSync(tmp, 0o1777);
  process.env.TMPDIR = tmp;
  const [server, compiled] = await Promise.all([startServer(run), buildService(run)]);
  return {
    ...server,
    run,
    serviceBuild: compiled.dir,
    stop: async () => {
      await server.stop();
      compiled.remove();
      for (const name of fs.readdirSync(os.tmpdir())) {
        if (name.startsWith(`${SIMULATION_PREFIX}${run}_`)) fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
      }
      process.env.TMPDIR = outside;
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

async function startServer(run: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const external = process.env.DATABASE_URL;
  if (external) return { url: external, stop: () => dropTemplates(external, run) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, 'data'), await freePort());
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function dropTemplates(url: string, run: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query<{ name: string }>('select datname as name from pg_database where starts_with(datname, $1)', [
      `${TEMPLATE_PREFIX}${run}_`,
    ]);
    for (const { name } of found.rows) await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const global = globalThis as WithShared;
  const shared = (global[SHARED] ??= { started: start(), users: 0 });
  shared.users += 1;
  const server = await shared.started;
  project.provide('postgresUrl', server.url);
  project.provide('marketRun', server.run);
  project.provide('serviceBuild', server.serviceBuild);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete global[SHARED];
    await server.stop();
  };
}
