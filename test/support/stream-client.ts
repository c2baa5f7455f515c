/**
 * A WebSocket client of GET /v1/stream for tests: it keeps every message received and checks each
 * against its message schema in the AsyncAPI document the service serves (ajv, the contract's
 * schemas included), and waits for messages by predicate.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import WebSocket from 'ws';

export type StreamMessage = Record<string, unknown> & { seq: number; type: string };

export class MessageSchemas {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Record<string, unknown>) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('strike', true);
    ajv.addSchema({ ...document, $id: 'asyncapi' });
    const messages = ((document.components as Record<string, unknown>).messages ?? {}) as Record<
      string,
      { payload: { properties?: { type?: { const?: string } } } }
    >;
    for (const [name, m] of Object.entries(messages)) {
      const type = m.payload.properties?.type?.const;
      if (type && !name.startsWith('subscribe_') && name !== 'auth' && name !== 'unsubscribe') {
        this.validators.set(type, ajv.compile({ $ref: `asyncapi#/components/messages/${name}/payload` }));
      }
    }
  }

  /** The schema errors of a message (a message of a type the document lacks is one). */
  problems(message: StreamMessage): string[] {
    const validate = this.validators.get(message.type);
    if (!validate) return [`no message of type ${message.type} in the document`];
    return validate(message) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  }
}

export class StreamClient {
  readonly messages: StreamMessage[] = [];
  readonly invalid: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];

  private constructor(
    readonly ws: WebSocket,
    schemas: MessageSchemas | null,
  ) {
    ws.on('message', (raw: Buffer) => {
      const message = JSON.parse(raw.toString('utf8')) as StreamMessage;
      this.messages.push(message);
      const problems = schemas?.problems(message) ?? [];
      if (problems.length > 0) this.invalid.push(`${message.type}: ${problems.join('; ')}`);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static async open(
    baseUrl: string,
    options: { key?: string; query?: string; schemas?: MessageSchemas | null; headers?: Record<string, string> } = {},
  ): Promise<StreamClient> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/v1/stream${options.query ? `?${options.query}` : ''}`;
    const headers = { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.headers };
    const ws = new WebSocket(url, { headers });
    const client = new StreamClient(ws, options.schemas ?? null);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** The first message (after `from`) that passes `test`. */
  async next(test: (m: StreamMessage) => boolean, timeoutMs = 20_000, from = 0): Promise<StreamMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(test);
      if (found) return found;
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms (${this.messages.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async closedWith(timeoutMs = 20_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('not closed in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  close(): void {
    this.ws.close();
  }
}
