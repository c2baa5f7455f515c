/**
 * Cancels that crossed files: a cancel record whose print was stored by an earlier file of the same
 * trading date marks that print cancelled; this table remembers which print each such record
 * cancelled, so that loading its file again finds the cancel applied instead of cancelling an older
 * print of the same exchange, price and size.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table print_cancels (
      trading_date date not null,
      contract_id bigint not null,
      cancel_sequence bigint not null,
      sequence bigint not null,
      primary key (trading_date, contract_id, cancel_sequence)
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists print_cancels`.execute(db);
}
