/**
 * A start after `kill -9` of the service (issue #20, section 1): the embedded PostgreSQL it started
 * is left running, holding the data folder and the port, and the next start died with
 * `triggerUncaughtException(... ^ undefined`. Now the start stops that server and starts its own.
 * A server whose service still runs is not touched: a second service on the same folder fails to
 * start, saying so in one line.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { processRunning } from '../../src/db-server/postmaster.js';
import { request, startServiceProcess, stopServiceProcess, type ServiceProcess } from '../support/service-process.js';

describe('the embedded PostgreSQL of a service killed with SIGKILL', () => {
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    for (const service of services) await stopServiceProcess(service);
    if (services[0]) fs.rmSync(services[0].dataDir, { recursive: true, force: true });
  });

  it('is stopped by the next start on the same data folder, which then serves', async () => {
    const first = await startServiceProcess();
    services.push(first);
    const orphan = first.postmasterPid();
    first.child.kill('SIGKILL');
    await first.exited;
    expect(processRunning(orphan)).toBe(true);

    const second = await startServiceProcess({ dataDir: first.dataDir, pgPort: first.pgPort });
    services.push(second);
    onTestFailed(() => console.log(second.output()));
    expect(processRunning(orphan)).toBe(false);
    expect(second.postmasterPid()).not.toBe(orphan);
    expect(second.output()).toMatch(/stopping the PostgreSQL server left running on this data folder/);
    const status = await request(`${second.base}/v1/status`);
    expect(status.body.data).toMatchObject({ status: 'ok', database: { status: 'ok' } });
  });

  it('is left alone while its service runs: a second start on the folder fails, saying what to do in one line', async () => {
    const running = services.at(-1) as ServiceProcess;
    const postmaster = running.postmasterPid();
    const other = await startServiceProcess({ dataDir: running.dataDir, pgPort: running.pgPort, expectFailure: true });
    expect((await other.exited).code).toBe(1);
    const lines = other
      .output()
      .split('\n')
      .filter((line) => line.startsWith('error:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`belongs to process ${running.child.pid}, which is still running: stop that service first`));
    expect(processRunning(postmaster)).toBe(true);
    expect((await request(`${running.base}/v1/status`)).body.data).toMatchObject({ status: 'ok' });
  });
});
