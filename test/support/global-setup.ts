/**
 * One throwaway PostgreSQL for a test run: an embedded cluster in a temporary folder, or the server
 * at DATABASE_URL when set. Each test file then creates a database of its own on it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, startEmbeddedPostgres } from '../../src/db/connection.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.DATABASE_URL;
  if (external) {
    project.provide('postgresUrl', external);
    return async () => undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres(path.join(dir, 'data'), await freePort());
  project.provide('postgresUrl', server.url);
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
