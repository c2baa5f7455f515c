/**
 * A session's futures trades in the retention's archive (archive.ts): written beside its prints and
 * quotes as `futures_trades.csv.gz` in the canonical futures_trades layout, in key order (contract,
 * sequence, match) so that the file read back gives each trade its own match again, with its trade
 * date; loaded back through the ordinary futures loader when the session is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Database } from '../db/connection.js';
import { futuresTradeDates, futuresTradesOfDate } from '../db/futures-trades.js';
import { loadFuturesTradesFile } from './futures.js';

const PAGE = 50_000;
export const FUTURES_TRADES_ARCHIVE = 'futures_trades.csv.gz';
const HEADER = 'symbol,timestamp,sequence,price,size,aggressor_side,trade_date';

/** Writes a trade date's futures trades to `dir` when the store holds any; returns the count (0: no file). */
export async function exportFuturesTrades(db: Database, tradeDate: string, dir: string): Promise<number> {
  if (!(await futuresTradeDates(db)).includes(tradeDate)) return 0;
  let count = 0;
  const file = path.join(dir, FUTURES_TRADES_ARCHIVE);
  const partial = `${file}.partial`;
  await pipeline(
    Readable.from(
      (async function* () {
        yield `${HEADER}\n`;
        let after: Parameters<typeof futuresTradesOfDate>[2] = null;
        for (;;) {
          const page = await futuresTradesOfDate(db, tradeDate, after, PAGE);
          if (page.length === 0) return;
          let chunk = '';
          for (const t of page) {
            chunk += `${t.symbol},${t.ts},${t.sequence},${t.price},${t.size},${t.aggressorSide ?? ''},${t.tradeDate}\n`;
            count += 1;
          }
          yield chunk;
          const last = page[page.length - 1]!;
          after = { contractId: last.contractId, sequence: last.sequence, match: last.match };
        }
      })(),
    ),
    createGzip(),
    fs.createWriteStream(partial),
  );
  fs.renameSync(partial, file);
  return count;
}

/** Loads an archived session's futures trades back, when its folder has them. */
export async function reloadFuturesTrades(db: Database, dir: string, log?: (line: string) => void): Promise<void> {
  const file = path.join(dir, FUTURES_TRADES_ARCHIVE);
  if (fs.existsSync(file)) await loadFuturesTradesFile(db, file, { force: true, log });
}
