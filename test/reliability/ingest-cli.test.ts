/**
 * The ingest command as an operator meets it (issue #34, item 6), run as a process: a file that does
 * not exist is exit code 1 with one error line; two loads of one file at once load it once, the
 * second waiting for the first, never a raw PostgreSQL error; a file of hundreds of megabytes
 * without a line break is one rejected line, read in bounded memory; a field holding NUL bytes is
 * a reject naming its line.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeArgsOf } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const run = promisify(execFile);

const PRINTS_HEADER =
  'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';
const SPY = 'SPY   261120P00650000';
/** Wednesday 2026-11-18, 09:30 ET. */
const T = Date.parse('2026-11-18T14:30:00Z');

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the ingest command', () => {
  let service: TestService;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService();
    env = { ...process.env, DATABASE_URL: service.database.connectionString, LOG_LEVEL: 'silent' };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-cli-'));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await service?.stop();
  });

  /** Runs the command to its end; its exit code, never a throw. */
  const ingest = (...args: string[]): Promise<Outcome> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [...nodeArgsOf('src/cli/ingest.ts'), ...args], { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });

  it('exits 1 with one error line for a file that does not exist', async () => {
    const missing = path.join(dir, 'no-such-file.csv');
    for (const kind of ['splits', 'prints', 'contracts']) {
      const outcome = await ingest(kind, missing);
      expect(outcome.code, `${kind}: ${outcome.stderr}`).toBe(1);
      expect(outcome.stderr).toMatch(/^error: .*no-such-file\.csv/m);
      expect(outcome.stderr).not.toMatch(/ {4}at /);
    }
    const json = await ingest('splits', '--json', missing);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { error?: string }).error).toMatch(/ENOENT/);
  });

  it('loads a file once when two commands load it at the same time, the second waiting for the first', async () => {
    const file = path.join(dir, 'prints-twice.csv');
    const lines = Array.from({ length: 20 }, (_, k) => `${SPY},${T + k * 1000},${k + 1},2.2,5,302,209,,,2,2.5,${T + k * 1000 - 500}`);
    fs.writeFileSync(file, [PRINTS_HEADER, ...lines].join('\n') + '\n');
    // The ledger held by the test until both commands wait: without a lock of their own, both would
    // then find the file not loaded, and both create its date's table.
    const holder = new pg.Client({ connectionString: service.database.connectionString });
    const observer = new pg.Client({ connectionString: service.database.connectionString });
    await Promise.all([holder.connect(), observer.connect()]);
    let outcomes: Outcome[];
    try {
      await holder.query('begin');
      await holder.query('lock table ingest_files in access exclusive mode');
      const both = [ingest('prints', file), ingest('prints', file)];
      await settled(
        async () =>
          (
            await observer.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            )
          ).rows[0]?.n ?? 0,
        (n) => n === 2,
        { what: 'both commands to wait', timeoutMs: 60_000 },
      );
      await holder.query('commit');
      outcomes = await Promise.all(both);
    } finally {
      await Promise.all([holder.end(), observer.end()]);
    }
    for (const outcome of outcomes) {
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stderr).not.toMatch(/duplicate key|error:/);
    }
    const stdout = outcomes.map((o) => o.stdout).sort();
    expect(stdout[0]).toMatch(/already loaded \(same checksum\), nothing written/);
    expect(stdout[1]).toMatch(/read 20, loaded 20, rejected 0/);
    expect(outcomes.some((o) => o.stderr.includes('being loaded by another process; waiting'))).toBe(true);
  });

  it('rejects a line of 300 MB without a line break, in bounded memory', async () => {
    const file = path.join(dir, 'no-newline.csv');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, 'symbol,execution_date,split_from,split_to\nQQQA,2024-06-10,1,2\n');
    const block = Buffer.alloc(1 << 20, 'A');
    for (let i = 0; i < 300; i += 1) fs.writeSync(fd, block);
    fs.closeSync(fd);
    const rssFile = path.join(dir, 'rss');
    const outcome = await new Promise<Outcome>((resolve, reject) => {
      const child = spawn(
        '/usr/bin/time',
        ['-o', rssFile, '-f', '%M', process.execPath, ...nodeArgsOf('src/cli/ingest.ts'), 'splits', file],
        {
          env,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/read 2, loaded 1, rejected 1/);
    expect(fs.readFileSync(`${file}.rejects.csv`, 'utf8')).toBe('line,reason\n3,"line longer than 1,048,576 characters"\n');
    const peakMb = Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024;
    // The process itself (node, tsx, pg) is about 150-250 MB; the line's 300 MB would come on top.
    expect(peakMb).toBeLessThan(400);
  });

  it('rejects a field holding NUL bytes, naming its line and column', async () => {
    const file = path.join(dir, 'nul.csv');
    fs.writeFileSync(file, 'symbol,execution_date,split_from,split_to\nQQQB,2024-06-10,1,2\nQQQC,2024-06-11,1,\0\0\n');
    const { stdout } = await run(process.execPath, [...nodeArgsOf('src/cli/ingest.ts'), 'splits', file], { env, encoding: 'utf8' });
    expect(stdout).toContain('read 2, loaded 1, rejected 1');
    expect(fs.readFileSync(`${file}.rejects.csv`, 'utf8')).toBe('line,reason\n3,"column split_to contains control character U+0000"\n');
  });
});
