/**
 * Records every request (rejected ones included) in the durable request log without a database
 * write per request: entries are buffered and written in one INSERT per batch, every flush interval
 * or every 500 entries, whichever comes first. A failed write is retried with the next batch; the
 * buffer is capped so a long database outage cannot exhaust memory (the oldest entries go first,
 * counted in `dropped`).
 */
import type { Database } from './db/connection.js';
import { insertRequestLogBatch, type RequestLogEntry } from './db/request-log.js';
import type { Logger } from './logging.js';

const BATCH_SIZE = 500;
const MAX_BUFFERED = 200_000;

export class RequestLogBuffer {
  private buffer: RequestLogEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  dropped = 0;

  constructor(
    private readonly db: Database,
    private readonly flushMs: number,
    private readonly logger: Logger,
  ) {}

  record(entry: RequestLogEntry): void {
    this.buffer.push(entry);
    if (this.buffer.length > MAX_BUFFERED) {
      this.dropped += this.buffer.length - MAX_BUFFERED;
      this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
    }
    if (this.buffer.length >= BATCH_SIZE) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered; resolves when the log holds every entry recorded before the call. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = (async () => {
      try {
        for (let i = 0; i < batch.length; i += BATCH_SIZE) {
          await insertRequestLogBatch(this.db, batch.slice(i, i + BATCH_SIZE));
        }
      } catch (error) {
        this.buffer = batch.concat(this.buffer);
        this.logger.error('request log write failed; will retry', { error: error instanceof Error ? error.message : String(error) });
        if (!this.timer) {
          this.timer = setTimeout(() => void this.flush(), this.flushMs);
          this.timer.unref();
        }
      } finally {
        this.flushing = null;
      }
    })();
    await this.flushing;
  }

  get pending(): number {
    return this.buffer.length;
  }
}
