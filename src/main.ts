/** `make run`: the service on 127.0.0.1:8080 with docs at /docs, printing the demo API key. */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.js';
import { ensureDemoKey } from './seed.js';
import { startService } from './server.js';

const config = loadConfig();
const docsDir = path.resolve('build/docs');
if (config.seedOnStart) process.stdout.write('Starting; on first start the simulated market is generated and loaded (about half a minute)...\n');
const service = await startService(config, { docsDir: fs.existsSync(docsDir) ? docsDir : undefined, seedMarket: config.seedOnStart });
const demoKey = config.seedOnStart ? await ensureDemoKey(service.database.admin, path.join(config.dataDir, 'demo-key')) : null;

process.stdout.write(
  [
    '',
    `Options Analytics Data Service listening on ${service.url}`,
    `  docs:      ${service.url}/docs/`,
    `  contract:  ${service.url}/v1/openapi.json`,
    demoKey ? `  demo key:  ${demoKey}` : '',
    demoKey ? `  try:       curl -H "Authorization: Bearer ${demoKey}" ${service.url}/v1/market/calendar` : '',
    '',
  ].join('\n') + '\n',
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
