/**
 * COPY, the bulk write of classified prints (pg-copy-streams). COPY needs a raw connection, which
 * Kysely does not expose, so a copy session holds one pg client (from the pool behind the handle,
 * connection.ts rawClient) and a Kysely bound to it alone: the load runs its transaction on that
 * Kysely and streams COPY FROM STDIN on the same connection, inside the transaction.
 *
 * Each row travels in binary COPY form (copy-binary.ts), written straight from the classified print
 * by writePrintRow from one table of columns and their writers (PRINT_ROW), which also gives the
 * COPY statement its column list: no column arrays, no second pass, and nothing for PostgreSQL to
 * parse (text COPY of the same rows costs it much more: every byte scanned for escapes, every
 * number and date parsed). A trading date's rows stream through one COPY while the next rows are
 * classified, so PostgreSQL stores them on its own core as node classifies; the socket's
 * back-pressure paces the two.
 *
 * Two targets:
 * - fresh: a new trading date's standalone table, created in the load's transaction (partitions.ts
 *   createStandalonePrintsPartition) and known to receive no key twice (ingest/print-order.ts
 *   checks the file's keys first): COPY … FREEZE straight into it, rows written frozen, no conflict check;
 * - otherwise (a date that already has a partition, or a file repeating a key): COPY into a
 *   temporary staging table, then one INSERT … SELECT … ON CONFLICT DO NOTHING at the end of the
 *   date, so a print already stored (or met earlier in the file) is left as stored; the rows it
 *   inserted are kept in the temporary table prints_added until the transaction ends.
 */
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { rawClient, type Database, type Queryable } from './connection.js';
import type { CopyBinaryWriter } from './copy-binary.js';
import type { DB, PrintsTable } from './schema.js';

/**
 * What a prints row holds beyond the classified print, and the writer of its served body
 * (ingest/print-body.ts writePrintBody, given here so that db/ does not import ingest/). One
 * object, refilled per row.
 */
export interface PrintRowFacts {
  contractId: number;
  root: string;
  family: string;
  underlying: string;
  extendedConditions: readonly number[];
  quoteBid: number | null;
  quoteAsk: number | null;
  quoteTs: number | null;
  aggressorSide: 'buy' | 'sell' | null;
  writeBody: (r: ClassifiedPrintRecord, w: CopyBinaryWriter) => void;
}

/** Writes one column's value of a prints row in the binary form of the column's type. */
type PrintColumnWriter = (r: ClassifiedPrintRecord, facts: PrintRowFacts, w: CopyBinaryWriter) => void;

/**
 * The prints row of binary COPY: each column in COPY order with the writer of its value. The
 * column list of the COPY statement (PRINT_COPY_COLUMNS) and the row (writePrintRow) both come
 * from it, so the two cannot disagree on the order; every column of the prints table is here
 * (checked by the compiler below).
 */
