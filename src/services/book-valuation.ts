/**
 * Valuing a family's book (books.ts): its inputs at a minute read from the store and laid out as a
 * book's columns with their digest (readInputs), and its surfaces fitted into them (fitSurfaces),
 * in the process's valuation threads when it has them (inThreads). books.ts decides when a book
 * is valued, stores it and answers from it.
 */
import { createHash } from 'node:crypto';
import { groupBy } from '../collections.js';
import { surfaceTexts, type BookColumns, type BookSummary } from './book-columns.js';
import { SESSIONS_OF } from '../analytics/print-filters.js';
import { riskFreeRate } from '../analytics/rates.js';
import { customerFlow, type CustomerFlow } from '../analytics/positioning/positions.js';
import { ASK_SIDES, BID_SIDES, type Side } from '../analytics/sides.js';
import type { SurfaceInput } from '../analytics/volatility/surface.js';
import {
  chainMinute,
  chainValuationTime,
  expirationsByDate,
  underlyingPriceInstant,
  type VolatilitySession,
} from '../analytics/volatility/valuation.js';
import type { ChainQuoteRow } from '../db/chain.js';
import type { BookExpirationColumns } from '../db/position-books.js';
import { chainAt, expirationChain, rowsOf, UNDERLYING_LOOKBACK_MS, type ValuationWindow } from './chain-valuation.js';
import { listedOf, type ListedFamily } from './listed-families.js';
import { storedOpenInterestDate } from './open-interest.js';
import type { ServiceContext } from './types.js';

/** Sums the stored side flows of each contract (positions.ts customerFlow: complex prints left out). */
function flowByContract(rows: readonly { contractId: number; side: string; complex: boolean; size: number }[]): Map<number, CustomerFlow> {
  const prints = new Map<number, { side: Side; size: number; complex: boolean }[]>();
  for (const r of rows) {
    const list = prints.get(r.contractId) ?? [];
    list.push({ side: r.side as Side, size: r.size, complex: r.complex });
    prints.set(r.contractId, list);
  }
  return new Map([...prints].map(([id, list]) => [id, customerFlow(list)]));
}

/** A family's inputs at a minute read and laid out as a book's columns, surfaces not fitted yet, with their digest. */
export interface ReadInputs {
  columns: BookColumns;
  digest: string;
  /** The chain rows in the order they were read (the surface's input order). */
  chainRows: ChainQuoteRow[];
  /** Their digest (ChainPart). */
  chainDigest: string;
}

/** What a book reads first (readChain): the family's listed contracts and its chain at the minute, with the valuation time it gives. */
export interface ChainPart {
  listed: ListedFamily['listed'];
  contracts: ListedFamily['contracts'];
  chainRows: ChainQuoteRow[];
  /** The valuation time: the chain minute's end, not after the instant (the instant without a chain). */
  valuedAt: number;
  /**
   * The digest of the chain rows, in their order: with the valuation time and the family's data
   * unchanged before it, it determines the rest of the book's inputs (ensureBook's reuse).
   */
  chainDigest: string;
}

/** The family's listed contracts and its chain at the window's instant (the first reads of readInputs). */
export async function readChain(ctx: ServiceContext, window: ValuationWindow): Promise<ChainPart> {
  const { roots, tradingDate, span, instant } = window;
  const { listed, contracts } = await listedOf(ctx, roots, tradingDate);
  ctx.stamp?.('book-listed');
  const chosen = expirationsByDate(listed).filter((e) => e.settlement > instant);
  const chainRows = chosen.length === 0 ? [] : await chainAt(ctx, chosen, tradingDate, span, instant);
  ctx.stamp?.('book-chain');
  const minute = chainMinute(chainRows.map((r) => r.minute));
  const valuedAt = minute === null ? instant : chainValuationTime(minute, instant);
  const chainDigest = createHash('sha256').update(JSON.stringify(chainRows)).digest('base64url');
  return { listed, contracts, chainRows, valuedAt, chainDigest };
}

/** Reads a family's inputs at the window's instant (module comment) into a book's columns, surfaces not fitted. */
export async function readInputs(ctx: ServiceContext, window: ValuationWindow, session: VolatilitySession): Promise<ReadInputs> {
  return await readRest(ctx, window, session, await readChain(ctx, window));
}

