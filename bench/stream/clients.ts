/**
 * One process of bench/stream's clients: the connections FROM to TO (exclusive) of the run's
 * WebSocket connections, each subscribed to the whole market's prints, and a bare PostgreSQL LISTEN
 * client of the loads' notifications in the same process. With FROM = TO it is the baseline process:
 * the LISTEN client alone, in a process that does nothing else. Each message's delay is its arrival
 * (this machine's clock, taken on the read that brought the message's last byte) less the load's
 * commit (`loaded_at`, PostgreSQL's clock_timestamp() on the same machine, taken as the load's last
 * statement before its commit). On stdin's end it writes a JSON summary and exits.
 *
 * What every connection does with every message: parses its head (the JSON up to `"data":[`) for
 * seq, type and loaded_at; counts a sequence gap when seq is not the previous one plus one; and
 * counts the message's prints: each body of the data array is an OptionPrint object, which has no
 * object inside it and whose first key is `ask` (the contract's field order), so a print is an
 * opening brace followed by `"ask":` (found with a byte search). By default (BENCH_CLIENT=lean)
 * each connection is a LeanSocket (lean-socket.ts): a plain TCP WebSocket client that reads the
 * frames from one reused buffer and counts the prints as the bytes arrive (frames.ts), without
 * keeping a copy of a message; BENCH_CLIENT=ws reads with the `ws` library instead, each message
 * whole. Before connecting, a lean process warms its reading code up on a sample message.
 *
 * The checking process (BENCH_CHECKING_HERE=1: the runner starts one, with its connections only)
 * reads with `ws` and also JSON-parses every message whole (CHECK_AFTER_MS after its arrival, so
 * that the parsing does not compete with the delivery being measured) and checks each print: an object with
 * exactly the contract's OptionPrint fields, in that order, a string id not seen before on the
 * connection, timestamps non-decreasing within a message, and the message's count of prints by
 * the byte search equal to its data array's length. Every connection's count must equal every
 * other's (the runner checks), so the lean counts are checked against the parsed ones. Any failed
 * check is counted and reported; the bench fails on one.
 *
 * BENCH_FORMAT=compact subscribes with the compact format (each print the array of its values, in
 * the order of the message's `fields`): a print is then counted as an opening bracket followed by
 * neither a quote nor a closing bracket (its first value, ask, is a number or null; its one array
 * value, flags, holds strings), and the checking connection checks each print as above, rebuilt
 * from the fields and values. BENCH_DEFLATE=1 offers permessage-deflate on the `ws` connections
 * (the lean ones never do), as browsers and the `ws` client do by default; 0 (the default) offers
 * nothing.
 */
import pg from 'pg';
import WebSocket from 'ws';
import { countMessagePrints, DATA, FrameReader, samplePrintsMessage, serverFrame } from './frames.js';
import { LeanSocket, READ_BUFFER_BYTES } from './lean-socket.js';

const [url = '', keysText = '', databaseUrl = '', fromText = '0', toText = '0', fieldsText = ''] = process.argv.slice(2);
const FROM = Number(fromText);
const TO = Number(toText);
const keys = keysText.split(',');
/** The contract's OptionPrint fields, in order (from the runner, read from the contract). */
const FIELDS = fieldsText.split(',');
const DEFLATE = process.env.BENCH_DEFLATE === '1';
const COMPACT = process.env.BENCH_FORMAT === 'compact';
/** lean (the default): every connection but the checking ones is a LeanSocket; ws: every connection uses the `ws` library. */
const LEAN = (process.env.BENCH_CLIENT ?? 'lean') === 'lean';
/** Whether this process's connections are checking ones (the runner's checking process: its connections only). */
const CHECKING = process.env.BENCH_CHECKING_HERE === '1';
/** Connections per account (the spec's connection window: 20 per account per ten minutes). */
const PER_ACCOUNT = 20;
/** [delay ms, prints, the load's loaded_at] per message; the LISTEN client's [delay ms, rows, loaded_at] per load. */
const streamDelays: [number, number, number][] = [];
const listenDelays: [number, number, number][] = [];
const printsPerConnection: number[] = Array.from({ length: TO - FROM }, () => 0);
/** Messages whose seq did not follow the previous one's. */
let seqGaps = 0;
let closed = 0;
/** Checks failed on the checking connections (bad body, duplicate id, count mismatch...). */
let bodyErrors = 0;
/** How long after its arrival the checking connection checks a message (loads come a second apart; a delivery takes under 200 ms). */
const CHECK_AFTER_MS = 400;
/** Messages received and not yet checked. */
let pendingChecks = 0;
/** Prints JSON-parsed and checked by this process's checking connection. */
let printsChecked = 0;
/** Per load (its loaded_at): the latest arrival's delay over this process's connections. */
const lastByLoad = new Map<number, number>();
let cpuAtReady = process.cpuUsage();

