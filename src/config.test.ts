import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

function loadError(env: Record<string, string | undefined>): Error {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig: defaults', () => {
  const config = loadConfig({});

  it('listens on 127.0.0.1:8080 and uses the embedded database', () => {
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.databaseUrl).toBeNull();
    expect(config.dataDir).toBe(path.resolve('.data'));
    expect(config.embeddedPostgresPort).toBe(54329);
    expect(config.databasePoolSize).toBe(10);
    expect(config.databaseWaitMs).toBe(2_000);
    expect(config.databaseHangMs).toBe(5_000);
  });

  it('forks one HTTP worker per core, at most four; WEB_WORKERS=1 serves from one process', () => {
    expect(config.webWorkers).toBe(Math.min(4, os.availableParallelism()));
    expect(loadConfig({ WEB_WORKERS: '1' }).webWorkers).toBe(1);
    expect(() => loadConfig({ WEB_WORKERS: '0' })).toThrow(/WEB_WORKERS must be an integer from 1 to 64/);
  });

  it("counts a cluster's limits once for all its HTTP workers unless LIMIT_SCOPE=process", () => {
    expect(config.limitScope).toBe('cluster');
    expect(loadConfig({ LIMIT_SCOPE: 'process' }).limitScope).toBe('process');
    expect(() => loadConfig({ LIMIT_SCOPE: 'account' })).toThrow(/LIMIT_SCOPE must be process, cluster or deployment/);
  });

  it('counts the limits in the store by default when DATABASE_URL is set (several machines may share it)', () => {
    const url = 'postgresql://u:p@db.example/oads';
    expect(loadConfig({ DATABASE_URL: url }).limitScope).toBe('deployment');
    expect(loadConfig({ DATABASE_URL: url, LIMIT_SCOPE: 'cluster' }).limitScope).toBe('cluster');
    expect(() => loadConfig({ LIMIT_SCOPE: 'deployment' })).toThrow(/LIMIT_SCOPE=deployment needs DATABASE_URL/);
  });

  it('has the limits of the spec', () => {
    expect(config.limits).toEqual({
      requestsPerMinute: 250,
      requestsPerSecond: 30,
      requestsInFlight: 4,
      keylessRequestsPerMinute: 60,
      cooldownAfterRejections: 30,
      cooldownMs: 60_000,
      endpointTimeoutMs: 20_000,
      exportsQueuedOrRunning: 5,
      exportMaxRows: 100_000,
      exportMaxBytes: 64 * 1024 * 1024,
      exportFlatMaxRows: 3_000_000,
      exportFlatMaxBytes: 512 * 1024 ** 2,
      exportMaxQueryParams: 32,
      exportBytesHeld: { basic: 1024 ** 3, pro: 4 * 1024 ** 3 },
      exportDiskFloorBytes: 1024 ** 3,
    });
  });

  it('has the remaining defaults', () => {
    expect(config.trustProxyHops).toBe(0);
    expect(config.validateResponses).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.metricsPort).toBeNull();
    expect(config.compressionThresholdBytes).toBe(131_072);
    expect(config.authCacheTtlMs).toBe(5_000);
    expect(config.requestLogFlushMs).toBe(1_000);
    expect(config.requestLogRetentionDays).toBe(7);
    expect(config.seedOnStart).toBe(true);
    expect(config.shutdownGraceMs).toBe(20_000);
    expect(config.version).toBe('1.0.0');
  });

  it('treats empty variables as unset', () => {
    const fromEmpty = loadConfig({ PORT: '', LIMIT_PER_MINUTE: '', DATABASE_URL: '', VALIDATE_RESPONSES: '', TRUST_PROXY: '' });
    expect(fromEmpty.port).toBe(8080);
    expect(fromEmpty.limits.requestsPerMinute).toBe(250);
    expect(fromEmpty.databaseUrl).toBeNull();
    expect(fromEmpty.validateResponses).toBe(false);
    expect(fromEmpty.trustProxyHops).toBe(0);
  });

  // `HOST=` (an empty line in an env file) must not make listen(port, '') bind every interface.
  it('an empty HOST falls back to 127.0.0.1 like the other empty variables', () => {
    expect(loadConfig({ HOST: '' }).host).toBe('127.0.0.1');
  });
});

