/**
 * What the hub writes into its messages, apart from the streams themselves: the prints channel's
 * compact format (each print the array of its values, in the order of the contract's OptionPrint
 * fields, named once per message), batches of bodies that keep each message under the stated size,
 * and the premium_drift and levels snapshots sent as what changed since a subscription's last.
 */
import type { ApiContract } from '../api-contract/openapi.js';
import type { Subscription } from './stream.js';

/** The contract's OptionPrint fields in the order of its bodies: the compact format's `fields` (names, and their JSON). */
export interface PrintFields {
  names: readonly string[];
  text: string;
}

export function printFieldsOf(contract: Pick<ApiContract, 'document'>): PrintFields {
  const schemas = (contract.document.components as { schemas?: Record<string, { properties?: Record<string, unknown> }> } | undefined)
    ?.schemas;
  const names = Object.keys(schemas?.OptionPrint?.properties ?? {});
  return { names, text: JSON.stringify(names) };
}

/** A print's body as the compact format sends it: its values, in the order of `fields`. */
export function compactPrint(fields: PrintFields, body: string): string {
  const print = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify(fields.names.map((name) => print[name] ?? null));
}

/** Bodies joined by commas, in batches that keep each message (with 512 bytes of head) under `maxMessageBytes`. */
export function batches(bodies: readonly string[], maxMessageBytes: number): string[] {
  const budget = maxMessageBytes - 512;
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const body of bodies) {
    if (current.length > 0 && size + body.length + 1 > budget) {
      out.push(current.join(','));
      current = [];
      size = 0;
    }
    current.push(body);
    size += body.length + 1;
  }
  if (current.length > 0) out.push(current.join(','));
  return out;
}

/**
 * Sends a premium_drift subscription the buckets that differ from those it was last sent: of the
 * live drift, or (`replay`) of the replayed one, each remembered apart.
 */
export function sendDrift(sub: Subscription, buckets: ReadonlyArray<{ timestamp: number }>, replay = false): void {
  let last: Map<number, string>;
  if (replay) last = sub.replayLast ??= new Map<number, string>();
  else {
    last = sub.last instanceof Map ? sub.last : new Map<number, string>();
    sub.last = last;
  }
  const changed: string[] = [];
  for (const bucket of buckets) {
    const text = JSON.stringify(bucket);
    if (last.get(bucket.timestamp) !== text) {
      last.set(bucket.timestamp, text);
      changed.push(text);
    }
  }
  if (changed.length === 0 || !sub.stream.subscriptions.has(sub.id)) return;
  sub.stream.send(
    `"type":"premium_drift","channel":"premium_drift","subscription":${JSON.stringify(sub.id)},"replay":${replay},"data":[${changed.join(',')}]}`,
  );
}

/** Sends a levels subscription its snapshot when it changed, or in any case when `always` (the cadence). */
export function sendLevels(sub: Subscription, data: { levels: unknown; trading_date: string }, always: boolean): void {
  const levels = JSON.stringify(data.levels);
  if (!always && sub.last === levels) return;
  sub.last = levels;
  if (!sub.stream.subscriptions.has(sub.id)) return;
  sub.stream.send(
    `"type":"levels","channel":"levels","subscription":${JSON.stringify(sub.id)},"replay":false,"data":${JSON.stringify(data)}}`,
  );
}
