/**
 * The Python SDK (sdk/python) against the live service: pytest in the project's venv runs
 * sdk/python/tests with the service's URL and two accounts' keys in its environment. A small
 * per-second limit makes the rate-limit test's 429s real; the SDK's other calls ride it out through
 * the same retries. The pages the SDK walked and the export it downloaded are compared here with
 * the store.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionPrint as Print } from '../../generated/client/types.gen.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);
const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';
const PER_SECOND = 3;
const ASK_SIDE = ['at_ask', 'near_ask', 'above_ask'];

describe('Python SDK against the live service', () => {
  let service: TestService;
  let prints: Print[];
  let dir: string;
  beforeAll(async () => {
    const started = Date.now();
    // The clock moves: the rate limiter's windows must pass for Retry-After to be honest.
    service = await startTestService({
      market: { dates: [PREVIOUS, DAY] },
      jobs: true,
      clock: () => MARKET_NOW + (Date.now() - started),
      env: { LIMIT_PER_SECOND: String(PER_SECOND) },
    });
    prints = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Print);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sdk-python-'));
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await service.stop();
  });

  it('walks pages with a list filter, retries a 429, runs an export and raises OadsError for a 422 and a 400', async () => {
    const [main, burst] = [await service.newAccount(), await service.newAccount()];
    const result = path.join(dir, 'result.json');
    const env = {
      ...process.env,
      OADS_BASE_URL: service.url,
      OADS_API_KEY: main.key,
      OADS_BURST_KEY: burst.key,
      OADS_DATE: DAY,
      OADS_PER_SECOND: String(PER_SECOND),
      OADS_RESULT: result,
      PYTHONDONTWRITEBYTECODE: '1',
    };
    const pytest = ['-m', 'pytest', '-p', 'no:cacheprovider', '-q', '-s', '-rs', 'tests/test_live.py', 'tests/test_requests.py'];
    const { stdout } = await run(path.resolve('.venv/bin/python'), pytest, { cwd: 'sdk/python', env, encoding: 'utf8' }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`pytest failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      },
    );
    expect(stdout).toMatch(/^17 passed in [\d.]+s$/m);
    expect(stdout).toMatch(/retried 429: [1-9]/);
    expect(stdout).toContain('errors: 422 no_data; 400 invalid_parameter');

    const walked = JSON.parse(fs.readFileSync(result, 'utf8')) as { trades: string[]; export: string[] };
    const newestFirst = (a: Print, b: Print): number =>
      b.timestamp - a.timestamp || Number(b.id.split(':').at(-1)) - Number(a.id.split(':').at(-1));
    const askSpy = prints
      .filter((p) => p.session !== 'gth' && p.underlying_symbol === 'SPY' && ASK_SIDE.includes(p.side))
      .sort(newestFirst);
    expect(walked.trades).toEqual(askSpy.slice(0, 75).map((p) => p.id));
    const exportStart = Date.parse(`${DAY}T15:00:00Z`);
    expect(walked.export).toEqual(
      askSpy
        .filter((p) => p.timestamp >= exportStart)
        .slice(0, 40)
        .map((p) => p.id),
    );
  });
});
