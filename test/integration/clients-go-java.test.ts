/**
 * One real call per language from clients generated as a new integrator would, from the document a
 * started service serves at /v1/openapi.json: oapi-codegen's Go client and openapi-generator's
 * Java native client (both pinned, installed by scripts/generator-tools), each running the small
 * program in test/fixtures/clients: a trades page filtered by a list (side=ask,above_ask), then the
 * next page by its cursor. The ids they print are compared with the store.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionPrint as Print } from '../../generated/client/types.gen.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const exec = promisify(execFile);
const DAY = '2026-11-20';
const ASK_SIDE = ['at_ask', 'near_ask', 'above_ask'];
const FIXTURES = path.resolve('test/fixtures/clients');

async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout } = await exec(command, args, { ...options, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string; message?: string }) => {
      throw new Error(
        `${command} ${args.join(' ')} failed:\n${error.message ?? ''}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`.slice(0, 8000),
      );
    },
  );
  return stdout;
}

describe('Go and Java clients generated from the served contract', () => {
  let service: TestService;
  let dir: string;
  let contract: string;
  let tools: { oapiCodegen: string; jar: string };
  let expected: string[];
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    service = await startTestService({ market: { dates: [DAY] }, clock: () => MARKET_NOW });
    const prints = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Print);
    const newestFirst = (a: Print, b: Print): number =>
      b.timestamp - a.timestamp || Number(b.id.split(':').at(-1)) - Number(a.id.split(':').at(-1));
    expected = prints
      .filter((p) => p.session !== 'gth' && p.underlying_symbol === 'SPY' && ASK_SIDE.includes(p.side))
      .sort(newestFirst)
      .slice(0, 50)
      .map((p) => p.id);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-clients-'));
    contract = path.join(dir, 'openapi.json');
    fs.writeFileSync(contract, await (await fetch(`${service.url}/v1/openapi.json`)).text());
    const paths = await run('bash', ['scripts/generator-tools'], { cwd: process.cwd() });
    tools = {
      oapiCodegen: /^OAPI_CODEGEN=(.*)$/m.exec(paths)?.[1] ?? '',
      jar: /^OPENAPI_GENERATOR_JAR=(.*)$/m.exec(paths)?.[1] ?? '',
    };
    const { key } = await service.newAccount({ plan: 'pro' });
    env = { ...process.env, OADS_BASE_URL: service.url, OADS_API_KEY: key, OADS_DATE: DAY };
  }, 300_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await service.stop();
  });

  it('answers a request that asks Upgrade: h2c (Java HttpClient does by default) as plain HTTP/1.1', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${service.url}/v1/status`, {
        headers: { Connection: 'Upgrade, HTTP2-Settings', Upgrade: 'h2c', 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA' },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('upgrade', () => reject(new Error('the server upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { data: { status: string } }).data.status).toBeTypeOf('string');
  });

  it('Go (oapi-codegen): a filtered trades page, then the next by its cursor', async () => {
    const go = path.join(dir, 'go');
    fs.mkdirSync(go);
    await run(tools.oapiCodegen, ['-generate', 'types,client', '-package', 'main', '-o', 'oads.gen.go', contract], { cwd: go });
    fs.copyFileSync(path.join(FIXTURES, 'go-trades.go.txt'), path.join(go, 'main.go'));
    fs.writeFileSync(path.join(go, 'go.mod'), 'module example.invalid/oads\n\ngo 1.22\n');
    await run('go', ['mod', 'tidy'], { cwd: go });
    const out = JSON.parse(await run('go', ['run', '.'], { cwd: go, env })) as { ids: string[]; pages: number };
    expect(out.pages).toBe(2);
    expect(out.ids).toEqual(expected);
  }, 300_000);

  it('Java (openapi-generator, native): a filtered trades page, then the next by its cursor', async () => {
    const java = path.join(dir, 'java');
    await run('java', ['-jar', tools.jar, 'generate', '-i', contract, '-g', 'java', '--library', 'native', '-o', java], { cwd: dir });
    const classpath = path.join(java, 'classpath.txt');
    await run(
      'mvn',
      ['-B', '-q', '-DskipTests', '-Dmaven.javadoc.skip=true', 'compile', 'dependency:build-classpath', `-Dmdep.outputFile=${classpath}`],
      {
        cwd: java,
      },
    );
    const main = path.join(java, 'main');
    fs.mkdirSync(main);
    fs.copyFileSync(path.join(FIXTURES, 'JavaTrades.java.txt'), path.join(main, 'Main.java'));
    const cp = `${path.join(java, 'target/classes')}:${fs.readFileSync(classpath, 'utf8').trim()}`;
    await run('javac', ['-d', main, '-cp', cp, path.join(main, 'Main.java')], { cwd: java });
    const out = JSON.parse(await run('java', ['-cp', `${main}:${cp}`, 'Main'], { cwd: java, env })) as { ids: string[]; pages: number };
    expect(out.pages).toBe(2);
    expect(out.ids).toEqual(expected);
  }, 300_000);
});
