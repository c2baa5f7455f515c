/**
 * Both SDKs as a user installs them: `make sdk`'s artefacts (scripts/build-sdk) built into a
 * temporary folder, the npm tarball installed into a fresh Node project and the wheel into a fresh
 * venv, each then run outside the repository against a started service. Per SDK: the installed
 * version is the contract's info.version; one real call (a calendar day, whose answer the service
 * computes itself); and a naive `Promise.all` (TypeScript) or a 40-thread pool (Python) of 40
 * account reads that the SDK's own limiter keeps within the account's limits (4 in flight, 30 per
 * second by default), so not one is refused with 429. The TypeScript project is also type-checked
 * against the installed declarations (an export's `file.data` typed as the route's rows).
 *
 * The wheel's dependencies (httpx, attrs, python-dateutil) are not fetched: the fresh venv sees the
 * project venv's packages through a .pth file, so pip resolves them as installed, offline.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startTestService, type TestService } from '../support/service.js';

const exec = promisify(execFile);
const REPO = process.cwd();
const VERSION = String((YAML.parse(fs.readFileSync('openapi/v1.yaml', 'utf8')) as { info: { version: string } }).info.version);
const CALLS = 40;
/** A day the calendar knows as an early close (the day after Thanksgiving). */
const EARLY_CLOSE = '2026-11-27';

async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout } = await exec(command, args, { ...options, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stdout?: string; stderr?: string; message?: string }) => {
      throw new Error(
        `${command} ${args.join(' ')} failed:\n${error.message ?? ''}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`.slice(0, 8000),
      );
    },
  );
  return stdout;
}

interface Outcome {
  version: string;
  calendar: string;
  plans: string[];
  statuses: Record<string, number>;
  limitsReads: number;
  mostInFlight: number;
  limits: Record<string, number | null>;
}

const NODE_PROGRAM = `
import { Oads } from '@oads/sdk';
import { createRequire } from 'node:module';
const { version } = createRequire(import.meta.url)('@oads/sdk/package.json');
const statuses = {};
let limitsReads = 0;
let open = 0;
let mostInFlight = 0;
const counting = async (input, init) => {
  const request = new Request(input, init);
  if (new URL(request.url).pathname === '/v1/account/limits') limitsReads += 1;
  open += 1;
  mostInFlight = Math.max(mostInFlight, open);
  try {
    const response = await fetch(request);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    return response;
  } finally {
    open -= 1;
  }
};
const oads = new Oads({ apiKey: process.env.OADS_API_KEY, baseUrl: process.env.OADS_BASE_URL, fetch: counting, retry: { maxAttempts: 1 } });
const day = await oads.getMarketCalendarDay({ date: process.env.OADS_DATE });
const accounts = await Promise.all(Array.from({ length: ${CALLS} }, () => oads.getAccount()));
// The same 40 at once without the limiter (another account): the service refuses some of them.
const control = new Oads({ apiKey: process.env.OADS_CONTROL_KEY, baseUrl: process.env.OADS_BASE_URL, retry: { maxAttempts: 1 }, limits: false });
const settled = await Promise.allSettled(Array.from({ length: ${CALLS} }, () => control.getAccount()));
const refusedWithoutLimiter = settled.filter((r) => r.status === 'rejected' && r.reason.status === 429).length;
console.log(JSON.stringify({
  version, calendar: day.data.status, plans: accounts.map((a) => a.data.plan), statuses, limitsReads, mostInFlight,
  limits: await oads.clientLimits(), refusedWithoutLimiter,
}));
`;

/** Compiled against the installed declarations only: an export's rows are typed as the route's. */
const TYPE_CHECK = `
import { Oads, type OptionPrint, type ExportFile } from '@oads/sdk';
export async function rows(oads: Oads): Promise<OptionPrint[]> {
  const result = await oads.runExport({ path: '/v1/options/trades', query: { underlying_symbol: 'SPY' } });
  const file: ExportFile<'/v1/options/trades'> = result.file;
  return file.data;
}
`;

const PYTHON_PROGRAM = `
import importlib.metadata
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import oads_sdk
from oads_sdk import Oads
from oads_sdk.generated.models import CalendarDayResponse

assert "/site-packages/" in oads_sdk.__file__, oads_sdk.__file__
statuses = {}
limits_reads = 0
open_now = most = 0
lock = threading.Lock()

with Oads(api_key=os.environ["OADS_API_KEY"], base_url=os.environ["OADS_BASE_URL"], max_retries=0) as oads:
    http = oads._client.get_httpx_client()
    send = http.send

    def counting(request, **kwargs):
        global limits_reads, open_now, most
        with lock:
            limits_reads += request.url.path == "/v1/account/limits"
            open_now += 1
            most = max(most, open_now)
        try:
            response = send(request, **kwargs)
            with lock:
                statuses[str(response.status_code)] = statuses.get(str(response.status_code), 0) + 1
            return response
        finally:
            with lock:
                open_now -= 1

    http.send = counting
    day = oads.get_market_calendar_day(date=os.environ["OADS_DATE"])
    with ThreadPoolExecutor(max_workers=${CALLS}) as pool:
        accounts = list(pool.map(lambda _: oads.get_account(), range(${CALLS})))
    with Oads(api_key=os.environ["OADS_API_KEY"], base_url=os.environ["OADS_BASE_URL"], typed=True) as typed:
        assert isinstance(typed.get_market_calendar_day(date=os.environ["OADS_DATE"]), CalendarDayResponse)
    print(json.dumps({
        "version": importlib.metadata.version("oads-sdk"),
        "calendar": day["data"]["status"],
        "plans": [a["data"]["plan"] for a in accounts],
        "statuses": statuses,
        "limitsReads": limits_reads,
        "mostInFlight": most,
        "limits": oads.limiter.limits(),
    }))
`;

