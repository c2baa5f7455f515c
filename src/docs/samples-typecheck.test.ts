/**
 * The TypeScript request samples compile against the SDK they show (sdk/typescript): every
 * operation's sample, each in a function of one in-memory module, typechecked strictly with the
 * SDK's own sources (one program, so the SDK is checked once).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import type { CodeSample } from './code-samples.js';
import { servedDocument } from './enrich.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const checked = path.join(here, 'samples.check.ts');

function samplesModule(): string {
  const contract = loadApiContract();
  const paths = servedDocument(contract).paths as Record<string, Record<string, { 'x-codeSamples': CodeSample[] }>>;
  const lines = [
    `import { Oads, type BodyOf, type ParamsOf } from '../../sdk/typescript/src/index.js';`,
    // The check can fail: a parameter the operation does not have is an error, which this line expects.
    `// @ts-expect-error not_a_parameter is no parameter of listOptionTrades`,
    `export const wrong: ParamsOf<'listOptionTrades'> = { underlying_symbol: 'SPX', not_a_parameter: 1 };`,
    `export type Body = BodyOf<'createExport'>;`,
    `export const client = Oads;`,
  ];
  for (const op of contract.operations) {
    const sample = paths[op.path]![op.method]!['x-codeSamples'].find((s) => s.lang === 'TypeScript')!;
    const body = sample.source.split('\n').filter((line) => !line.startsWith('import '));
    lines.push(`export async function ${op.operationId}Sample(): Promise<void> {`, ...body, '}');
  }
  return lines.join('\n');
}

describe('the TypeScript request samples', () => {
  it('typecheck against sdk/typescript (@oads/sdk), parameter names and values included', () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
    };
    const text = samplesModule();
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.getSourceFile = (name, language, ...rest) =>
      path.resolve(name) === checked ? ts.createSourceFile(name, text, language) : getSourceFile(name, language, ...rest);
    host.fileExists = (name) => path.resolve(name) === checked || fileExists(name);
    const program = ts.createProgram([checked], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : null;
      const line = where ? text.split('\n')[where.line] : '';
      return `${d.file ? path.basename(d.file.fileName) : ''}:${where ? where.line + 1 : ''} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')} [${line?.trim()}]`;
    });
    expect(problems).toEqual([]);
  });
});
