/**
 * The job queues of machines started together on an empty database (src/jobs/index.ts startJobs):
 * pg-boss creates a queue's partition without a lock of its own, and two processes creating the same
 * queue at once deadlocked (one of them failed to start with "deadlock detected"). Three processes'
 * queues started at once on a fresh database all start, and each queue exists once.
 */
import type PgBoss from 'pg-boss';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { jobs, startJobs } from '../../src/jobs/index.js';
import { createLogger } from '../../src/logging.js';
import { createDatabase } from '../support/service.js';

describe('job queues of machines started together', () => {
  const handles: DatabaseHandle[] = [];
  const bosses: PgBoss[] = [];

  afterAll(async () => {
    await Promise.all(bosses.map((boss) => boss.stop({ graceful: false, wait: true }).catch(() => undefined)));
    for (const handle of handles) await handle.close();
  });

  it('three processes starting their queues at once on a fresh database all start; each queue is created once', async () => {
    for (let round = 0; round < 2; round += 1) {
      const databaseUrl = await createDatabase(inject('postgresUrl'));
      const database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 2, statementTimeoutMs: 10_000 });
      handles.push(database);
      await migrateToLatest(database.admin);
      const lines: string[] = [];
      const logger = createLogger('info', (line) => lines.push(line));
      const started = await Promise.allSettled(
        [0, 1, 2].map(() => startJobs(databaseUrl, { admin: database.admin, logger, clock: () => Date.now() })),
      );
      for (const result of started) if (result.status === 'fulfilled') bosses.push(result.value);
      expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual([
        'started',
        'started',
        'started',
      ]);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const queues = await client.query<{ name: string; n: number }>(
          `select name, count(*)::int4 as n from pgboss.queue where name = any($1) group by name order by name`,
          [jobs.map((job) => job.name)],
        );
        expect(queues.rows).toEqual([...jobs.map((job) => job.name)].sort().map((name) => ({ name, n: 1 })));
      } finally {
        await client.end();
      }
      expect(lines.some((line) => line.includes('waiting for another machine creating the job queues'))).toBe(true);
    }
  }, 60_000);
});
