/**
 * Nothing a request gives reaches SQL text (issue #20, section 3): the print feed reads bind their
 * roots, sessions and row limits, so one named prepared statement (src/db/prepared.ts) serves every
 * root, session and page size of a filter's shape, its text holds none of them, PostgreSQL keeps a
 * generic plan for it, and its pages are those of a plain query run the usual way.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSIONS_OF } from '../../src/analytics/print-filters.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { printsPageText, scannedPrints, type PrintFilter } from '../../src/db/trades.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';

describe('print feed statements', () => {
  let service: TestService;
  let handle: DatabaseHandle;
  let roots: string[] = [];

  beforeAll(async () => {
    service = await startTestService({ market: { dates: [DAY] } });
    // One connection: every statement below is prepared in the same PostgreSQL session.
    handle = await openDatabase({
      databaseUrl: service.config.databaseUrl,
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 1,
      statementTimeoutMs: 10_000,
    });
    const found = await sql<{
      root: string;
    }>`select root from prints where trading_date = ${DAY}::date group by root order by count(*) desc limit 3`.execute(handle.db);
    roots = found.rows.map((r) => r.root);
  });
  afterAll(async () => {
    await handle.close();
    await service.stop();
  });

  const filter = (rootList: string[], sessions: readonly string[]): PrintFilter => ({
    tradingDate: DAY,
    roots: rootList,
    sessions,
    from: null,
    to: null,
    includeComplex: true,
  });

  const statements = async () =>
    (
      await sql<{
        statement: string;
        generic_plans: number;
        custom_plans: number;
      }>`select statement, generic_plans::int4 as generic_plans, custom_plans::int4 as custom_plans from pg_prepared_statements where name like 'oads_%' order by prepare_time`.execute(
        handle.db,
      )
    ).rows;

  /** The page as a plain query gives it, run the usual way (unnamed, every value bound). */
  const expected = async (root: string, sessions: readonly string[], limit: number): Promise<string[]> =>
    (
      await sql<{
        body: string;
      }>`select body from prints where trading_date = ${DAY}::date and not cancelled and root = ${root} and session = any(${[...sessions]}::text[])
        order by ts desc, sequence desc, contract_id desc limit ${limit}`.execute(handle.db)
    ).rows.map((r) => r.body);

  it('serves every root, session and page size of one root with one statement, its text free of them, planned generically', async () => {
    expect(roots).toHaveLength(3);
    await sql`deallocate all`.execute(handle.db);
    for (const root of roots) {
      for (const sessions of [SESSIONS_OF.rth, SESSIONS_OF.gth]) {
        for (const limit of [1, 7, 100, 500]) {
          const page = await printsPageText(handle.db, filter([root], sessions), null, limit);
          const bodies = page.bodies === '' ? [] : (JSON.parse(`[${page.bodies}]`) as unknown[]).map((b) => JSON.stringify(b));
          const plain = (await expected(root, sessions, limit + 1)).map((b) => JSON.stringify(JSON.parse(b)));
          expect(bodies).toEqual(plain.slice(0, limit));
          expect(page.hasMore).toBe(plain.length > limit);
        }
      }
    }
    const kept = await statements();
    expect(kept).toHaveLength(1);
    const [statement] = kept;
    for (const value of [...roots, 'rth', 'curb', 'gth', DAY, '500']) expect(statement?.statement).not.toContain(value);
    // 24 executions: PostgreSQL plans the first five as custom plans, then keeps the generic one
    // when it costs no more (the bound limit under a constant one, src/db/trades.ts).
    expect(statement?.generic_plans).toBeGreaterThanOrEqual(19);
  });

  it('serves every pair of roots with one statement, and a bounded scan with one per read', async () => {
    await sql`deallocate all`.execute(handle.db);
    const [a = '', b = '', c = ''] = roots;
    for (const pair of [
      [a, b],
      [b, c],
      [c, a],
    ]) {
      for (const limit of [3, 250]) await printsPageText(handle.db, filter(pair, SESSIONS_OF.all), null, limit);
    }
    expect(await statements()).toHaveLength(1);
    await sql`deallocate all`.execute(handle.db);
    for (const root of roots) {
      for (const limit of [2, 40]) {
        await scannedPrints(handle.db, filter([root], SESSIONS_OF.rth), null, { exchanges: ['cboe', 'ise'], sides: null }, limit, 300);
      }
    }
    const scans = await statements();
    // The filtered page and, when it ends short, the read of where the budget ended.
    expect(scans.length).toBeGreaterThanOrEqual(1);
    expect(scans.length).toBeLessThanOrEqual(2);
    for (const s of scans) for (const value of [...roots, 'cboe', 'rth']) expect(s.statement).not.toContain(value);
  });
});