/** Connection i received a prints message of `n` prints of the load committed at `loadedAt`, at `at`. */
function received(i: number, loadedAt: number, n: number, at: number): void {
  const delay = at - loadedAt;
  streamDelays.push([delay, n, loadedAt]);
  lastByLoad.set(loadedAt, Math.max(lastByLoad.get(loadedAt) ?? 0, delay));
  printsPerConnection[i - FROM] = (printsPerConnection[i - FROM] ?? 0) + n;
}

/** A connection on a LeanSocket (frames.ts reads its messages: the head parsed, the prints counted as their bytes arrive). */
async function openLean(i: number): Promise<void> {
  const key = keys[Math.floor(i / PER_ACCOUNT) % keys.length] ?? '';
  let lastSeq = 0;
  await new Promise<void>((resolve, reject) => {
    new LeanSocket(`${url}/v1/stream`, `Bearer ${key}`, COMPACT, {
      opened: (socket) =>
        socket.send(
          JSON.stringify({ type: 'subscribe', channel: 'prints', params: { session: 'all' }, ...(COMPACT ? { format: 'compact' } : {}) }),
        ),
      message: (m, at) => {
        if (m.seq !== lastSeq + 1) seqGaps += 1;
        lastSeq = m.seq;
        if (m.type === 'subscribed') resolve();
        if (m.type === 'prints' && m.data) received(i, m.loadedAt ?? 0, m.prints, at);
      },
      closed: (reason) => {
        closed += 1;
        reject(new Error(`connection ${i}: ${reason}`));
      },
    });
  });
}

/** The checking connection's checks of one prints message; returns the number of problems. */
function checkPrints(raw: Buffer, counted: number, seen: Set<string>): number {
  let problems = 0;
  const message = JSON.parse(raw.toString('utf8')) as { data?: unknown; fields?: unknown };
  if (!Array.isArray(message.data)) return 1;
  let data = message.data as unknown[];
  if (COMPACT) {
    const fields = message.fields;
    if (!Array.isArray(fields) || fields.join() !== FIELDS.join()) return 1;
    data = data.map((values) =>
      Array.isArray(values) && values.length === fields.length ? Object.fromEntries(fields.map((f: string, i) => [f, values[i]])) : null,
    );
  }
  if (data.length !== counted) problems += 1;
  let lastTs = -Infinity;
  for (const print of data as (Record<string, unknown> | null)[]) {
    if (print === null) {
      problems += 1;
      continue;
    }
    const keysOf = typeof print === 'object' ? Object.keys(print) : [];
    if (keysOf.length !== FIELDS.length || keysOf.some((k, i) => k !== FIELDS[i])) problems += 1;
    const id = print.id;
    if (typeof id !== 'string' || seen.has(id)) problems += 1;
    else seen.add(id);
    const ts = print.timestamp;
    if (typeof ts !== 'number' || ts < lastTs) problems += 1;
    else lastTs = ts;
  }
  printsChecked += data.length;
  return problems;
}

