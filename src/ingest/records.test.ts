import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecordBatches, RecordError } from './records.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fileOf(content: string): string {
  n += 1;
  const file = path.join(dir, `f${n}.csv`);
  fs.writeFileSync(file, content);
  return file;
}

/** Records as `line:a` and rejects as `line!reason`. */
async function read(file: string, maxLineLength?: number): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readRecordBatches(file, undefined, undefined, maxLineLength)) {
    for (const r of batch) out.push(r instanceof RecordError ? `${r.line}!${r.message}` : `${r.line}:${r.fields.a ?? ''}`);
  }
  return out;
}

const CHUNK = 1 << 20;

describe('readRecordBatches: long lines', () => {
  it('rejects a line longer than the cap naming it, and reads the lines after it with their numbers', async () => {
    const file = fileOf(`a,b\n1,x\n${'9'.repeat(500)},y\n3,z\n`);
    expect(await read(file, 100)).toEqual(['2:1', '3!line longer than 100 characters', '4:3']);
  });

  it('drops a long line read over several chunks, keeping no more than the cap of it', async () => {
    const file = fileOf(`a,b\n${'7'.repeat(3 * CHUNK + 17)},y\n5,z\n6,w`);
    expect(await read(file, 1000)).toEqual(['2!line longer than 1,000 characters', '3:5', '4:6']);
  });

  it('ends a dropped line at a \\r\\n split between two chunks, and at a bare \\r', async () => {
    // The first chunk ends with the \r of the long line's \r\n.
    const crlf = fileOf(`a,b\r\n${'7'.repeat(CHUNK - 6)}\r\n5,z\r\n`);
    expect(await read(crlf, 1000)).toEqual(['2!line longer than 1,000 characters', '3:5']);
    const cr = fileOf(`a,b\r${'7'.repeat(CHUNK - 5)}\r5,z\r6,w\r`);
    expect(await read(cr, 1000)).toEqual(['2!line longer than 1,000 characters', '3:5', '4:6']);
  });

  it('rejects a file without any line break as one long line', async () => {
    const file = fileOf(`a,b\n${'x'.repeat(5 * CHUNK)}`);
    expect(await read(file, 1000)).toEqual(['2!line longer than 1,000 characters']);
    expect(await read(fileOf('x'.repeat(2 * CHUNK)), 1000)).toEqual(['1!line longer than 1,000 characters']);
  });

  it('keeps lines at the cap', async () => {
    const file = fileOf(`a,b\n${'8'.repeat(98)},y\n`);
    expect(await read(file, 100)).toEqual([`2:${'8'.repeat(98)}`]);
  });
});

describe('readRecordBatches: control characters', () => {
  it('rejects a CSV line with a NUL or another C0 control, naming the line and column; a tab is a character of a field', async () => {
    const file = fileOf('a,b\n1,ok\n2,\0\0\n3,x\x1by\n4,\tt\n5,\x7f\n');
    expect(await read(file)).toEqual([
      '2:1',
      '3!column b contains control character U+0000',
      '4!column b contains control character U+001B',
      '5:4',
      '6!column b contains control character U+007F',
    ]);
  });

  it('rejects an NDJSON record whose value holds a control character once unescaped', async () => {
    const file = fileOf('{"a":"1","b":"ok"}\n{"a":"2","b":"\\u0000\\u0000"}\n{"a":"3","b":"t\\tt"}\n');
    expect(await read(file)).toEqual(['1:1', '2!column b contains control character U+0000', '3:3']);
  });
});

describe('readRecordBatches: a file that cannot be opened', () => {
  it('rejects with the error of the open (no stream error left unheard to end the process)', async () => {
    await expect(read(path.join(dir, 'missing.csv'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
