/**
 * The progress of a command-line load (ingest, simulate) on a terminal: one line on stderr, redrawn
 * in place as files finish, with a bar when the whole is known (ingest: the files' bytes) and the
 * rows written and their rate either way. Log lines are written above it. When stderr is not a
 * terminal (a pipe, a log file, a test) nothing is drawn and log lines go through as they are.
 * Once started, the line is drawn at once and redrawn every second (its clock running), so that a
 * long first file shows the command is working before anything finishes.
 */

/** How often a started bar redraws itself. */
export const TICK_MS = 1_000;

export interface ProgressState {
  /** Work done and its total, in one unit (bytes of the files loaded); total null: not known. */
  done: number;
  total: number | null;
  files: number;
  rows: number;
  seconds: number;
}

const BAR_WIDTH = 24;

/** The progress line (no control characters): `[#####-----]  42%  3/7 files  1,234 rows  617 rows/s  2.0 s`. */
export function progressLine(state: ProgressState, totalFiles: number | null = null): string {
  const parts: string[] = [];
  if (state.total !== null && state.total > 0) {
    const fraction = Math.min(1, Math.max(0, state.done / state.total));
    const filled = Math.round(fraction * BAR_WIDTH);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%`);
  }
  parts.push(totalFiles === null ? `${state.files} files` : `${state.files}/${totalFiles} files`);
  parts.push(`${state.rows.toLocaleString('en-US')} rows`);
  if (state.seconds > 0) parts.push(`${Math.round(state.rows / state.seconds).toLocaleString('en-US')} rows/s`);
  parts.push(`${state.seconds.toFixed(1)} s`);
  return parts.join('  ');
}

export class ProgressBar {
  private line = '';
  private ticker: NodeJS.Timeout | null = null;
  private readonly started = performance.now();
  private state: ProgressState = { done: 0, total: null, files: 0, rows: 0, seconds: 0 };

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number | null,
    private readonly totalFiles: number | null = null,
  ) {}

  private get drawing(): boolean {
    return this.stream.isTTY === true;
  }

  /** Draws the line now and every TICK_MS until end(). */
  start(): void {
    if (!this.drawing || this.ticker !== null) return;
    const redraw = (): void => {
      this.state = { ...this.state, total: this.total, seconds: (performance.now() - this.started) / 1000 };
      this.draw();
    };
    redraw();
    this.ticker = setInterval(redraw, TICK_MS);
    this.ticker.unref();
  }

  /** One file finished: `done` more of the total, `rows` written. */
  advance(done: number, rows: number): void {
    this.state = {
      done: this.state.done + done,
      total: this.total,
      files: this.state.files + 1,
      rows: this.state.rows + rows,
      seconds: (performance.now() - this.started) / 1000,
    };
    this.draw();
  }

  /** A line above the progress line: a log line (stderr), or a result on `to` (stdout). */
  log(text: string, to: NodeJS.WritableStream = this.stream): void {
    if (this.drawing) this.stream.write('\r\x1b[2K');
    to.write(`${text}\n`);
    if (this.drawing && this.line !== '') this.stream.write(this.line);
  }

  /** Leaves the last progress line in place and moves below it. */
  end(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
    if (this.drawing && this.line !== '') this.stream.write('\n');
    this.line = '';
  }

  private draw(): void {
    if (!this.drawing) return;
    this.line = progressLine(this.state, this.totalFiles);
    this.stream.write(`\r\x1b[2K${this.line}`);
  }
}
