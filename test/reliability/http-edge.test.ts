/**
 * The HTTP edge (issue #20, section 3): a JSON body in another charset is a 400, not a 500; a
 * user-given name echoed in an error is cut, not sent back whole (twice); and the errors node's
 * HTTP server answers before express (431 for oversize headers, 400 for a request that is not HTTP)
 * carry the JSON error body, written by the 'clientError' listener of src/middleware/client-errors.ts:
 * on the service (server.ts wires it) and, for each kind of client error, on a plain node server.
 */
import http from 'node:http';
import net from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiContract } from '../../src/api-contract/openapi.js';
import { ECHO_MAX } from '../../src/formats.js';
import { answerClientError } from '../../src/middleware/client-errors.js';
import { startTestService, type TestService } from '../support/service.js';

interface ErrorBody {
  error: { code: string; status: number; message: string; request_id: string; details: { parameter: string; message: string }[] };
}

/** The contract's Error schema, to check bodies written outside express against it. */
function errorSchemaCheck(): (body: unknown) => boolean {
  const document = loadApiContract().document as { components: Record<string, unknown> };
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile({ $ref: '#/components/schemas/ErrorResponse', components: document.components });
  return (body) => validate(body);
}

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
const exchange = (port: number, request: string, host = '127.0.0.1'): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(request);
  });

const parse = (raw: string): { status: number; headers: Record<string, string>; body: unknown } => {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as unknown };
};

describe('the HTTP edge of the service', () => {
  let service: TestService;
  let key = '';

  beforeAll(async () => {
    service = await startTestService({ env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    ({ key } = await service.newAccount({ plan: 'pro' }));
  });
  afterAll(async () => service.stop());

  const call = async (path: string, init: RequestInit = {}): Promise<{ status: number; text: string; body: ErrorBody }> => {
    const r = await fetch(`${service.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
    });
    const text = await r.text();
    return { status: r.status, text, body: JSON.parse(text) as ErrorBody };
  };

  it('answers a JSON body declared in another charset with 400 invalid_body, never 500', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'x-unknown']) {
      const { status, body } = await call('/v1/exports', {
        method: 'POST',
        body: '{"path":"/v1/stocks/splits"}',
        headers: { 'content-type': `application/json; charset=${charset}` },
      });
      expect(`${charset}: ${status} ${body.error.code}`).toBe(`${charset}: 400 invalid_body`);
      expect(body.error.details).toEqual([{ parameter: 'body', message: 'unsupported charset' }]);
    }
    expect(service.errors.filter((line) => line.includes('unhandled error'))).toEqual([]);
  });

  it('cuts a 10 KB unknown parameter name wherever the error echoes it', async () => {
    const name = 'x'.repeat(10 * 1024);
    const { status, text, body } = await call(`/v1/stocks/splits?${name}=1&limit=5`);
    expect(status).toBe(400);
    expect(text.length).toBeLessThan(1000);
    expect(body.error.details).toEqual([{ parameter: `${'x'.repeat(ECHO_MAX - 1)}…`, message: 'unknown parameter' }]);
    expect(body.error.message.length).toBeLessThan(ECHO_MAX + 40);
  });

  it('cuts a name given twice, and one in an export query', async () => {
    // Twice 7 KB: two 10 KB names would pass node's 16 KB header limit (431 before express).
    const name = 'y'.repeat(7 * 1024);
    const twice = await call(`/v1/stocks/splits?${name}=1&${name}=2`);
    expect(twice.status).toBe(400);
    expect(twice.text.length).toBeLessThan(1000);
    expect(twice.body.error.details).toEqual([{ parameter: `${'y'.repeat(ECHO_MAX - 1)}…`, message: 'given more than once' }]);
    const exported = await call('/v1/exports', {
      method: 'POST',
      body: JSON.stringify({ path: '/v1/stocks/splits', query: { [name]: 1 } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(exported.status).toBe(400);
    expect(exported.text.length).toBeLessThan(1000);
    expect(exported.body.error.details).toEqual([{ parameter: `query.${'y'.repeat(ECHO_MAX - 1)}…`, message: 'unknown parameter' }]);
  });

  it('answers oversize headers with 431 and the JSON error body on the service itself (its clientError listener)', async () => {
    const { hostname, port } = new URL(service.url);
    const raw = await exchange(
      Number(port),
      `GET /v1/stocks/splits HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      hostname,
    );
    const { status, headers, body } = parse(raw);
    expect(status).toBe(431);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(body).toMatchObject({
      error: {
        status: 431,
        code: 'invalid_parameter',
        details: [{ parameter: 'headers', message: 'too large' }],
        request_id: headers['x-request-id'],
      },
    });
  });

  it('keeps a message that echoes a long path to a sentence', async () => {
    const { status, text } = await call(`/v1/exports/${'z'.repeat(8 * 1024)}`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(status).toBe(405);
    expect(text.length).toBeLessThan(1000);
  });
});

describe('the errors node answers before express (clientError)', () => {
  let server: http.Server;
  let port = 0;
  const isErrorBody = errorSchemaCheck();

  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers oversize headers with 431 and the JSON error body', async () => {
    const raw = await exchange(port, `GET /v1/status HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    const { status, headers, body } = parse(raw);
    expect(status).toBe(431);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['x-request-id']).toMatch(/^req_/);
    expect(isErrorBody(body)).toBe(true);
    expect(body).toMatchObject({
      error: {
        status: 431,
        code: 'invalid_parameter',
        details: [{ parameter: 'headers', message: 'too large' }],
        request_id: headers['x-request-id'],
      },
    });
  });

  it('answers a request that is not HTTP with 400 and the JSON error body', async () => {
    const { status, headers, body } = parse(await exchange(port, 'NOT HTTP AT ALL\r\n\r\n'));
    expect(status).toBe(400);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(isErrorBody(body)).toBe(true);
    expect(body).toMatchObject({ error: { status: 400, code: 'invalid_parameter' } });
  });

  it('leaves an ordinary request to the server', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/`);
    expect(await r.text()).toBe('ok');
  });
});