export const PRINT_ROW = [
  ['trading_date', (r, _, w) => w.date(r.trading_date)],
  ['contract_id', (_, f, w) => w.int8(f.contractId)],
  ['sequence', (r, _, w) => w.int8(r.sequence)],
  ['id', (r, _, w) => w.text(r.id)],
  ['root', (_, f, w) => w.text(f.root)],
  ['family', (_, f, w) => w.text(f.family)],
  ['underlying', (_, f, w) => w.text(f.underlying)],
  ['ts', (r, _, w) => w.int8(r.timestamp)],
  ['session', (r, _, w) => w.text(r.session)],
  ['contract_type', (r, _, w) => w.text(r.contract_type)],
  ['date_of_expiry', (r, _, w) => w.date(r.date_of_expiry)],
  ['strike', (r, _, w) => w.float8(r.strike)],
  ['price', (r, _, w) => w.float8(r.price)],
  ['size', (r, _, w) => w.int4(r.size)],
  ['premium', (r, _, w) => w.float8(r.premium)],
  ['exchange_code', (r, _, w) => w.int4(r.exchange_code)],
  ['exchange', (r, _, w) => w.text(r.exchange)],
  ['condition_code', (r, _, w) => w.int4(r.condition_code)],
  ['extended_conditions', (_, f, w) => w.int4Array(f.extendedConditions)],
  ['side', (r, _, w) => w.text(r.side)],
  ['side_confidence', (r, _, w) => w.float8(r.side_confidence)],
  ['sentiment', (r, _, w) => w.text(r.sentiment)],
  ['trade_type', (r, _, w) => w.text(r.trade_type)],
  ['flags', (r, _, w) => w.textArray(r.flags)],
  ['group_id', (r, _, w) => w.textOrNull(r.group_id)],
  ['is_block', (r, _, w) => w.bool(r.is_block)],
  ['is_golden', (r, _, w) => w.bool(r.is_golden)],
  ['is_unusual', (r, _, w) => w.bool(r.is_unusual)],
  ['day_volume', (r, _, w) => w.int4(r.day_volume)],
  ['open_interest', (r, _, w) => w.int4OrNull(r.open_interest)],
  ['days_to_expiry', (r, _, w) => w.int4(r.days_to_expiry)],
  ['otm_percent', (r, _, w) => w.float8OrNull(r.otm_percent)],
  ['implied_volatility', (r, _, w) => w.float8OrNull(r.implied_volatility)],
  ['delta', (r, _, w) => w.float8OrNull(r.delta)],
  ['underlying_price', (r, _, w) => w.float8OrNull(r.underlying_price)],
  ['bid', (r, _, w) => w.float8OrNull(r.bid)],
  ['ask', (r, _, w) => w.float8OrNull(r.ask)],
  ['quote_bid', (_, f, w) => w.float8OrNull(f.quoteBid)],
  ['quote_ask', (_, f, w) => w.float8OrNull(f.quoteAsk)],
  ['quote_ts', (_, f, w) => w.int8OrNull(f.quoteTs)],
  ['aggressor_side', (_, f, w) => w.textOrNull(f.aggressorSide)],
  ['cancelled', (r, _, w) => w.bool(r.cancelled)],
  ['body', (r, f, w) => f.writeBody(r, w)],
] as const satisfies readonly (readonly [keyof PrintsTable, PrintColumnWriter])[];

/** Fails to compile while a column of the prints table has no entry in PRINT_ROW. */
const everyColumnWritten: Record<Exclude<keyof PrintsTable, (typeof PRINT_ROW)[number][0]>, never> = {};
void everyColumnWritten;

/** The prints columns in the order of a COPY row. */
export const PRINT_COPY_COLUMNS: readonly (keyof PrintsTable)[] = PRINT_ROW.map(([column]) => column);
const WRITERS: readonly PrintColumnWriter[] = PRINT_ROW.map(([, write]) => write);

/** Writes one row of the prints table in binary COPY form, its columns in PRINT_COPY_COLUMNS order. */
export function writePrintRow(r: ClassifiedPrintRecord, facts: PrintRowFacts, w: CopyBinaryWriter): void {
  w.row(WRITERS.length);
  for (const write of WRITERS) write(r, facts, w);
  w.endRow();
}

/** The rows of one trading date on their way into a table. */
export interface PrintCopy {
  /** Sends binary COPY data (signature, rows, trailer: CopyBinaryWriter); false when the connection is full: await drained(). */
  write: (chunk: Buffer) => boolean;
  /** Resolves when more may be written; rejects once the COPY has failed. */
  drained: () => Promise<void>;
  /** Ends the rows; resolves to the rows stored. */
  end: () => Promise<number>;
  /** Abandons the COPY (the load failed elsewhere), leaving the connection ready for ROLLBACK. */
  abort: (reason: Error) => Promise<void>;
}

