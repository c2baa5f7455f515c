import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccount, listStockSplits } from '../../generated/client/index.js';
import { nodeArgsOf } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);

describe('command-line tools', () => {
  let service: TestService;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    service = await startTestService({ env: { AUTH_CACHE_TTL_MS: '0' } });
    env = { ...process.env, DATABASE_URL: service.database.connectionString, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => service.stop());

  const cli = async (script: string, ...args: string[]) =>
    await run(process.execPath, [...nodeArgsOf(`src/cli/${script}.ts`), ...args], { env, encoding: 'utf8' });

  it('creates, lists, suspends and revokes', async () => {
    const created = await cli('accounts', 'create-account', '--name', 'Acme', '--plan', 'basic', '--datasets', 'options');
    const accountId = /account (acct_\w+)/.exec(created.stdout)?.[1] ?? '';
    const key = /key\s+(oads_\w+)/.exec(created.stdout)?.[1] ?? '';
    expect(accountId).toMatch(/^acct_/);
    const client = service.client(key);
    expect((await getAccount({ client })).data?.data).toMatchObject({ id: accountId, plan: 'basic', datasets: ['options'] });
    expect((await listStockSplits({ client })).response.status).toBe(403);

    const listed = await cli('accounts', 'list');
    expect(listed.stdout).toContain(`${accountId}\tbasic\tactive\toptions\t${key.slice(0, 13)}`);
    expect(listed.stdout).not.toContain(key);

    await cli('accounts', 'set-plan', accountId, '--plan', 'pro', '--datasets', 'options,equities');
    expect((await listStockSplits({ client })).response.status).toBe(200);

    await cli('accounts', 'suspend', accountId);
    expect((await getAccount({ client })).error?.error.code).toBe('account_suspended');
    await cli('accounts', 'reactivate', accountId);
    expect((await getAccount({ client })).response.status).toBe(200);

    const second = await cli('accounts', 'create-key', accountId, '--name', 'ci');
    const secondKey = /key (oads_\w+)/.exec(second.stdout)?.[1] ?? '';
    await cli('accounts', 'revoke-key', key.slice(0, 13));
    expect((await getAccount({ client })).response.status).toBe(401);
    expect((await getAccount({ client: service.client(secondKey) })).response.status).toBe(200);
  });

  it('refuses bad arguments with a message and a non-zero exit', async () => {
    await expect(cli('accounts', 'create-account', '--name', 'X', '--plan', 'gold')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--plan must be basic or pro') as unknown,
    });
    await expect(cli('accounts', 'frobnicate')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command frobnicate') as unknown,
    });
    // An unknown option: a one-line error and the usage, never a stack trace.
    const unknown = cli('accounts', 'list', '--bogus');
    await expect(unknown).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown option '--bogus'") as unknown });
    await expect(unknown).rejects.toMatchObject({ stderr: expect.not.stringContaining('    at ') as unknown });
    const help = await cli('accounts', '--help');
    expect(help.stdout).toContain('create-account --name NAME');
    expect(help.stdout).toContain('set-plan ACCOUNT_ID');
  });

  it('ingests a splits file and writes rejects with line numbers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-splits-'));
    const file = path.join(dir, 'splits.csv');
    fs.writeFileSync(file, 'symbol,execution_date,split_from,split_to\nQQQZ,2024-06-10,1,2\nQQQZ,not-a-date,1,2\n');
    const out = await cli('ingest', 'splits', file);
    expect(out.stdout).toContain('read 2, loaded 1, rejected 1, duplicates 0');
    expect(fs.readFileSync(`${file}.rejects.csv`, 'utf8')).toContain(
      '3,"execution_date ""not-a-date"" is not a date from 2000-01-01 to 2035-12-31"',
    );
  });
});
