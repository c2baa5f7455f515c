/**
 * One load of each simulated market per test run (market.ts): the first file that asks for a
 * market (seed, now, dates, history) starts the service on a new template database of the run's
 * PostgreSQL (migrated and seeded as every test service is), loads the market there through the
 * ingest path, and records on the database (its comment) what the load changed: the tables that
 * gained rows, the partitions it created, the sequences it moved. Every caller, the first
 * included, then copies those rows into its own database: each new partition made as the loader
 * makes it (a standalone table of the parent's columns, filled, then attached, its indexes built at
 * the attach), the other tables filled by COPY in foreign-key order, the sequences set, all in one
 * transaction. An advisory lock per template keeps two files from building the same one.
 *
 * Nothing is copied (the caller loads the market itself) when the load changed a table that held
 * rows before it, created a table that is not a partition, or touched a table with triggers (but
 * the answer notices' of migration 20261129T020000, which only send a notice: a copy fires them,
 * and changes no row), or when the caller's database does not look like a fresh test service's
 * where the load writes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { rawClient, type Database } from '../../src/db/connection.js';
import { createLogger } from '../../src/logging.js';
import { startService } from '../../src/server.js';
import { SIMULATION_PREFIX, TEMPLATE_PREFIX } from './global-setup.js';

/** Raised whenever what is recorded on a template, or how it is copied, changes. */
const TEMPLATE_VERSION = 2;

export interface MarketKey {
  seed: number;
  now: number;
  dates: string[];
  history: boolean;
}

interface CopiedTable {
  /** Qualified and quoted, as it is written in SQL. */
  table: string;
  columns: string[];
  /**
   * Set for a partition the load created: its parent (quoted), bound (`FOR VALUES ...`) and the
   * checks the loader gave it of its own (the one that makes it a valid partition of its date).
   */
  partitionOf?: { parent: string; bound: string; checks: string[] };
}

export interface MarketTemplate {
  url: string;
  market: { dates: string[]; historyDates: string[] };
  /** False when the load's changes cannot be copied faithfully (see the header). */
  copyable: boolean;
  /** Why not, table by table (empty when copyable). */
  uncopyable: string[];
  /** In copy order: a table after the tables its foreign keys reference. */
  tables: CopiedTable[];
  sequences: { name: string; value: string }[];
}

interface TableState {
  oid: number;
  name: string;
  rows: number;
  /** Content digest, taken only of tables that held rows before the load. */
  digest: string | null;
  parent: string | null;
  bound: string | null;
  triggers: number;
}

/** The run's PostgreSQL server and name, as the global set-up provides them; null outside such a run. */
function runServer(): { serverUrl: string; run: string } | null {
  try {
    const serverUrl = inject('postgresUrl');
    const run = inject('marketRun');
    return serverUrl && run ? { serverUrl, run } : null;
  } catch {
    return null;
  }
}

const cache = new Map<string, MarketTemplate>();