export interface CopySession {
  /** A Kysely over this session's single connection: run the load's transaction on it. */
  db: Database;
  /**
   * Starts the COPY of a trading date's rows into `table`. `fresh`: the table was created in this
   * transaction (COPY FREEZE, no conflict check); otherwise rows pass through the staging table and
   * a print already stored is left as stored.
   */
  copyPrints(trx: Queryable, table: string, options: { fresh: boolean }): Promise<PrintCopy>;
  /**
   * Starts a binary COPY of rows of `columns` into `table` (another table than prints: quote
   * samples); `freeze` when the table was created in this transaction.
   */
  copyInto(table: string, columns: readonly string[], options: { freeze: boolean }): PrintCopy;
  close(): Promise<void>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const COLUMN_LIST = PRINT_COPY_COLUMNS.join(', ');

/**
 * COPY FROM STDIN on `client`, written by the caller, with the failure kept for drained() and end().
 * The columns are the prints row's (PRINT_COPY_COLUMNS) unless given.
 */
export function startCopy(client: pg.ClientBase, table: string, options: { freeze: boolean; columns?: readonly string[] }): PrintCopy {
  if (!IDENTIFIER.test(table)) throw new RangeError(`bad table name ${table}`);
  if (options.columns?.some((c) => !IDENTIFIER.test(c))) throw new RangeError(`bad column names ${options.columns.join(', ')}`);
  const columns = options.columns?.join(', ') ?? COLUMN_LIST;
  const stream = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN WITH (FORMAT binary${options.freeze ? ', FREEZE' : ''})`));
  let failure: Error | null = null;
  let ended = false;
  const finished = new Promise<number>((resolve, reject) => {
    stream.on('error', (error: Error) => {
      failure = error;
      reject(error);
    });
    stream.on('finish', () => resolve(stream.rowCount));
  });
  // Observed here so that a failure met while the caller is still classifying is not unhandled.
  finished.catch(() => undefined);
  return {
    write: (chunk) => {
      if (failure !== null) throw failure;
      return stream.write(chunk);
    },
    drained: async () => {
      if (failure !== null) throw failure;
      await new Promise<void>((resolve, reject) => {
        const settle = (): void => {
          stream.off('drain', settle);
          stream.off('error', settle);
          if (failure !== null) reject(failure);
          else resolve();
        };
        stream.on('drain', settle);
        stream.on('error', settle);
      });
    },
    end: async () => {
      if (failure !== null) throw failure;
      ended = true;
      stream.end();
      return await finished;
    },
    abort: async (reason) => {
      if (failure !== null || ended) return;
      const closed = new Promise((resolve) => stream.once('close', resolve));
      stream.destroy(reason);
      await closed;
    },
  };
}

/** Whether this transaction's staging kept the rows it inserted (prints_added, copyPrints): the flow totals add them up. */
export async function printsAddedStaged(trx: Queryable): Promise<boolean> {
  const result = await sql<{ staged: boolean }>`select to_regclass('pg_temp.prints_added') is not null as staged`.execute(trx);
  return result.rows[0]?.staged === true;
}

/** Opens a copy session on a client of the pool behind a handle opened by openDatabase(). */
export async function openCopySession(source: Database): Promise<CopySession> {
  const client = await rawClient(source);
  if (client === null) throw new Error('bulk COPY needs a database handle opened by openDatabase()');
  const pool: PostgresPool = {
    // Kysely releases its connection after each query; the session keeps this one until close().
    connect: async (): Promise<PostgresPoolClient> => ({ query: client.query.bind(client), release: () => undefined }),
    end: async () => undefined,
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let stagedFor: Queryable | null = null;
  return {
    db,
    async copyPrints(trx, table, options) {
      if (!IDENTIFIER.test(table)) throw new RangeError(`bad table name ${table}`);
      if (options.fresh) return startCopy(client, table, { freeze: true });
      if (stagedFor !== trx) {
        // Dropped at the end of the load's transaction. prints_added keeps the rows the load inserted
        // (not those left out as stored): the flow totals add them up (flow-aggregates.ts addFlowTotals).
        await sql`create temporary table if not exists prints_stage (like prints including defaults) on commit drop`.execute(trx);
        await sql`create temporary table if not exists prints_added (like prints including defaults) on commit drop`.execute(trx);
        stagedFor = trx;
      }
      const copy = startCopy(client, 'prints_stage', { freeze: false });
      return {
        write: copy.write,
        drained: copy.drained,
        abort: copy.abort,
        end: async () => {
          await copy.end();
          const result = await sql`
            with inserted as (insert into ${sql.table(table)} select * from prints_stage on conflict do nothing returning *)
            insert into prints_added select * from inserted`.execute(trx);
          await sql`truncate prints_stage`.execute(trx);
          return Number(result.numAffectedRows ?? 0);
        },
      };
    },
    copyInto(table, columns, options) {
      return startCopy(client, table, { freeze: options.freeze, columns });
    },
    async close() {
      client.release();
    },
  };
}
