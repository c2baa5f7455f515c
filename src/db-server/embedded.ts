/**
 * Starting the embedded PostgreSQL: the server settings of its cluster, and a free local port to
 * run it (or a test's service) on. The connections to it are made in db/connection.ts.
 */
import net from 'node:net';
import { EmbeddedServer, type EmbeddedServerOptions } from './supervisor.js';

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Server settings of the embedded cluster. wal_level=minimal (with max_wal_senders=0, which it
 * requires): the embedded server is one local store with no replica and no WAL archive, and at
 * this level a table created in the writing transaction is not written to the WAL at all (its
 * files are synced at commit, so a crash loses nothing committed): a new trading date's prints
 * are COPYed into a table the load creates, and their indexes built on it, so a large load writes
 * its rows once instead of twice (commit 5925233 has the figures). A server given by
 * DATABASE_URL keeps its own settings (the README says what helps).
 */
const EMBEDDED_SERVER_SETTINGS = ['wal_level=minimal', 'max_wal_senders=0'];

/**
 * Starts (initialising on first use) an embedded cluster in `dir`, supervised: restarted when it
 * exits unasked (supervisor.ts). A server left running on `dir` by a killed service is stopped first.
 */
export async function startEmbeddedPostgres(
  dir: string,
  port: number,
  supervision: Pick<EmbeddedServerOptions, 'logger' | 'onDown' | 'onUp'> = {},
): Promise<{ url: string; stop: () => Promise<void>; server: EmbeddedServer }> {
  const server = await EmbeddedServer.start({ dir, port, settings: EMBEDDED_SERVER_SETTINGS, ...supervision });
  return { url: server.url, stop: () => server.stop(), server };
}
