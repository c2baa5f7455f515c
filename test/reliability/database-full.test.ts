/**
 * A full connection table (issue #34, item 3): with every connection slot the service's role may have
 * taken by other clients, a request that needs a new connection met `53300 too many connections`
 * and answered 500 internal_error: in the key lookup, in a route's own query (usage), in an export's
 * creation. Each now answers 503 upstream_busy with Retry-After and nothing of the driver's error,
 * and the service answers 200 again once the slots are released.
 *
 * The table is made full for real: the service runs as a role of its own whose CONNECTION LIMIT is
 * two (superusers are not held to it), its connections are ended, and the test holds both slots.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { request, type Answer } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const SLOTS = 2;
const HOLDER = 'oads-test-full-table';

describe('a full connection table', () => {
  const role = `oads_full_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let superuser: pg.Client;
  let roleUrl: string;
  let service: TestService;
  const held: pg.Client[] = [];

  beforeAll(async () => {
    superuser = new pg.Client({ connectionString: inject('postgresUrl') });
    await superuser.connect();
    await superuser.query(`create role ${role} login password '${password}'`);
    await superuser.query(`create database ${role} owner ${role}`);
    const url = new URL(inject('postgresUrl'));
    url.username = role;
    url.password = password;
    url.pathname = `/${role}`;
    roleUrl = url.toString();
    service = await startTestService({ env: { DATABASE_URL: roleUrl, AUTH_CACHE_TTL_MS: '600000' } });
  });

  afterAll(async () => {
    await Promise.all(held.map((client) => client.end().catch(() => undefined)));
    await service?.stop();
    await superuser?.query(`drop database if exists ${role} with (force)`);
    await superuser?.query(`drop role if exists ${role}`);
    await superuser?.end();
  });

  /** The role's sessions other than the test's holders. */
  const othersOfRole = async (): Promise<number> => {
    const { rows } = await superuser.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where usename = $1 and application_name <> $2`,
      [role, HOLDER],
    );
    return rows[0]?.n ?? 0;
  };

  /** Takes every slot of the role: the service's sessions ended, the test holding the SLOTS. */
  async function fillTable(): Promise<void> {
    await superuser.query(`alter role ${role} connection limit ${SLOTS}`);
    await settled(
      async () => {
        await superuser.query(`select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and application_name <> $2`, [
          role,
          HOLDER,
        ]);
        if (held.length < SLOTS) {
          const client = new pg.Client({ connectionString: roleUrl, application_name: HOLDER });
          client.on('error', () => undefined);
          try {
            await client.connect();
            held.push(client);
          } catch (error) {
            // A slot taken for a moment by one of the service's connections: ended on the next round.
            if ((error as { code?: unknown }).code !== '53300') throw error;
          }
        }
        return { held: held.length, others: await othersOfRole() };
      },
      (state) => state.held === SLOTS && state.others === 0,
      { what: "the test to hold every slot of the service's role" },
    );
    // The table is full: one more connection is refused.
    const extra = new pg.Client({ connectionString: roleUrl });
    await expect(extra.connect()).rejects.toMatchObject({ code: '53300' });
  }

  const expectBusy = (answer: Answer, what: string): void => {
    expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(503);
    expect(answer.body.error?.code).toBe('upstream_busy');
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    const text = JSON.stringify(answer.body);
    expect(text).not.toMatch(/too many|connection limit|53300|select |insert | {4}at /i);
  };

  it('answers 503 upstream_busy with Retry-After wherever a connection is refused, and 200 once the slots are free', async () => {
    const known = await service.newAccount();
    const unseen = await service.newAccount();
    // The known key is in the service's key cache: its requests get past authentication without a query.
    expect((await request(`${service.url}/v1/account`, { key: known.key })).status).toBe(200);

    await fillTable();
    // The key lookup of a key not seen yet.
    expectBusy(await request(`${service.url}/v1/account`, { key: unseen.key }), 'key lookup');
    // A route's own query.
    expectBusy(await request(`${service.url}/v1/account/usage`, { key: known.key }), 'usage');
    // An export's creation.
    expectBusy(
      await request(`${service.url}/v1/exports`, {
        key: known.key,
        method: 'POST',
        body: { path: '/v1/stocks/splits', query: { symbol: 'AAPL' } },
      }),
      'export',
    );
    expect(service.errors.filter((line) => line.includes('unhandled error'))).toEqual([]);

    await Promise.all(held.splice(0).map((client) => client.end()));
    const answer = await request(`${service.url}/v1/account`, { key: unseen.key });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await request(`${service.url}/v1/account/usage`, { key: known.key })).status).toBe(200);
  });
});