/** The rest of a book's inputs after its chain (readChain): the price, the flows and the activity at the valuation time, laid out as columns. */
export async function readRest(
  ctx: ServiceContext,
  window: ValuationWindow,
  session: VolatilitySession,
  chain: ChainPart,
): Promise<ReadInputs> {
  const { symbol, tradingDate, roots, span } = window;
  const repos = ctx.deps.repositories;
  const { listed, contracts, chainRows, valuedAt } = chain;
  const underlying = contracts[0]?.underlying ?? null;
  const stored = storedOpenInterestDate(contracts);
  const priceRead = underlyingPriceInstant(underlying ?? symbol, valuedAt);
  // The price, and the flows and the activity at the valuation time, at once.
  const [price, prints] =
    underlying === null
      ? [null, { flows: [], activity: [] }]
      : await Promise.all([
          repos.chain.underlyingPriceAt(underlying, priceRead.at, UNDERLYING_LOOKBACK_MS),
          // Flows from the family's open interest date; activity of the prints the session holds (one
          // definition, SESSIONS_OF): while it runs, those before the valuation time.
          repos.positioning.bookPrints(
            roots,
            tradingDate,
            valuedAt,
            { from: stored ?? tradingDate },
            { sessions: SESSIONS_OF[session], whole: valuedAt >= span.end },
            { ask: ASK_SIDES, bid: BID_SIDES },
          ),
        ]);
  ctx.stamp?.('book-prices-prints');
  const flows = flowByContract(prints.flows);
  const activity = new Map(prints.activity.map((a) => [a.contractId, a]));

  const dates = [...new Set(listed.map((e) => e.dateOfExpiry))].sort();
  // Each date's contracts and chain rows in their order, grouped in one pass (not a scan per date).
  const contractsOf = groupBy(contracts, (c) => c.dateOfExpiry);
  const chainOf = groupBy(chainRows, (r) => r.dateOfExpiry);
  const expirations: BookExpirationColumns[] = dates.map((date) => {
    const own = contractsOf.get(date) ?? [];
    const chain = chainOf.get(date) ?? [];
    return {
      dateOfExpiry: date,
      surface: null,
      chain: {
        contractIds: chain.map((r) => r.contractId),
        bid: chain.map((r) => r.bid),
        ask: chain.map((r) => r.ask),
        quoteTs: chain.map((r) => r.quoteTs),
        minute: chain.map((r) => r.minute),
      },
      contracts: {
        ids: own.map((c) => c.contractId),
        roots: own.map((c) => c.root),
        strikeThousandths: own.map((c) => c.strikeThousandths),
        isCall: own.map((c) => c.contractType === 'call'),
        multipliers: own.map((c) => c.multiplier),
        openInterest: own.map((c) => c.openInterest),
        openInterestDates: own.map((c) => c.openInterestDate),
        flowBought: own.map((c) => flows.get(c.contractId)?.bought ?? 0),
        flowSold: own.map((c) => flows.get(c.contractId)?.sold ?? 0),
        volume: own.map((c) => activity.get(c.contractId)?.volume ?? 0),
        premium: own.map((c) => activity.get(c.contractId)?.premium ?? 0),
        netPremium: own.map((c) => activity.get(c.contractId)?.netPremium ?? 0),
        trades: own.map((c) => activity.get(c.contractId)?.trades ?? 0),
      },
    };
  });
  const summary: BookSummary = {
    symbol,
    session,
    tradingDate,
    span,
    roots,
    underlying,
    valuedAt,
    price,
    priceRead,
    rate: riskFreeRate(tradingDate),
    listed,
  };
  const columns = { summary, expirations };
  const digest = createHash('sha256').update(JSON.stringify(columns)).digest('base64url');
  ctx.stamp?.('book-columns');
  return { columns, digest, chainRows, chainDigest: chain.chainDigest };
}

/**
 * Fits the surface of the chosen expirations (those settling after the instant with a chain) into
 * the columns: in the process's valuation threads when it has them (valuation-pool.ts, the
 * account's turn), else here; the same function either way.
 */
export async function fitSurfaces(ctx: ServiceContext, inputs: ReadInputs, instant: number): Promise<void> {
  const { summary, expirations } = inputs.columns;
  if (inputs.chainRows.length === 0) return;
  const chosen = expirationsByDate(summary.listed).filter((e) => e.settlement > instant);
  const input: SurfaceInput = {
    spot: summary.price?.price ?? null,
    rate: summary.rate,
    expirations: chosen.map((e) => expirationChain(e, rowsOf(inputs.chainRows, e), summary.valuedAt)),
  };
  const texts = ((await inThreads(ctx, 'fit', input)) as string[] | undefined) ?? surfaceTexts(input);
  ctx.stamp?.('book-fit');
  const byDate = new Map(chosen.map((e, i) => [e.dateOfExpiry, texts[i] as string]));
  for (const e of expirations) {
    const fitted = byDate.get(e.dateOfExpiry);
    if (fitted !== undefined) e.surface = fitted;
  }
}

/**
 * Runs a task of valuation-tasks.ts in the process's valuation threads, on the turn of the
 * request's account (fair-queue.ts; the process's own work, the book valuer's, shares one turn);
 * undefined when the process has none running (the caller computes it here).
 */
export async function inThreads(ctx: ServiceContext, name: 'fit' | 'answer', input: unknown): Promise<unknown> {
  const pool = ctx.deps.valuation ?? null;
  if (pool === null || !(await pool.ready())) return undefined;
  return await pool.run(ctx.account === null ? 'service' : `account:${ctx.account.id}`, name, input);
}