describe('loadConfig: overrides', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '9090',
      DATABASE_URL: 'postgresql://u:p@db:5432/oads',
      DATA_DIR: '/var/lib/oads',
      EMBEDDED_PG_PORT: '5555',
      DATABASE_POOL_SIZE: '20',
      DATABASE_WAIT_MS: '500',
      LIMIT_PER_MINUTE: '500',
      LIMIT_PER_SECOND: '50',
      LIMIT_IN_FLIGHT: '8',
      LIMIT_KEYLESS_PER_MINUTE: '120',
      LIMIT_COOLDOWN_AFTER_REJECTIONS: '3',
      LIMIT_COOLDOWN_MS: '30000',
      ENDPOINT_TIMEOUT_MS: '5000',
      LIMIT_EXPORTS: '2',
      LIMIT_EXPORT_BYTES_BASIC: '1000',
      LIMIT_EXPORT_BYTES_PRO: '2000',
      EXPORT_DISK_FLOOR_BYTES: '0',
      EXPORT_FLAT_MAX_ROWS: '5000000',
      EXPORT_FLAT_MAX_BYTES: '1073741824',
      TRUST_PROXY: '1',
      VALIDATE_RESPONSES: 'true',
      LOG_LEVEL: 'silent',
      AUTH_CACHE_TTL_MS: '0',
      REQUEST_LOG_FLUSH_MS: '250',
      SEED_ON_START: 'false',
      SHUTDOWN_GRACE_MS: '5000',
      DATABASE_HANG_MS: '750',
    });
    expect(config.host).toBe('0.0.0.0');
    expect(config.port).toBe(9090);
    expect(config.databaseUrl).toBe('postgresql://u:p@db:5432/oads');
    expect(config.dataDir).toBe('/var/lib/oads');
    expect(config.embeddedPostgresPort).toBe(5555);
    expect(config.databasePoolSize).toBe(20);
    expect(config.databaseWaitMs).toBe(500);
    expect(config.databaseHangMs).toBe(750);
    expect(config.limits).toMatchObject({
      requestsPerMinute: 500,
      requestsPerSecond: 50,
      requestsInFlight: 8,
      keylessRequestsPerMinute: 120,
      cooldownAfterRejections: 3,
      cooldownMs: 30_000,
      endpointTimeoutMs: 5_000,
      exportsQueuedOrRunning: 2,
      exportBytesHeld: { basic: 1000, pro: 2000 },
      exportDiskFloorBytes: 0,
      exportFlatMaxRows: 5_000_000,
      exportFlatMaxBytes: 1024 ** 3,
    });
    expect(config.trustProxyHops).toBe(1);
    expect(config.validateResponses).toBe(true);
    expect(config.logLevel).toBe('silent');
    expect(config.authCacheTtlMs).toBe(0);
    expect(config.requestLogFlushMs).toBe(250);
    expect(config.seedOnStart).toBe(false);
    expect(config.shutdownGraceMs).toBe(5_000);
  });

  it('reads PUBLIC_URL as an http(s) origin, unset by default, and refuses a path or another scheme', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: '' }).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://API.example.com/' }).publicUrl).toBe('https://api.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.1.2.3:8443' }).publicUrl).toBe('http://10.1.2.3:8443');
    for (const bad of ['https://api.example.com/oads', 'ftp://api.example.com', 'api.example.com', 'https://u:p@api.example.com']) {
      expect(loadError({ PUBLIC_URL: bad }).message, bad).toContain('PUBLIC_URL must be an http or https origin');
    }
  });

  it('accepts postgres:// too, and 1/0 for booleans', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/oads', VALIDATE_RESPONSES: '1', SEED_ON_START: '0' });
    expect(config.databaseUrl).toBe('postgres://localhost/oads');
    expect(config.validateResponses).toBe(true);
    expect(config.seedOnStart).toBe(false);
  });

  it('takes zero or more read replicas beside DATABASE_URL', () => {
    expect(loadConfig({}).databaseReplicaUrls).toEqual([]);
    const two = loadConfig({ DATABASE_URL: 'postgres://p/oads', DATABASE_REPLICA_URLS: ' postgres://r1/oads, postgresql://r2/oads ,' });
    expect(two.databaseReplicaUrls).toEqual(['postgres://r1/oads', 'postgresql://r2/oads']);
    expect(loadError({ DATABASE_URL: 'postgres://p/oads', DATABASE_REPLICA_URLS: 'mysql://r/oads' }).message).toContain(
      'DATABASE_REPLICA_URLS',
    );
    expect(loadError({ DATABASE_REPLICA_URLS: 'postgres://r/oads' }).message).toContain('needs DATABASE_URL');
  });

  it('takes a PgBouncer for the request pools beside DATABASE_URL', () => {
    expect(loadConfig({}).databasePoolerUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://p/oads', DATABASE_POOLER_URL: '' }).databasePoolerUrl).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://p/oads', DATABASE_POOLER_URL: 'postgres://b:6432/oads' }).databasePoolerUrl).toBe(
      'postgres://b:6432/oads',
    );
    expect(loadError({ DATABASE_URL: 'postgres://p/oads', DATABASE_POOLER_URL: 'b:6432' }).message).toContain('DATABASE_POOLER_URL');
    expect(loadError({ DATABASE_POOLER_URL: 'postgres://b:6432/oads' }).message).toContain('needs DATABASE_URL');
  });

  it('runs the live market by default only where the simulated market is seeded', () => {
    expect(loadConfig({}).liveMode).toBe('live');
    expect(loadConfig({}).liveCatchUpMinutes).toBe(120);
    expect(loadConfig({ SEED_ON_START: 'false' }).liveMode).toBe('off');
    expect(loadConfig({ LIVE_MODE: 'off' }).liveMode).toBe('off');
    expect(loadConfig({ SEED_ON_START: 'false', LIVE_MODE: 'live', LIVE_CATCH_UP_MINUTES: '0' })).toMatchObject({
      liveMode: 'live',
      liveCatchUpMinutes: 0,
    });
    expect(loadError({ LIVE_MODE: 'replay-ish' }).message).toContain('LIVE_MODE');
    expect(loadError({ LIVE_CATCH_UP_MINUTES: '1441' }).message).toContain('LIVE_CATCH_UP_MINUTES');
  });

  it('writes the session archive under DATA_DIR unless ARCHIVE_DIR names a folder (shared by several machines)', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/oads' }).archiveDir).toBe('/var/lib/oads/archive');
    expect(loadConfig({ DATA_DIR: '/var/lib/oads', ARCHIVE_DIR: '/mnt/shared/oads-archive' }).archiveDir).toBe('/mnt/shared/oads-archive');
    expect(loadConfig({}).archiveDir).toBe(path.resolve('.data/archive'));
  });

  it('keeps export files in the database where DATABASE_URL is set, on the disk of DATA_DIR otherwise, unless EXPORT_STORE says', () => {
    const url = 'postgresql://u:p@db.example:5432/oads';
    expect(loadConfig({}).exportStore).toBe('disk');
    expect(loadConfig({ DATABASE_URL: url }).exportStore).toBe('database');
    expect(loadConfig({ DATABASE_URL: url, EXPORT_STORE: 'disk' }).exportStore).toBe('disk');
    expect(loadConfig({ EXPORT_STORE: 'database' }).exportStore).toBe('database');
    expect(loadError({ EXPORT_STORE: 's3' }).message).toContain('EXPORT_STORE must be disk or database');
  });

  it('accepts the bounds of a range', () => {
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({ TRUST_PROXY: '10' }).trustProxyHops).toBe(10);
    expect(loadConfig({ LIMIT_COOLDOWN_MS: '0' }).limits.cooldownMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
  });
});

