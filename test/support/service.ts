/**
 * A running service for one test file: a fresh database on the test cluster, migrated and seeded,
 * the HTTP server on a free port with response validation on, and generated-client helpers.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createClient, createConfig, type Client } from '../../generated/client/client/index.js';
import { createAccount, createKey } from '../../src/accounts.js';
import { loadConfig, type Config, type Limits } from '../../src/config.js';
import type { DatasetRelease, Plan } from '../../src/db/schema.js';
import type { HandlerOverrides } from '../../src/handlers/types.js';
import { createLogger } from '../../src/logging.js';
import { startService, type RunningService } from '../../src/server.js';
import type { StreamLimits } from '../../src/api-contract/stream-protocol.js';
import type { ReplayOptions } from '../../src/stream/replay.js';

export interface TestService extends RunningService {
  config: Readonly<Config>;
  /** A client authenticated as a new account. */
  newAccount(options?: {
    plan?: Plan;
    datasets?: DatasetRelease[];
    overnight?: boolean;
  }): Promise<{ id: string; key: string; client: Client }>;
  client(key?: string): Client;
  errors: string[];
}

/** A new empty database on the test cluster; its URL. */
export async function createDatabase(baseUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function startTestService(
  options: {
    limits?: Partial<Limits>;
    handlers?: HandlerOverrides;
    env?: Record<string, string>;
    clock?: () => number;
    jobs?: boolean;
    docsDir?: string;
    explorerDir?: string;
    streamLimits?: Partial<StreamLimits>;
    replay?: ReplayOptions | null;
  } = {},
): Promise<TestService> {
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const base = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: 'true',
    REQUEST_LOG_FLUSH_MS: '50',
    // One machine (tests that set the clock count its windows in its own time): LIMIT_SCOPE=deployment is tested in test/deployment.
    LIMIT_SCOPE: 'cluster',
    ...options.env,
  });
  const config: Readonly<Config> = Object.freeze({ ...base, limits: { ...base.limits, ...options.limits } });
  const errors: string[] = [];
  const logger = createLogger('silent', (line) => errors.push(line));
  const service = await startService(config, {
    handlers: options.handlers,
    logger,
    clock: options.clock,
    jobs: options.jobs ?? false,
    docsDir: options.docsDir,
    explorerDir: options.explorerDir,
    streamLimits: options.streamLimits,
    replay: options.replay,
  });
  const client = (key?: string): Client => createClient(createConfig({ baseUrl: service.url, ...(key ? { auth: () => key } : {}) }));
  return {
    ...service,
    config,
    errors,
    client,
    newAccount: async (account = {}) => {
      const id = await createAccount(service.database.admin, {
        name: 'test',
        plan: account.plan ?? 'pro',
        datasets: account.datasets,
        overnight: account.overnight,
      });
      const { key } = await createKey(service.database.admin, id, 'test');
      return { id, key, client: client(key) };
    },
  };
}