/** The run's template of the market, built on first use; null outside a run whose global set-up provides one. */
export async function marketTemplate(
  key: MarketKey,
  load: (admin: Database) => Promise<MarketTemplate['market']>,
): Promise<MarketTemplate | null> {
  const where = runServer();
  if (where === null) return null;
  const { serverUrl, run } = where;
  const hash = createHash('sha256')
    .update(JSON.stringify({ TEMPLATE_VERSION, ...key }))
    .digest('hex')
    .slice(0, 16);
  const name = `${TEMPLATE_PREFIX}${run}_${hash}`;
  const known = cache.get(name);
  if (known) return known;
  const lock = new pg.Client({ connectionString: serverUrl, application_name: 'oads-test-market' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
    const found = await lock.query<{ note: string | null }>(
      `select shobj_description(oid, 'pg_database') as note from pg_database where datname = $1`,
      [name],
    );
    const note = found.rows[0]?.note;
    let template: MarketTemplate;
    if (note) {
      template = JSON.parse(note) as MarketTemplate;
    } else {
      // A build cut short (its process ended) leaves a database without its note.
      if (found.rows.length === 1) await lock.query(`drop database ${name} with (force)`);
      await lock.query(`create database ${name}`);
      template = await buildTemplate(databaseUrl(serverUrl, name), load);
      await lock.query(`comment on database ${name} is ${lock.escapeLiteral(JSON.stringify(template))}`);
    }
    cache.set(name, template);
    return template;
  } finally {
    await lock.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await lock.end();
  }
}

const simulations = new Map<string, unknown>();

/**
 * A simulation's result, made once per run whoever asks first: `simulate` writes its files into a
 * folder of the run (removed by the global teardown), which later callers, in any test process,
 * read. An advisory lock per folder keeps two processes from writing the same one. Null outside a
 * run whose global set-up provides one.
 */
export async function sharedSimulation<T>(key: unknown, simulate: (outDir: string) => Promise<T>): Promise<T | null> {
  const where = runServer();
  if (where === null) return null;
  const { serverUrl, run } = where;
  const hash = createHash('sha256').update(JSON.stringify({ TEMPLATE_VERSION, key })).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `${SIMULATION_PREFIX}${run}_${hash}`);
  const known = simulations.get(dir);
  if (known !== undefined) return known as T;
  const done = path.join(dir, 'simulation.json');
  const lock = new pg.Client({ connectionString: serverUrl, application_name: 'oads-test-market' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtextextended($1, 0))', [dir]);
    let result: T;
    if (fs.existsSync(done)) {
      result = JSON.parse(fs.readFileSync(done, 'utf8')) as T;
    } else {
      // A simulation cut short (its process ended) leaves a folder without its record.
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      result = await simulate(dir);
      fs.writeFileSync(done, JSON.stringify(result));
    }
    simulations.set(dir, result);
    return result;
  } finally {
    await lock.query('select pg_advisory_unlock_all()').catch(() => undefined);
    await lock.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function buildTemplate(url: string, load: (admin: Database) => Promise<MarketTemplate['market']>): Promise<MarketTemplate> {
  // The service's own start (migrations, seeding) makes the database a test service starts on, with
  // its limits counted as a test service counts them (service.ts): counted in the database
  // (LIMIT_SCOPE=deployment, the default with DATABASE_URL), the service's holder row is renewed
  // during the load, a change no copy can carry, and no template was copyable.
  const config = loadConfig({ DATABASE_URL: url, PORT: '0', LOG_LEVEL: 'silent', LIMIT_SCOPE: 'cluster' });
  const service = await startService(config, { logger: createLogger('silent', () => undefined), jobs: false });
  const reader = new pg.Client({ connectionString: url, application_name: 'oads-test-market' });
  await reader.connect();
  try {
    const before = await tableStates(reader, null);
    const sequencesBefore = await sequenceValues(reader);
    const market = await load(service.database.admin);
    const after = await tableStates(reader, before);
    const sequencesAfter = await sequenceValues(reader);

    const changed: TableState[] = [];
    const uncopyable: string[] = [];
    for (const state of after.values()) {
      const old = before.get(state.name);
      if (old === undefined) {
        if (state.parent === null || state.bound === null) uncopyable.push(`${state.name}: a new table that is not a partition`);
        changed.push(state);
      } else if (old.rows !== state.rows || old.digest !== state.digest) {
        if (old.rows > 0) uncopyable.push(`${state.name}: held ${old.rows} rows before the load, which changed them`);
        changed.push(state);
      }
    }
    for (const t of changed) if (t.triggers > 0) uncopyable.push(`${t.name}: has triggers`);
    const tables: CopiedTable[] = [];
    for (const state of await foreignKeyOrder(reader, changed)) {
      const columns = await reader.query<{ name: string }>(
        `select quote_ident(attname) as name from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
        [state.oid],
      );
      const isNew = !before.has(state.name);
      const checks = await reader.query<{ check: string }>(
        `select 'constraint ' || quote_ident(conname) || ' ' || pg_get_constraintdef(oid) as check from pg_constraint where conrelid = $1 and contype = 'c' and conislocal and coninhcount = 0 order by conname`,
        [state.oid],
      );
      tables.push({
        table: state.name,
        columns: columns.rows.map((c) => c.name),
        ...(isNew && state.parent !== null && state.bound !== null
          ? { partitionOf: { parent: state.parent, bound: state.bound, checks: checks.rows.map((c) => c.check) } }
          : {}),
      });
    }
    const sequences = [...sequencesAfter]
      .filter(([name, value]) => value !== null && sequencesBefore.get(name) !== value)
      .map(([name, value]) => ({ name, value: value as string }));
    return { url, market, copyable: uncopyable.length === 0, uncopyable, tables, sequences };
  } finally {
    await reader.end();
    await service.stop();
  }
}

/** Every ordinary table (partitions included) with its row count; digests of those that held rows in `before` (all, when null, that hold any). */
async function tableStates(client: pg.Client, before: Map<string, TableState> | null): Promise<Map<string, TableState>> {
  const tables = await client.query<Omit<TableState, 'rows' | 'digest'>>(`
    select c.oid::int as oid,
           quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
           (select quote_ident(pn.nspname) || '.' || quote_ident(p.relname)
              from pg_inherits i join pg_class p on p.oid = i.inhparent join pg_namespace pn on pn.oid = p.relnamespace
             where i.inhrelid = c.oid and c.relispartition) as parent,
           case when c.relispartition then pg_get_expr(c.relpartbound, c.oid) end as bound,
           (select count(*)::int from pg_trigger t join pg_proc f on f.oid = t.tgfoid
             where t.tgrelid = c.oid and not t.tgisinternal and f.proname <> 'oads_notify_answers') as triggers
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'`);
  const states = new Map<string, TableState>();
  for (const table of tables.rows) {
    const count = await client.query<{ rows: number }>(`select count(*)::int as rows from ${table.name}`);
    const rows = count.rows[0]?.rows ?? 0;
    const digested = before === null ? rows > 0 : (before.get(table.name)?.rows ?? 0) > 0;
    const digest = digested
      ? ((
          await client.query<{ digest: string }>(
            `select md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as digest from ${table.name} t`,
          )
        ).rows[0]?.digest ?? null)
      : null;
    states.set(table.name, { ...table, rows, digest });
  }
  return states;
}

async function sequenceValues(client: pg.Client): Promise<Map<string, string | null>> {
  const result = await client.query<{ name: string; value: string | null }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as value from pg_sequences`,
  );
  return new Map(result.rows.map((r) => [r.name, r.value]));
}

/** The tables in an order where each comes after those (of the list) its foreign keys reference. */
async function foreignKeyOrder(client: pg.Client, tables: TableState[]): Promise<TableState[]> {
  const keys = await client.query<{ child: number; parent: number }>(
    `select conrelid::int as child, confrelid::int as parent from pg_constraint where contype = 'f'`,
  );
  const oids = new Set(tables.map((t) => t.oid));
  const pending = [...tables];
  const done = new Set<number>();
  const ordered: TableState[] = [];
  while (pending.length > 0) {
    const index = pending.findIndex((t) =>
      keys.rows.every((k) => k.child !== t.oid || k.parent === t.oid || !oids.has(k.parent) || done.has(k.parent)),
    );
    // A cycle of foreign keys: left in the order found (the copy then fails loudly).
    const [next] = pending.splice(index === -1 ? 0 : index, 1);
    if (next === undefined) break;
    done.add(next.oid);
    ordered.push(next);
  }
  return ordered;
}

/**
 * Copies the template's market into the database behind `admin`, in one transaction. False (and
 * nothing written) when the template is not copyable or the database already holds rows or
 * partitions where the load writes.
 */
export async function copyMarketFromTemplate(admin: Database, template: MarketTemplate): Promise<boolean> {
  if (!template.copyable) return false;
  const target = await rawClient(admin);
  if (target === null) return false;
  const source = new pg.Client({ connectionString: template.url, application_name: 'oads-test-market' });
  let open = false;
  try {
    await source.connect();
    await target.query('begin');
    open = true;
    // The attach builds the partition's indexes: a sort of a day's quote samples kept in memory.
    await target.query(`set local maintenance_work_mem = '256MB'`);
    for (const { table, partitionOf } of template.tables) {
      if (partitionOf) {
        const exists = await target.query<{ found: string | null }>('select to_regclass($1)::text as found', [table]);
        if (exists.rows[0]?.found !== null) return false;
      } else {
        const count = await target.query<{ found: boolean }>(`select exists (select from ${table}) as found`);
        if (count.rows[0]?.found !== false) return false;
      }
    }
    for (const { table, columns, partitionOf } of template.tables) {
      if (partitionOf) {
        const checks = partitionOf.checks.map((check) => `, ${check}`).join('');
        await target.query(`create table ${table} (like ${partitionOf.parent} including defaults including constraints${checks})`);
      }
      const list = columns.join(', ');
      await pipeline(
        source.query(copyTo(`copy (select ${list} from ${table}) to stdout (format binary)`)),
        target.query(copyFrom(`copy ${table} (${list}) from stdin (format binary)`)),
      );
      if (partitionOf) await target.query(`alter table ${partitionOf.parent} attach partition ${table} ${partitionOf.bound}`);
    }
    for (const { name, value } of template.sequences) await target.query('select setval($1::regclass, $2::bigint, true)', [name, value]);
    await target.query('commit');
    open = false;
    return true;
  } finally {
    if (open) await target.query('rollback').catch(() => undefined);
    target.release();
    await source.end().catch(() => undefined);
  }
}