describe('loadConfig: bad variables', () => {
  it('rejects a single bad variable, naming it and the value', () => {
    const error = loadError({ PORT: 'eighty' });
    expect(error.message).toMatch(/PORT/);
    expect(error.message).toMatch(/eighty/);
  });

  it('rejects out-of-range and non-integer numbers', () => {
    for (const [name, value] of [
      ['PORT', '65536'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['LIMIT_PER_MINUTE', '0'],
      ['LIMIT_IN_FLIGHT', 'four'],
      ['TRUST_PROXY', '11'],
      ['ENDPOINT_TIMEOUT_MS', '5'],
      ['DATABASE_POOL_SIZE', '201'],
      ['DATABASE_WAIT_MS', '60001'],
      ['SHUTDOWN_GRACE_MS', '-1'],
      ['SHUTDOWN_GRACE_MS', '600001'],
    ] as const) {
      expect(loadError({ [name]: value }).message, `${name}=${value}`).toContain(name);
    }
  });

  it('collects every bad variable into one error', () => {
    const error = loadError({
      PORT: 'x',
      LIMIT_PER_SECOND: '0',
      LIMIT_KEYLESS_PER_MINUTE: '-5',
      ENDPOINT_TIMEOUT_MS: '1.5',
      TRUST_PROXY: 'yes',
      VALIDATE_RESPONSES: 'maybe',
      SEED_ON_START: 'nope',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'mysql://localhost/db',
    });
    for (const name of [
      'PORT',
      'LIMIT_PER_SECOND',
      'LIMIT_KEYLESS_PER_MINUTE',
      'ENDPOINT_TIMEOUT_MS',
      'TRUST_PROXY',
      'VALIDATE_RESPONSES',
      'SEED_ON_START',
      'LOG_LEVEL',
      'DATABASE_URL',
    ]) {
      expect(error.message, name).toContain(name);
    }
    // one line per problem
    expect(error.message.split('\n').filter((line) => line.trim().startsWith('-'))).toHaveLength(9);
  });

  it('does not name the variables that are fine', () => {
    const error = loadError({ PORT: 'x', LIMIT_PER_MINUTE: '300', HOST: '0.0.0.0' });
    expect(error.message).toContain('PORT');
    expect(error.message).not.toContain('LIMIT_PER_MINUTE');
  });
});

describe('loadConfig: immutability', () => {
  it('returns a frozen object', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(config.port).toBe(8080);
  });

  it('returns a fresh object per call', () => {
    expect(loadConfig({})).not.toBe(loadConfig({}));
    expect(loadConfig({ PORT: '1234' }).port).toBe(1234);
    expect(loadConfig({}).port).toBe(8080);
  });
});

