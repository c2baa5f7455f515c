#!/usr/bin/env node
/**
 * oads-mcp: the service's MCP server for clients that speak MCP over stdio only, or that cannot
 * send an Authorization header to a remote server.
 *
 * The MCP authorization specification leaves the stdio transport out of its HTTP flow: a stdio
 * server "SHOULD NOT follow this specification, and instead retrieve credentials from the
 * environment", and an HTTP request carries its credential in the Authorization header, never in
 * the URL's query string (where logs and proxies keep it). So the key is not accepted in a URL;
 * this bridge is the way in for such clients. It reads the key from OADS_API_KEY, and forwards each
 * JSON-RPC message read from stdin (one per line, the stdio transport's framing) to the service's
 * Streamable HTTP endpoint (`<OADS_BASE_URL>/v1/mcp`) with `Authorization: Bearer <key>`, writing
 * each answer to stdout as one line. It keeps no state of its own: the endpoint is stateless, and
 * every tool, limit, entitlement and error is the service's.
 *
 *   OADS_API_KEY=oads_… OADS_BASE_URL=https://api.example.com npx oads-mcp
 *
 * An answer that is not JSON-RPC (the service refused the HTTP request: 401 bad key, 429 limits,
 * 503 unavailable) becomes a JSON-RPC error of the request it answers: code -32001 for 401/403,
 * -32000 otherwise, `data` holding the HTTP status, the service's error body and Retry-After. A
 * notification's refusal is written to stderr. Messages are forwarded one at a time, in order.
 * Exit codes: 0 when stdin ends, 2 when OADS_API_KEY is missing or OADS_BASE_URL is not a URL.
 */
import { createInterface } from 'node:readline';

const key = (process.env.OADS_API_KEY ?? '').trim();
const base = (process.env.OADS_BASE_URL ?? 'http://127.0.0.1:8080').trim();
let endpoint;
try {
  endpoint = new URL('/v1/mcp', base.endsWith('/') ? base : `${base}/`);
} catch {
  process.stderr.write(`oads-mcp: OADS_BASE_URL is not a URL: ${base}\n`);
  process.exit(2);
}
if (key === '') {
  process.stderr.write('oads-mcp: set OADS_API_KEY to the API key the MCP requests are made with\n');
  process.exit(2);
}

/** The protocol version the initialize answer chose, sent on every later request as the transport asks. */
let protocolVersion = null;

function write(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** The ids of the requests in a message (a batch may hold several); notifications and answers have none. */
function requestIds(message) {
  const list = Array.isArray(message) ? message : [message];
  return list.filter((m) => m && typeof m === 'object' && 'method' in m && 'id' in m && m.id !== null).map((m) => m.id);
}

/** The JSON-RPC messages of a Streamable HTTP answer: a JSON body, or the data lines of an event stream. */
function messagesOf(contentType, text) {
  if (text.trim() === '') return [];
  if (contentType.includes('text/event-stream')) {
    return text
      .split(/\r?\n\r?\n/)
      .map((event) =>
        event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n'),
      )
      .filter((data) => data !== '')
      .map((data) => JSON.parse(data));
  }
  return [JSON.parse(text)];
}

async function forward(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line of stdin is not JSON' } });
    return;
  }
  const ids = requestIds(message);
  const headers = {
    Authorization: `Bearer ${key}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  if (protocolVersion !== null) headers['MCP-Protocol-Version'] = protocolVersion;
  let response;
  let text;
  try {
    response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(message) });
    text = await response.text();
  } catch (error) {
    const reason = `the service at ${endpoint.origin} did not answer: ${error instanceof Error ? error.message : String(error)}`;
    for (const id of ids) write({ jsonrpc: '2.0', id, error: { code: -32000, message: reason } });
    if (ids.length === 0) process.stderr.write(`oads-mcp: ${reason}\n`);
    return;
  }
  const contentType = response.headers.get('content-type') ?? '';
  let answers = null;
  try {
    answers = messagesOf(contentType, text);
  } catch {
    answers = null;
  }
  const rpc = answers !== null && answers.every((a) => a && typeof a === 'object' && (a.jsonrpc === '2.0' || Array.isArray(a)));
  if (response.ok && rpc) {
    for (const answer of answers) {
      const version = answer?.result?.protocolVersion;
      if (typeof version === 'string') protocolVersion = version;
      write(answer);
    }
    return;
  }
  if (rpc && answers.length > 0) {
    for (const answer of answers) write(answer);
    return;
  }
  // The HTTP request itself was refused: the service's error body, as a JSON-RPC error of each request.
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: passed on as text
  }
  const apiMessage = body && typeof body === 'object' && body.error && typeof body.error.message === 'string' ? body.error.message : text;
  const data = { status: response.status, body };
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null) data.retry_after = retryAfter;
  const code = response.status === 401 || response.status === 403 ? -32001 : -32000;
  for (const id of ids) write({ jsonrpc: '2.0', id, error: { code, message: `HTTP ${response.status}: ${apiMessage}`, data } });
  if (ids.length === 0) process.stderr.write(`oads-mcp: HTTP ${response.status}: ${apiMessage}\n`);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on('line', (line) => {
  if (line.trim() === '') return;
  queue = queue.then(() => forward(line));
});
lines.on('close', () => {
  void queue.then(() => process.exit(0));
});
