/**
 * `make run`: the service on 127.0.0.1:8080 with docs at /docs, printing the demo API key. With
 * WEB_WORKERS above 1 (the default on a machine of several cores) a cluster serves it: this
 * process becomes its primary and forks the HTTP workers, each of which runs this file too
 * (cluster.ts).
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { startClusterPrimary, startClusterWorker } from './cluster.js';
import { loadConfig } from './config.js';
import { createLogger } from './logging.js';
import { ensureDemoKey } from './seed.js';
import { startService } from './server.js';

const config = loadConfig();
const docsDir = path.resolve('build/docs');
const options = { docsDir: fs.existsSync(docsDir) ? docsDir : undefined, seedMarket: config.seedOnStart, logger: createLogger(config.logLevel) };

if (cluster.isWorker) {
  await startClusterWorker(config, options);
} else {
  if (config.seedOnStart) process.stdout.write('Starting; on first start the simulated market is generated and loaded (about half a minute)...\n');
  const running =
    config.webWorkers > 1
      ? await startClusterPrimary(config, options)
      : await startService(config, options).then((service) => ({ service, url: service.url, workers: 1, stop: () => service.stop() }));
  const demoKey = config.seedOnStart ? await ensureDemoKey(running.service.database.admin, path.join(config.dataDir, 'demo-key')) : null;

  process.stdout.write(
    [
      '',
      `Options Analytics Data Service listening on ${running.url} (${running.workers === 1 ? 'one process' : `${running.workers} HTTP worker processes`})`,
      `  docs:      ${running.url}/docs/`,
      `  contract:  ${running.url}/v1/openapi.json`,
      demoKey ? `  demo key:  ${demoKey}` : '',
      demoKey ? `  try:       curl -H "Authorization: Bearer ${demoKey}" ${running.url}/v1/market/calendar` : '',
      '',
    ].join('\n') + '\n',
  );

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}
