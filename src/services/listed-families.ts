/**
 * A family's listed expirations and contracts with their open interest on a trading date, as the
 * valued books (books.ts) and the open interest route read them.
 */
import { addDays } from '../analytics/new-york-time.js';
import type { ListedExpirationRow } from '../db/chain.js';
import { OPEN_INTEREST_LOOKBACK_DAYS, type ListedContractRow } from '../db/positioning.js';
import type { ServiceContext } from './types.js';

export interface ListedFamily {
  position: number;
  listed: ListedExpirationRow[];
  contracts: ListedContractRow[];
}

/**
 * A family's listed expirations and contracts with their open interest on the trading date: the
 * same every minute of a session, so kept per process (memos.listed) with the change log's position
 * read before them, and read again only when a write logged since can have changed them
 * (contractsUnchangedSince: one probe of the log).
 */
export async function listedOf(ctx: ServiceContext, roots: readonly string[], tradingDate: string): Promise<ListedFamily> {
  const repos = ctx.deps.repositories;
  const key = JSON.stringify([roots, tradingDate]);
  const dates = { from: addDays(tradingDate, -OPEN_INTEREST_LOOKBACK_DAYS), to: tradingDate };
  const read = async (): Promise<ListedFamily> => {
    const position = await repos.books.changeLogPosition();
    const listed = await repos.chain.listedExpirations(roots, tradingDate);
    return { position, listed, contracts: await repos.positioning.listedContracts(listed, tradingDate) };
  };
  const kept = (await ctx.deps.memos.listed.get(key, read)) as ListedFamily;
  if (await repos.books.contractsUnchangedSince(kept.position, dates)) return kept;
  const fresh = await read();
  ctx.deps.memos.listed.set(key, fresh);
  return fresh;
}
