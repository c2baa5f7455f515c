/**
 * autocannon in a process of its own (the load generator must not share an event loop with what
 * it measures), with the request headers of each connection chosen from a list in turn: a run can
 * stand for several accounts, each on its own connections. Reads one JSON argument
 * {url, connections, seconds, headers: [{...}, ...], paths?: [...]} and prints autocannon's result
 * as JSON. With `paths` (each a path and query on the url's origin) every connection asks them in
 * turn, connection i starting at path i mod n, so that the connections do not ask one path at once.
 */
import autocannon from 'autocannon';

interface Run {
  url: string;
  connections: number;
  seconds: number;
  headers: Record<string, string>[];
  paths?: string[];
}

const run = JSON.parse(process.argv[2] ?? '') as Run;
let next = 0;
const result = await autocannon({
  url: run.url,
  connections: run.connections,
  duration: run.seconds,
  setupClient: (client) => {
    // autocannon sets up its clients one after another: connection i gets headers i mod n.
    client.setHeaders(run.headers[next % run.headers.length] ?? {});
    if (run.paths !== undefined && run.paths.length > 0) {
      const start = next % run.paths.length;
      const turn = [...run.paths.slice(start), ...run.paths.slice(0, start)];
      client.setRequests(turn.map((p) => ({ method: 'GET', path: p })));
    }
    next += 1;
  },
});
process.stdout.write(JSON.stringify(result));
