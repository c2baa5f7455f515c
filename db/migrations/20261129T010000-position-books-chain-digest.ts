/**
 * A book's chain digest: the digest of the chain rows it was valued on (services/book-valuation.ts
 * readChain). The chain of a minute is the family's chain snapshot (one every 15 minutes, the
 * near-the-money strikes' one-minute samples read as of the snapshot), and a book is valued at the
 * snapshot minute's end; so the minutes after a snapshot share its book. With the digest, a minute
 * whose chain and valuation time match a stored book that no change since has made stale maps to
 * that book without reading the family's prints, the costliest read of a book (services/books.ts
 * ensureBook). Books stored before this have none, and are only found by their whole digest.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table position_books add column chain_digest text`.execute(db);
  await sql`create index position_books_valued_at_idx on position_books (underlying_symbol, session, trading_date, valued_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists position_books_valued_at_idx`.execute(db);
  await sql`alter table position_books drop column if exists chain_digest`.execute(db);
}
