/**
 * The tests' market templates (test/support/market-template.ts): a market is loaded through ingest
 * once per run and copied into each file's database. A template the copy refuses costs every file
 * that asks for its market a load of its own (tens of seconds each): from the day limits were first
 * counted in the database until this test, a holder row the template's service renewed during the
 * load made every template uncopyable, and a run of the tiers spent about 1,000 s in set-up.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSimulatedMarket, simulatedMarketTemplate } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';

describe('market templates', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service.stop());

  it('are copyable, and a copy holds the rows of the template, in a database a test service started', async () => {
    const template = await simulatedMarketTemplate({ dates: [DAY] });
    expect(template).not.toBeNull();
    expect(template!.uncopyable).toEqual([]);
    expect(template!.copyable).toBe(true);
    expect(template!.tables.map((t) => t.table)).toContain('public.prints_20261120');

    const market = await loadSimulatedMarket(service.database.admin, { dates: [DAY] });
    expect(market.dates).toContain(DAY);
    // Each table the load filled holds as many rows in the copy as in the template.
    const source = new pg.Client({ connectionString: template!.url });
    await source.connect();
    try {
      for (const { table } of template!.tables) {
        const there = await source.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        const here = await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(table)}`.execute(service.database.admin);
        expect(here.rows[0]!.n, table).toBe(there.rows[0]!.n);
      }
    } finally {
      await source.end();
    }
  });
});