/** A connection on the `ws` library (the checking connections, and every connection with BENCH_CLIENT=ws). */
async function openWs(i: number): Promise<void> {
  const key = keys[Math.floor(i / PER_ACCOUNT) % keys.length] ?? '';
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/stream`, {
    headers: { authorization: `Bearer ${key}` },
    skipUTF8Validation: true,
    perMessageDeflate: DEFLATE,
  });
  const checking = CHECKING;
  const seen = new Set<string>();
  let lastSeq = 0;
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (raw: Buffer) => {
      const at = Date.now();
      const dataAt = raw.indexOf(DATA);
      const m = JSON.parse(dataAt < 0 ? raw.toString('utf8') : `${raw.toString('utf8', 0, dataAt)}}`) as {
        seq: number;
        type: string;
        loaded_at?: number;
      };
      if (m.seq !== lastSeq + 1) seqGaps += 1;
      lastSeq = m.seq;
      if (m.type === 'subscribed') resolve();
      if (m.type === 'prints' && dataAt >= 0) {
        const n = countMessagePrints(raw, dataAt, COMPACT);
        received(i, m.loaded_at ?? 0, n, at);
        if (checking) {
          // Checked once the delivery it arrived in is over: the parsing does not take the CPU the delivery being measured needs.
          pendingChecks += 1;
          setTimeout(() => {
            bodyErrors += checkPrints(raw, n, seen);
            pendingChecks -= 1;
          }, CHECK_AFTER_MS);
        }
      }
    });
    ws.on('open', () =>
      ws.send(
        JSON.stringify({ type: 'subscribe', channel: 'prints', params: { session: 'all' }, ...(COMPACT ? { format: 'compact' } : {}) }),
      ),
    );
    ws.on('close', () => (closed += 1));
    ws.on('error', reject);
  });
}

/**
 * Warms this process's reading code up before it connects (V8 optimises a function once it has run
 * for a while; cold, the first load's reading took twice its later CPU, on the cores the service
 * shares): a sample message of a load's size (frames.ts) read 50 times in pieces of the lean
 * sockets' read size, each time counted whole. Nothing of the service is warmed.
 */
function warmUp(): void {
  const frame = serverFrame(1, samplePrintsMessage(1, FIELDS, 1000, COMPACT));
  let counted = 0;
  const reader = new FrameReader(COMPACT, {
    message: (m) => (counted += m.prints),
    control: () => undefined,
    failed: (reason) => {
      throw new Error(`warm-up: ${reason}`);
    },
  });
  for (let k = 0; k < 50; k += 1)
    for (let at = 0; at < frame.length; at += READ_BUFFER_BYTES) reader.feed(frame, at, Math.min(frame.length, at + READ_BUFFER_BYTES), 0);
  if (counted !== 50 * 1000) throw new Error(`warm-up: counted ${counted} prints of 50,000`);
}

if (LEAN) warmUp();
const listener = new pg.Client({ connectionString: databaseUrl });
await listener.connect();
listener.on('notification', (n) => {
  const received = Date.now();
  const payload = JSON.parse(n.payload ?? '{}') as { loaded_at: number; rows: number };
  listenDelays.push([received - payload.loaded_at, payload.rows, payload.loaded_at]);
});
await listener.query('listen oads_prints');
// In tens, so that the upgrades do not all arrive at once.
for (let i = FROM; i < TO; i += 10)
  await Promise.all(Array.from({ length: Math.min(10, TO - i) }, (_, j) => (LEAN && !CHECKING ? openLean(i + j) : openWs(i + j))));
cpuAtReady = process.cpuUsage();
process.stdout.write('ready\n');
process.stdin.resume();
process.stdin.on('end', async () => {
  while (pendingChecks > 0) await new Promise((r) => setTimeout(r, 50));
  void listener.end();
  const cpu = process.cpuUsage(cpuAtReady);
  // Exits once the summary is written: a pipe's write completes later.
  process.stdout.write(
    `${JSON.stringify({ streamDelays, listenDelays, printsPerConnection, seqGaps, closed, bodyErrors, printsChecked, cpuMs: (cpu.user + cpu.system) / 1000, lastByLoad: [...lastByLoad] })}\n`,
    () => process.exit(0),
  );
});
