/**
 * The minutes of each trading date for which quote samples are stored: one row per (date, minute)
 * written in the same transaction as the samples (src/db/quote-samples.ts recordQuoteMinutes). The
 * volatility and positioning routes value a session in progress at the newest minute of data at
 * or before the request's instant (src/analytics/volatility/valuation.ts), which this table answers
 * with one probe of its primary key instead of a scan of the date's samples. Filled here from the
 * samples already stored.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table quote_minutes (
      trading_date date not null,
      minute bigint not null,
      primary key (trading_date, minute)
    )
  `.execute(db);
  await sql`insert into quote_minutes (trading_date, minute) select distinct trading_date, minute from quote_samples`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists quote_minutes`.execute(db);
}