describe('loadConfig: the service clock (CLOCK_START, CLOCK_OFFSET_MS)', () => {
  it('is the wall clock when unset', () => {
    expect(loadConfig({}).clockStart).toBeNull();
    expect(loadConfig({ CLOCK_START: '' }).clockStart).toBeNull();
    expect(loadConfig({}).clockOffsetMs).toBeNull();
  });

  it('reads an ISO 8601 instant with its offset, or Unix ms', () => {
    const wednesday = Date.UTC(2026, 10, 18, 15, 45);
    expect(loadConfig({ CLOCK_START: '2026-11-18T10:45-05:00' }).clockStart).toBe(wednesday);
    expect(loadConfig({ CLOCK_START: '2026-11-18T10:45:00-05:00' }).clockStart).toBe(wednesday);
    expect(loadConfig({ CLOCK_START: '2026-11-18T15:45:00.000Z' }).clockStart).toBe(wednesday);
    expect(loadConfig({ CLOCK_START: String(wednesday) }).clockStart).toBe(wednesday);
    expect(loadConfig({ CLOCK_OFFSET_MS: '-123456' }).clockOffsetMs).toBe(-123456);
  });

  it('refuses an instant without offset, a date alone, text, or one outside the calendar, naming the variable', () => {
    for (const raw of ['2026-11-18T10:45:00', '2026-11-18', 'wednesday', '2026-13-45T10:45:00Z', '1999-12-31T23:59:00Z', '12', '-5']) {
      expect(loadError({ CLOCK_START: raw }).message, raw).toContain(`CLOCK_START must be an ISO 8601 instant with offset`);
    }
    expect(loadError({ CLOCK_OFFSET_MS: '1.5' }).message).toContain('CLOCK_OFFSET_MS must be an integer');
    // Named beside the other bad variables, in one error.
    const error = loadError({ CLOCK_START: 'soon', PORT: 'x' });
    expect(error.message).toContain('CLOCK_START');
    expect(error.message).toContain('PORT');
  });
});
