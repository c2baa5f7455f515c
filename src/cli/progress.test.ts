import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ProgressBar, progressLine, TICK_MS } from './progress.js';

/** A stream that keeps what is written, a terminal or not. */
function captured(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  (stream as { isTTY?: boolean }).isTTY = isTTY;
  return { stream, text: () => text };
}

describe('progressLine', () => {
  it('draws the share done as a 24-character bar with the files, rows and their rate', () => {
    // 30 of 80: 37.5 % → 9 of 24 marks (rounded), 37 % shown (floored); 4,000 rows in 2 s.
    expect(progressLine({ done: 30, total: 80, files: 3, rows: 4000, seconds: 2 }, 7)).toBe(
      `[${'#'.repeat(9)}${'-'.repeat(15)}]  37%  3/7 files  4,000 rows  2,000 rows/s  2.0 s`,
    );
    expect(progressLine({ done: 80, total: 80, files: 7, rows: 0, seconds: 1.25 }, 7)).toBe(
      `[${'#'.repeat(24)}] 100%  7/7 files  0 rows  0 rows/s  1.3 s`,
    );
  });

  it('draws no bar when the total is not known, and no rate before any time has passed', () => {
    expect(progressLine({ done: 0, total: null, files: 2, rows: 1234567, seconds: 0 })).toBe('2 files  1,234,567 rows  0.0 s');
  });
});

describe('ProgressBar', () => {
  it('redraws one line in place on a terminal, log lines above it, and ends below it', () => {
    const { stream, text } = captured(true);
    const bar = new ProgressBar(stream, 10, 2);
    bar.advance(5, 100);
    bar.log('a log line');
    bar.advance(5, 50);
    bar.end();
    const lines = text().split('\r\x1b[2K');
    expect(lines[0]).toBe('');
    expect(lines[1]).toMatch(/^\[#{12}-{12}\] {2}50% {2}1\/2 files {2}100 rows/);
    // The log line, then the progress line drawn again under it.
    expect(lines[2]).toMatch(/^a log line\n\[#{12}-{12}\] {2}50% {2}1\/2 files {2}100 rows/);
    expect(lines[3]).toMatch(/^\[#{24}\] 100% {2}2\/2 files {2}150 rows .*\n$/);
  });

  it('draws nothing when the stream is not a terminal, and passes log lines as they are', () => {
    const { stream, text } = captured(false);
    const bar = new ProgressBar(stream, 10, 2);
    bar.advance(5, 100);
    bar.log('a log line');
    bar.end();
    expect(text()).toBe('a log line\n');
  });

  it('once started draws at once, before any file is done, and redraws every second with its clock running', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    try {
      const { stream, text } = captured(true);
      const bar = new ProgressBar(stream, 10, 2);
      bar.start();
      expect(text()).toBe(`\r\x1b[2K[${'-'.repeat(24)}]   0%  0/2 files  0 rows  0.0 s`);
      vi.advanceTimersByTime(TICK_MS);
      vi.advanceTimersByTime(TICK_MS);
      expect(text().split('\r\x1b[2K').slice(-1)[0]).toMatch(/0\/2 files {2}0 rows {2}0 rows\/s {2}2\.0 s$/);
      bar.end();
      const ended = text();
      vi.advanceTimersByTime(3 * TICK_MS);
      expect(text()).toBe(ended);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not start drawing off a terminal', () => {
    const { stream, text } = captured(false);
    const bar = new ProgressBar(stream, 10, 2);
    bar.start();
    bar.end();
    expect(text()).toBe('');
  });
});
