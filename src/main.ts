/**
 * `make run`: the service on 127.0.0.1:8080 with docs at /docs, printing the demo API key; run from
 * the compiled JavaScript (`node dist/src/main.js`, scripts/build) or through tsx (tests). With
 * WEB_WORKERS above 1 (the default on a machine of several cores) a cluster serves it: this
 * process becomes its primary and forks the HTTP workers, each of which runs this file too
 * (cluster.ts).
 *
 * The stop signals are taken first (lifecycle.ts), before anything starts: on SIGTERM, SIGINT or
 * SIGHUP the service stops in order (server.ts, cluster.ts) and the process exits 0, or 1 when the
 * stop failed. A lost database does not end it (lifecycle.ts, db/). A start that fails says why in
 * one line and exits 1.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { startClusterPrimary, startClusterWorker } from './cluster.js';
import { EXPLORER_BUILD_DIR } from './explorer-page.js';
import { loadConfig } from './config.js';
import { createLogger } from './logging.js';
import { SIMULATION_SEED } from './ingest/seed-market.js';
import { BookValuer } from './jobs/book-valuer.js';
import { Duty } from './live/duty.js';
import { startLiveMarket } from './live/runner.js';
import { SimulatedLiveSource } from './live/simulated-source.js';
import { ensureDemoKey } from './seed.js';
import { startService } from './server.js';
import { stopSignal, surviveDatabaseLoss } from './lifecycle.js';

const signal = stopSignal();
const config = loadConfig();
// `make run` builds the docs page and the explorer while the service starts: /docs and /explorer
// serve their folders from when they are there.
const docsDir = path.resolve('build/docs');
const logger = createLogger(config.logLevel);
surviveDatabaseLoss(logger);
const explorerDir = path.resolve(EXPLORER_BUILD_DIR);
const options = { docsDir, explorerDir, seedMarket: config.seedOnStart, logger };

function failedStart(error: unknown): never {
  process.stderr.write(`error: the service did not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

if (cluster.isWorker) {
  await startClusterWorker(config, options).catch(failedStart);
} else {
  // A first start simulates and loads a market before it listens: said at once, so the wait does
  // not look like a hang.
  if (config.seedOnStart) {
    process.stdout.write(
      'Starting; on first start the simulated market is generated and loaded (about 45 s of CPU time: about 35 s on two idle cores, longer on busy ones)...\n',
    );
  }
  const running = await (
    config.webWorkers > 1
      ? startClusterPrimary(config, options)
      : startService(config, options).then((service) => ({ service, url: service.url, workers: 1, stop: () => service.stop() }))
  ).catch(failedStart);
  const demoKey = config.seedOnStart ? await ensureDemoKey(running.service.database.admin, path.join(config.dataDir, 'demo-key')) : null;
  logger.info('listening', { url: running.url, workers: running.workers, started_s: Number(process.uptime().toFixed(1)) });
  // The live market (src/live/): one writer for the deployment. Each machine's primary keeps the
  // duty (live/duty.ts); the one holding its lease in the database runs the runner, and another
  // takes it over when that machine stops or dies.
  const live =
    config.liveMode === 'live'
      ? new Duty(
          running.service.database.admin,
          'live-market',
          () =>
            startLiveMarket(running.service.database.admin, config, {
              source: new SimulatedLiveSource({ seed: SIMULATION_SEED, scale: 'default' }),
              clock: running.service.deps.clock,
              simulator: { seed: SIMULATION_SEED, scale: 'default' },
              logger,
            }),
          { logger },
        )
      : null;
  live?.start();

  // The book valuer (src/jobs/book-valuer.ts): this process values each family's newest minute as it
  // loads, for every HTTP worker (and, through the database's claims, with the other machines').
  const valuer = new BookValuer(running.service.deps, logger);
  valuer.start();

  process.stdout.write(
    [
      '',
      `Options Analytics Data Service listening on ${running.url} (${running.workers === 1 ? 'one process' : `${running.workers} HTTP worker processes`}), started in ${process.uptime().toFixed(0)} s`,
      `  docs:      ${running.url}/docs/`,
      `  explorer:  ${running.url}/explorer/`,
      `  contract:  ${running.url}/v1/openapi.json`,
      demoKey ? `  demo key:  ${demoKey}` : '',
      demoKey ? `  try:       curl -H "Authorization: Bearer ${demoKey}" ${running.url}/v1/market/calendar` : '',
      '',
    ].join('\n') + '\n',
  );

  const received = await signal;
  logger.info('stopping', { signal: received, grace_ms: config.shutdownGraceMs });
  // The live minute being loaded finishes (its loads are transactions) before the database closes;
  // the duty's lease is given up, for another machine to take at once.
  await live?.stop();
  await valuer.stop();
  const exitCode = await running.stop().then(
    () => 0,
    (error: unknown) => {
      logger.error('stop failed', { error: error instanceof Error ? error.message : String(error) });
      return 1;
    },
  );
  logger.info('stopped', { exit_code: exitCode });
  process.exit(exitCode);
}
