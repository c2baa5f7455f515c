/** What the stream hub streams: a load's prints or futures trades, or a replay step (hub.ts). */
import type { PrintSelection } from '../db/print-events.js';

/** A batch of prints to stream: one load of a date, or one step of a replay. */
export interface PrintsEvent {
  tradingDate: string;
  selection: PrintSelection;
  replay: boolean;
  /** The load's commit (a replay: the replayed instant), Unix ms. */
  at: number;
  /** A load's name, the same on every worker (its transaction and date); null for a replay step. */
  id: string | null;
  /** The rows the load wrote for the date (a load's notification says). */
  rows?: number;
  /** Prints stored by earlier loads that the load cancelled (a load's notification says). */
  cancelled?: number;
  /** A futures trades load (futures-trades.ts): streamed to the futures_trades subscriptions only. */
  futures?: boolean;
}
