/**
 * One process of bench/stream's clients: the connections FROM to TO (exclusive) of the run's
 * WebSocket connections, each subscribed to the whole market's prints, and a bare PostgreSQL LISTEN
 * client of the loads' notifications in the same process. With FROM = TO it is the baseline process:
 * the LISTEN client alone, in a process that does nothing else. Each message's delay is its arrival
 * (this machine's clock) less the load's commit (`loaded_at`, PostgreSQL's clock_timestamp() on the
 * same machine, taken as the load's last statement before its commit). On stdin's end it writes a
 * JSON summary and exits.
 */
import pg from 'pg';
import WebSocket from 'ws';

const [url = '', keysText = '', databaseUrl = '', fromText = '0', toText = '0'] = process.argv.slice(2);
const FROM = Number(fromText);
const TO = Number(toText);
const keys = keysText.split(',');
/** Connections per account (the spec's connection window: 20 per account per ten minutes). */
const PER_ACCOUNT = 20;
/** [delay ms, prints] per message. */
const streamDelays: [number, number][] = [];
const listenDelays: [number, number][] = [];
const printsPerConnection: number[] = Array.from({ length: TO - FROM }, () => 0);
/** Messages whose seq did not follow the previous one's. */
let seqGaps = 0;
let closed = 0;

const DATA = Buffer.from(',"data":[');
const ID = Buffer.from('"id":"');
const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;

/** Prints in a message's data: each body has one `"id":"` key right after `{` or `,` (group_id's is `_id":"`). */
function countPrints(raw: Buffer, from: number): number {
  let n = 0;
  for (let at = raw.indexOf(ID, from); at >= 0; at = raw.indexOf(ID, at + ID.length)) {
    const before = raw[at - 1];
    if (before === OPEN_BRACE || before === COMMA) n += 1;
  }
  return n;
}

async function open(i: number): Promise<void> {
  const key = keys[Math.floor(i / PER_ACCOUNT) % keys.length] ?? '';
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, { headers: { authorization: `Bearer ${key}` }, skipUTF8Validation: true, perMessageDeflate: false });
  let lastSeq = 0;
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (raw: Buffer) => {
      const received = Date.now();
      // The head is parsed (up to the data); the prints are counted, not parsed.
      const dataAt = raw.indexOf(DATA);
      const m = JSON.parse(dataAt < 0 ? raw.toString('utf8') : `${raw.toString('utf8', 0, dataAt)}}`) as { seq: number; type: string; loaded_at?: number };
      if (m.seq !== lastSeq + 1) seqGaps += 1;
      lastSeq = m.seq;
      if (m.type === 'subscribed') resolve();
      if (m.type === 'prints' && dataAt >= 0) {
        const n = countPrints(raw, dataAt);
        streamDelays.push([received - (m.loaded_at ?? 0), n]);
        printsPerConnection[i - FROM] = (printsPerConnection[i - FROM] ?? 0) + n;
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
  const received = Date.now();
  const payload = JSON.parse(n.payload ?? '{}') as { loaded_at: number; rows: number };
  listenDelays.push([received - payload.loaded_at, payload.rows]);
});
await listener.query('listen oads_prints');
// In tens, so that the upgrades do not all arrive at once.
for (let i = FROM; i < TO; i += 10) await Promise.all(Array.from({ length: Math.min(10, TO - i) }, (_, j) => open(i + j)));
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void listener.end();
  // Exits once the summary is written: a pipe's write completes later.
  process.stdout.write(`${JSON.stringify({ streamDelays, listenDelays, printsPerConnection, seqGaps, closed })}\n`, () => process.exit(0));
});