describe('the SDKs built by make sdk, installed into fresh projects', () => {
  let service: TestService;
  let dir: string;
  let artefacts: string[];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sdk-packages-'));
    const [built] = await Promise.all([
      run('bash', ['scripts/build-sdk', path.join(dir, 'artefacts')], { cwd: REPO }),
      startTestService().then((started) => (service = started)),
    ]);
    artefacts = built.trim().split('\n');
  }, 120_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await service?.stop();
  });

  it("builds the npm tarball, the wheel and the sdist, each at the contract's version", async () => {
    expect(artefacts.sort()).toEqual([`oads-sdk-${VERSION}.tgz`, `oads_sdk-${VERSION}-py3-none-any.whl`, `oads_sdk-${VERSION}.tar.gz`]);
    const listing = await run('tar', ['tzf', path.join(dir, 'artefacts', `oads_sdk-${VERSION}.tar.gz`)], { cwd: dir });
    expect(listing).toContain(`oads_sdk-${VERSION}/pyproject.toml`);
    expect(listing).toContain(`oads_sdk-${VERSION}/oads_sdk/_oads.py`);
  });

  it('the npm tarball: installed into a new Node project, one call, and 40 at once within the limits (no 429)', async () => {
    const project = path.join(dir, 'node-project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, 'artefacts', `oads-sdk-${VERSION}.tgz`)], {
      cwd: project,
    });
    expect(fs.lstatSync(path.join(project, 'node_modules/@oads/sdk')).isSymbolicLink()).toBe(false);

    fs.writeFileSync(path.join(project, 'check.ts'), TYPE_CHECK);
    const tsc = path.join(REPO, 'node_modules/.bin/tsc');
    await run(tsc, ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2023,dom', 'check.ts'], {
      cwd: project,
    });

    fs.writeFileSync(path.join(project, 'main.mjs'), NODE_PROGRAM);
    const [{ key }, control] = [await service.newAccount({ plan: 'pro' }), await service.newAccount({ plan: 'pro' })];
    const env = { ...process.env, OADS_BASE_URL: service.url, OADS_API_KEY: key, OADS_CONTROL_KEY: control.key, OADS_DATE: EARLY_CLOSE };
    const out = JSON.parse(await run(process.execPath, ['main.mjs'], { cwd: project, env })) as Outcome & { refusedWithoutLimiter: number };
    expect(out.refusedWithoutLimiter).toBeGreaterThan(0);
    expect(out.version).toBe(VERSION);
    expect(out.calendar).toBe('early_close');
    expect(out.plans).toEqual(Array<string>(CALLS).fill('pro'));
    expect(out.statuses).toEqual({ 200: CALLS + 2 });
    expect(out.limitsReads).toBe(1);
    expect(out.mostInFlight).toBeLessThanOrEqual(service.config.limits.requestsInFlight);
    expect(out.limits).toEqual({
      inFlight: service.config.limits.requestsInFlight,
      perSecond: service.config.limits.requestsPerSecond,
      perMinute: service.config.limits.requestsPerMinute,
    });
  }, 60_000);

  it('the wheel: installed into a new venv, one call (dicts and typed models), and 40 threads within the limits (no 429)', async () => {
    const venv = path.join(dir, 'venv');
    const projectPython = path.join(REPO, '.venv/bin/python');
    await run(projectPython, ['-m', 'venv', '--without-pip', venv], { cwd: dir });
    const python = path.join(venv, 'bin/python');
    const sitePackages = (path: string): Promise<string> =>
      run(path, ['-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { cwd: dir }).then((s) => s.trim());
    // The dependencies as the project venv holds them (nothing fetched); the SDK itself only from the wheel.
    fs.writeFileSync(path.join(await sitePackages(python), 'project-venv.pth'), `${await sitePackages(projectPython)}\n`);
    await expect(run(python, ['-c', 'import oads_sdk'], { cwd: dir })).rejects.toThrow(/No module named 'oads_sdk'/);
    await run(
      projectPython,
      [
        '-m',
        'pip',
        '--python',
        python,
        'install',
        '--no-index',
        '--disable-pip-version-check',
        path.join(dir, 'artefacts', `oads_sdk-${VERSION}-py3-none-any.whl`),
      ],
      { cwd: dir },
    );

    fs.writeFileSync(path.join(dir, 'main.py'), PYTHON_PROGRAM);
    const { key } = await service.newAccount({ plan: 'pro' });
    const env = { ...process.env, OADS_BASE_URL: service.url, OADS_API_KEY: key, OADS_DATE: EARLY_CLOSE, PYTHONDONTWRITEBYTECODE: '1' };
    const out = JSON.parse(await run(python, ['main.py'], { cwd: dir, env })) as Outcome;
    expect(out.version).toBe(VERSION);
    expect(out.calendar).toBe('early_close');
    expect(out.plans).toEqual(Array<string>(CALLS).fill('pro'));
    expect(out.statuses).toEqual({ 200: CALLS + 2 });
    expect(out.limitsReads).toBe(1);
    expect(out.mostInFlight).toBeLessThanOrEqual(service.config.limits.requestsInFlight);
    expect(out.limits).toEqual({
      in_flight: service.config.limits.requestsInFlight,
      per_second: service.config.limits.requestsPerSecond,
      per_minute: service.config.limits.requestsPerMinute,
    });
  }, 60_000);
});
