/**
 * Structured JSON logs, one object per line on stdout. Two levels: 'silent' drops info lines but
 * still writes errors, and the writer can be replaced, so a test harness runs silent and collects
 * the errors it meets (test/support/service.ts).
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: 'silent' | 'info', write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const emit = (severity: string, message: string, fields?: Record<string, unknown>) => {
    if (level === 'silent' && severity !== 'error') return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: severity, msg: message, ...fields })}\n`);
  };
  return {
    info: (message, fields) => emit('info', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}
