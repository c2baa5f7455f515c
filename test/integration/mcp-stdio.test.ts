/**
 * The SDK's oads-mcp bridge (sdk/typescript/bin/oads-mcp.mjs), run as an MCP client without header
 * support would run it: a child process speaking MCP over stdio, its key taken from the
 * environment, each message forwarded to the service's /v1/mcp with the Authorization header. Its
 * answers are the endpoint's own (tools, tool results, tool errors); a refused HTTP request becomes a
 * JSON-RPC error of the request; a missing key stops it with code 2.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

const BRIDGE = path.resolve('sdk/typescript/bin/oads-mcp.mjs');

interface Answer {
  jsonrpc: string;
  id: number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { status: number; body: unknown; retry_after?: string } };
}

/** Runs the bridge with `env`, writes `messages` one per line, and collects every line it answers until it exits. */
async function bridge(
  env: Record<string, string>,
  messages: unknown[],
): Promise<{ code: number | null; answers: Answer[]; stderr: string }> {
  const child = spawn(process.execPath, [BRIDGE], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers: Answer[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => answers.push(JSON.parse(line) as Answer));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
  child.stdin.end();
  const code = await exited;
  return { code, answers, stderr };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stdio-test', version: '1.0.0' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('oads-mcp, the stdio bridge to /v1/mcp', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await startTestService();
    ({ key } = await service.newAccount({ plan: 'pro' }));
  });
  afterAll(async () => service.stop());

  it("answers over stdio what the endpoint answers: initialize, the tool list, a tool's result and a tool error", async () => {
    const { code, answers, stderr } = await bridge({ OADS_API_KEY: key, OADS_BASE_URL: service.url }, [
      initialize,
      initialized,
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'listMarketSessions', arguments: { date: '2026-11-27' } },
      },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'listMarketSessions', arguments: { date: 'not-a-date' } } },
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // One answer per request, none for the notification, in order.
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    expect(answers[0]!.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: expect.any(String) as unknown } });
    const tools = (answers[1]!.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toContain('listMarketSessions');
    expect(tools).toContain('listOptionTrades');
    // The tool's body is the REST route's.
    const rest = await fetch(`${service.url}/v1/market/sessions?date=2026-11-27`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(rest.status).toBe(200);
    const restBody = (await rest.json()) as { data: unknown };
    const call = answers[2]!.result as { isError?: boolean; structuredContent: { data: unknown } };
    expect(call.isError).toBeFalsy();
    expect(call.structuredContent.data).toEqual(restBody.data);
    // A bad argument is the route's 400, as a tool error naming the parameter.
    const bad = answers[3]!.result as {
      isError: boolean;
      structuredContent: { error: { code: string; details: { parameter: string }[] } };
    };
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.error.details.map((d) => d.parameter)).toContain('date');
  });

  it('turns a refused HTTP request (a wrong key) into a JSON-RPC error of the request, with the status and the API error', async () => {
    const { code, answers } = await bridge({ OADS_API_KEY: 'oads_wrongkey_00000000000000000000000000000000', OADS_BASE_URL: service.url }, [
      initialize,
      initialized,
    ]);
    expect(code).toBe(0);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: 1, error: { code: -32001, data: { status: 401 } } });
    expect(answers[0]!.error!.message).toMatch(/^HTTP 401: /);
    expect((answers[0]!.error!.data!.body as { error: { code: string } }).error.code).toBe('unauthorized');
  });

  it('stops with code 2 and says why when OADS_API_KEY is missing', async () => {
    const { code, answers, stderr } = await bridge({ OADS_BASE_URL: service.url }, [initialize]);
    expect(code).toBe(2);
    expect(answers).toEqual([]);
    expect(stderr).toMatch(/OADS_API_KEY/);
  });
});
