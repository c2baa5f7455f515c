/**
 * The clients of bench/stream, in a process of their own: CONNECTIONS WebSocket connections, each
 * subscribed to the whole market's prints, and one bare PostgreSQL LISTEN client (the baseline: how
 * long the load's notification itself takes to arrive). Each message's delay is its arrival less
 * the load's commit (loaded_at). On stdin's end it writes a JSON summary and exits.
 */
import pg from 'pg';
import WebSocket from 'ws';

const [url = '', key = '', databaseUrl = '', connectionsText = '200'] = process.argv.slice(2);
const CONNECTIONS = Number(connectionsText);
const keys = key.split(',');
/** [delay ms, prints] per message. */
const streamDelays: [number, number][] = [];
const listenDelays: [number, number][] = [];
const printsPerConnection: number[] = Array.from({ length: CONNECTIONS }, () => 0);
/** Messages whose seq did not follow the previous one's. */
let seqGaps = 0;
let closed = 0;

/** Prints in a message's data: each body has one `"id":"` key (group_id's is `_id":"`). */
function countPrints(text: string, from: number): number {
  let n = 0;
  for (let at = text.indexOf('"id":"', from); at >= 0; at = text.indexOf('"id":"', at + 6)) {
    const before = text[at - 1];
    if (before === '{' || before === ',') n += 1;
  }
  return n;
}

async function open(i: number): Promise<void> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, { headers: { authorization: `Bearer ${keys[Math.floor(i / 20) % keys.length] ?? ''}` } });
  let lastSeq = 0;
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (raw: Buffer) => {
      // The head is parsed (up to the data); the prints are counted, not parsed: one process reads
      // what 200 connections receive.
      const text = raw.toString('utf8');
      const dataAt = text.indexOf(',"data":[');
      const m = JSON.parse(dataAt < 0 ? text : `${text.slice(0, dataAt)}}`) as { seq: number; type: string; loaded_at?: number; data?: unknown[] };
      if (dataAt >= 0) m.data = Array.from({ length: countPrints(text, dataAt) });
      if (m.seq !== lastSeq + 1) seqGaps += 1;
      lastSeq = m.seq;
      if (m.type === 'subscribed') resolve();
      if (m.type === 'prints' && m.data) {
        streamDelays.push([Date.now() - (m.loaded_at ?? 0), m.data.length]);
        printsPerConnection[i] = (printsPerConnection[i] ?? 0) + m.data.length;
      }
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', channel: 'prints', params: { session: 'all' } })));
    ws.on('close', () => (closed += 1));
    ws.on('error', reject);
  });
}

const listener = new pg.Client({ connectionString: databaseUrl });
await listener.connect();
listener.on('notification', (n) => {
  const payload = JSON.parse(n.payload ?? '{}') as { loaded_at: number; rows: number };
  listenDelays.push([Date.now() - payload.loaded_at, payload.rows]);
});
await listener.query('listen oads_prints');
// In tens; 20 connections per account (the spec's connection window), so CONNECTIONS / 20 accounts.
for (let i = 0; i < CONNECTIONS; i += 10) await Promise.all(Array.from({ length: Math.min(10, CONNECTIONS - i) }, (_, j) => open(i + j)));
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void listener.end();
  // Exits once the summary is written: a pipe's write completes later.
  process.stdout.write(`${JSON.stringify({ streamDelays, listenDelays, printsPerConnection, seqGaps, closed })}\n`, () => process.exit(0));
});
