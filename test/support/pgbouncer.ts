/**
 * A real PgBouncer (Debian's `pgbouncer`, /usr/sbin/pgbouncer; `make test` installs it when missing)
 * in front of a PostgreSQL server, for the deployment tier: its own pgbouncer.ini and userlist in a
 * new temporary folder, pool_mode = transaction, listening on a free port of 127.0.0.1, every
 * database of the server reachable under its own name (the `*` entry), with the connect_query the
 * README's PgBouncer section gives. No ignore_startup_parameters: the service's pooled connections
 * must send none that PgBouncer refuses. As root it runs as the OS user `postgres` (PgBouncer will
 * not run as root; the embedded server's package makes that user). Its admin console (the
 * `pgbouncer` database) answers SHOW POOLS, SHOW STATS, SHOW SERVERS through admin().
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/db-server/embedded.js';
import { RANDOM_PAGE_COST } from '../../src/db/connection.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  /** `serverUrl` with its host and port replaced by PgBouncer's (the same database, user and password). */
  urlOf(serverUrl: string): string;
  /** A statement of PgBouncer's admin console (simple protocol: SHOW …). */
  admin<T extends pg.QueryResultRow>(statement: string): Promise<T[]>;
  /** What PgBouncer logged. */
  log(): string;
  close(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Any URL of the server (user and password are PgBouncer's to it, and its clients'). */
  serverUrl: string;
  /** Server connections per database and user (default_pool_size). */
  poolSize?: number;
}

/** The uid and gid PgBouncer runs as (root: `postgres`). */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Quoted for pgbouncer.ini's auth_file: doubled double quotes. */
const quoted = (value: string): string => `"${value.replaceAll('"', '""')}"`;

/** Starts PgBouncer; resolves once its admin console answers (30 s at most). */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  if (!fs.existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: apt-get install pgbouncer (make test installs it)`);
  const server = new URL(options.serverUrl);
  const user = decodeURIComponent(server.username);
  const password = decodeURIComponent(server.password);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `${quoted(user)} ${quoted(password)}\n`);
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'} connect_query='set random_page_cost = ${RANDOM_PAGE_COST}'`,
      '',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      `auth_type = ${password === '' ? 'trust' : 'md5'}`,
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      `stats_users = ${user}`,
      'pool_mode = transaction',
      'max_client_conn = 200',
      `default_pool_size = ${options.poolSize ?? 8}`,
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const { uid, gid } = runAs();
  if (uid !== undefined && gid !== undefined) execFileSync('chown', ['-R', `${uid}:${gid}`, dir]);
  let output = '';
  const child: ChildProcess = spawn(PGBOUNCER, [ini], { stdio: ['ignore', 'pipe', 'pipe'], uid, gid });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = (): string => {
    const file = path.join(dir, 'pgbouncer.log');
    return `${output}${fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''}`;
  };
  const adminUrl = new URL(options.serverUrl);
  adminUrl.hostname = '127.0.0.1';
  adminUrl.port = String(port);
  adminUrl.pathname = '/pgbouncer';
  const admin = async <T extends pg.QueryResultRow>(statement: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(statement)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGINT: PgBouncer's safe shutdown (after the queries under way).
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PgBouncer exited:\n${log()}`);
    try {
      await admin('show version');
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await close();
        throw new Error(`PgBouncer did not answer: ${String(error)}\n${log()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    port,
    urlOf: (serverUrl) => {
      const url = new URL(serverUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    admin,
    log,
    close,
  };
}
