/**
 * A running service for one test file: a fresh database on the test cluster, migrated and seeded,
 * the HTTP server on a free port with response validation on, and generated-client helpers.
 */
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
import { createDatabase } from './database.js';
import { loadSimulatedMarket, marketDatabase, type LoadedMarket, type SimulatedMarketOptions } from './market.js';

export { createDatabase } from './database.js';

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
  /** The simulated market the service started with (`market` of the options; no dates without one). */
  market: LoadedMarket;
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
    /**
     * A simulated market to start with (market.ts): the service starts on a copy of the run's
     * database of that market, or, outside a run that keeps one, on an empty database the market
     * is then loaded into.
     */
    market?: SimulatedMarketOptions;
  } = {},
): Promise<TestService> {
  const copied = options.market ? await marketDatabase(options.market) : null;
  const databaseUrl = copied?.url ?? (await createDatabase(inject('postgresUrl')));
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
  const market = options.market
    ? (copied?.market ?? (await loadSimulatedMarket(service.database.admin, options.market)))
    : { dates: [], historyDates: [] };
  const client = (key?: string): Client => createClient(createConfig({ baseUrl: service.url, ...(key ? { auth: () => key } : {}) }));
  return {
    ...service,
    config,
    errors,
    client,
    market,
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
