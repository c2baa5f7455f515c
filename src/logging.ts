/**
 * Structured JSON logs through pino, one object per line on stdout: `time` (ISO 8601), `level`
 * (its label), `pid`, `msg` and the fields. Two levels: 'silent' drops info lines but still writes
 * errors, and the writer can be replaced, so a test harness runs silent and collects the errors it
 * meets (test/support/service.ts). A request's line is written by middleware/request-context.ts.
 */
import pino from 'pino';

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: 'silent' | 'info', write?: (line: string) => void): Logger {
  const options: pino.LoggerOptions = {
    level: level === 'silent' ? 'error' : 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  // Without a writer, pino's own synchronous destination on stdout (what process.stdout.write was).
  const log = write ? pino(options, { write }) : pino(options);
  return {
    info: (message, fields) => (fields ? log.info(fields, message) : log.info(message)),
    error: (message, fields) => (fields ? log.error(fields, message) : log.error(message)),
  };
}
