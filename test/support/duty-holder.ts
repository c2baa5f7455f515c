/**
 * A process that keeps a duty (src/live/duty.ts) for test/reliability/duties.test.ts: it says
 * `holder <name>` once started, `begin` when it takes the duty's lease and `end` when it stops
 * running it; a line `stop` on its stdin stops it cleanly (the lease given up; tsx's own signal
 * handling would end the process before the stop's statements finish). Settings from the environment:
 * DATABASE_URL, DUTY_NAME, DUTY_LEASE_MS, DUTY_RENEW_MS.
 */
import { createInterface } from 'node:readline';
import { openDatabase } from '../../src/db/connection.js';
import { Duty } from '../../src/live/duty.js';

const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL!,
  embeddedDir: '',
  embeddedPort: 0,
  poolSize: 1,
  statementTimeoutMs: 5_000,
});
const duty = new Duty(
  database.admin,
  process.env.DUTY_NAME ?? 'test-duty',
  () => {
    process.stdout.write('begin\n');
    return { stop: async () => void process.stdout.write('end\n') };
  },
  { leaseMs: Number(process.env.DUTY_LEASE_MS), renewMs: Number(process.env.DUTY_RENEW_MS) },
);
process.stdout.write(`holder ${duty.holder}\n`);
duty.start();
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'stop') return;
  void duty
    .stop()
    .then(() => database.close())
    .then(() => process.exit(0));
});
