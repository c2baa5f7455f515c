/**
 * A request made inside the process: a GET with no body handed to an express application as if it
 * had arrived on a socket, its answer (status and body) captured instead of sent. The MCP endpoint
 * runs a tool call through a route's own middleware this way, so the call meets that route's
 * validation, entitlements, database gate, handler and error mapping, and nothing written for MCP.
 *
 * The response's `close` event (which the database gate waits for to give its place back) comes
 * when the answer is complete, or when `abandoned` settles first (the MCP request's client left or
 * its deadline passed): a place is never held for an answer nobody reads.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface InjectedAnswer {
  status: number;
  /** The body as sent (JSON text for every route a tool or resource reaches). */
  body: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export async function injectGet(
  listener: Listener,
  url: string,
  prepare: (req: IncomingMessage) => void,
  abandoned: Promise<void>,
): Promise<InjectedAnswer | null> {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = url;
  req.headers = { host: 'localhost' };
  req.push(null);
  prepare(req);

  const res = new ServerResponse(req);
  let closed = false;
  // Own property over the prototype's getter: the middleware asks `res.closed` after waiting.
  Object.defineProperty(res, 'closed', { get: () => closed });
  const close = (): void => {
    if (closed) return;
    closed = true;
    res.emit('close');
  };

  return await new Promise<InjectedAnswer | null>((resolve) => {
    const chunks: Buffer[] = [];
    const take = (chunk: unknown, encoding?: unknown): void => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    res.write = ((chunk: unknown, encoding?: unknown) => {
      take(chunk, encoding);
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      if (closed) return res;
      take(chunk, encoding);
      if (!res.headersSent) res.writeHead(res.statusCode);
      resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') });
      close();
      return res;
    }) as typeof res.end;
    void abandoned.then(() => {
      if (closed) return;
      close();
      resolve(null);
    });
    listener(req, res);
  });
}
