import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadApiContract, type OperationSpec } from '../api-contract/openapi.js';
import { hasAtMostThreeDecimals, isCalendarDate } from '../formats.js';
import { parameterRuleProblems, QueryValidator } from '../parameters/index.js';
import type { CodeSample } from './code-samples.js';
import { examplesDir, REQUESTS_FILE, servedDocument, successStatus } from './enrich.js';

type Json = Record<string, unknown>;

const contract = loadApiContract();
const plainPaths = contract.document.paths as Record<string, Record<string, Json>>;
const servedPaths = servedDocument(contract).paths as Record<string, Record<string, Json>>;
const served = (op: OperationSpec): Json => servedPaths[op.path]![op.method]!;
const pointer = (...keys: string[]): string => `#/${keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** The contract's response validation as the service runs it: ajv 2020, the standard formats and the contract's own. */
function responseValidator(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('date', { type: 'string', validate: isCalendarDate });
  ajv.addFormat('strike', { type: 'number', validate: hasAtMostThreeDecimals });
  ajv.addSchema({ ...contract.document, $id: 'contract' });
  return ajv;
}

describe('response examples (openapi/examples, scripts/capture-examples.ts)', () => {
  it('gives every operation one example and the request it answered, and no other file', () => {
    const ids = contract.operations.map((o) => o.operationId).sort();
    const files = fs.readdirSync(examplesDir).filter((f) => f !== REQUESTS_FILE);
    expect(files.sort()).toEqual(ids.map((id) => `${id}.json`).sort());
    const requests = JSON.parse(fs.readFileSync(path.join(examplesDir, REQUESTS_FILE), 'utf8')) as Record<string, string>;
    expect(Object.keys(requests).sort()).toEqual(ids);
    for (const op of contract.operations)
      expect(requests[op.operationId], op.operationId).toMatch(new RegExp(`^${op.method.toUpperCase()} /v1/`));
  });

  it('validates each example against its success response schema', () => {
    const ajv = responseValidator();
    for (const op of contract.operations) {
      const status = successStatus(plainPaths[op.path]![op.method]!);
      const validate = ajv.compile({
        $ref: `contract${pointer('paths', op.path, op.method, 'responses', status, 'content', 'application/json', 'schema')}`,
      });
      const value = JSON.parse(fs.readFileSync(path.join(examplesDir, `${op.operationId}.json`), 'utf8')) as unknown;
      expect(validate(value) ? [] : validate.errors, op.operationId).toEqual([]);
    }
  });

  it('refuses an example that breaks its schema (the check above can fail)', () => {
    const ajv = responseValidator();
    const validate = ajv.compile({
      $ref: `contract${pointer('paths', '/v1/options/trades', 'get', 'responses', '200', 'content', 'application/json', 'schema')}`,
    });
    const trades = JSON.parse(fs.readFileSync(path.join(examplesDir, 'listOptionTrades.json'), 'utf8')) as { data: Json[] };
    expect(validate({ ...trades, data: [{ ...trades.data[0], side: 'sideways' }] })).toBe(false);
    expect(validate({ ...trades, data: [{ ...trades.data[0], date_of_expiry: '2026-11-31' }] })).toBe(false);
  });

  it('serves each example on its success response, and leaves the validated contract plain', () => {
    for (const op of contract.operations) {
      const status = successStatus(served(op));
      const media = ((served(op).responses as Json)[status] as { content: Record<string, Json> }).content['application/json']!;
      const example = (media.examples as Record<string, { summary: string; value: unknown }>).default!;
      expect(example.value, op.operationId).toEqual(JSON.parse(fs.readFileSync(path.join(examplesDir, `${op.operationId}.json`), 'utf8')));
      expect(example.summary).toMatch(/^The simulated market's answer to (GET|POST) \/v1\//);
      const plain = plainPaths[op.path]![op.method]!;
      expect(plain['x-codeSamples'], op.operationId).toBeUndefined();
      expect(JSON.stringify(plain.responses)).not.toContain('"examples":{"default"');
    }
  });
});

/** The names a sample passes to the SDK: the members of its `params` block, one a line. */
function sampleParams(source: string, opening: string, member: RegExp): string[] {
  const lines = source.split('\n');
  const start = lines.indexOf(opening);
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = member.exec(line);
    if (!m) break;
    names.push(m[1]!);
  }
  return names;
}

describe('request samples (x-codeSamples)', () => {
  const queries = new QueryValidator(contract);

  it('gives every operation curl, TypeScript and Python, each calling its route by the contract names', () => {
    for (const op of contract.operations) {
      const samples = served(op)['x-codeSamples'] as CodeSample[];
      expect(
        samples.map((s) => s.lang),
        op.operationId,
      ).toEqual(['curl', 'TypeScript', 'Python']);
      const snake = op.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      expect(samples[1]!.source).toMatch(/^import \{ Oads(, type (ParamsOf|BodyOf))? \} from '@oads\/sdk';$/m);
      expect(samples[1]!.source).toContain(`await oads.${op.operationId}(`);
      expect(samples[2]!.source).toContain('from oads_sdk import Oads');
      expect(samples[2]!.source).toContain(`oads.${snake}(`);
    }
  });

  it('names in curl only the parameters of the operation, on a URL of its route, that its own validation accepts', () => {
    for (const op of contract.operations) {
      const curl = (served(op)['x-codeSamples'] as CodeSample[])[0]!.source;
      const url = new URL(/'(http[^']+)'/.exec(curl)![1]!);
      const route = new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`);
      expect(url.pathname, op.operationId).toMatch(route);
      const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const query = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, v]));
      for (const name of Object.keys(query)) expect(names, `${op.operationId} ${name}`).toContain(name);
      for (const p of op.parameters.filter((p) => p.required && p.in === 'query'))
        expect(query, `${op.operationId} ${p.name}`).toHaveProperty(p.name);
      expect(queries.check(op.operationId, query), op.operationId).toMatchObject({ ok: true });
      expect(parameterRuleProblems(op.facts.parameterRules, query), op.operationId).toEqual([]);
      expect(curl.includes('Authorization: Bearer $OADS_API_KEY'), op.operationId).toBe(!op.facts.public);
      expect(curl.includes('-X POST'), op.operationId).toBe(op.method === 'post');
    }
  });

  it('names in the SDK calls only the parameters of the operation', () => {
    for (const op of contract.operations.filter((o) => o.operationId !== 'createExport')) {
      const [, ts, py] = served(op)['x-codeSamples'] as CodeSample[];
      const names = op.parameters.map((p) => p.name);
      const tsNames = sampleParams(ts!.source, `const params: ParamsOf<'${op.operationId}'> = {`, /^ {2}(\w+): .*,$/);
      const pyNames = sampleParams(py!.source, 'params = dict(', /^ {4}(\w+)=.*,$/);
      const given = tsNames.length > 0;
      expect(ts!.source.includes(`await oads.${op.operationId}(${given ? 'params' : ''});`), op.operationId).toBe(true);
      expect(
        py!.source.includes(`oads.${op.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}(${given ? '**params' : ''})`),
        op.operationId,
      ).toBe(true);
      expect(tsNames, op.operationId).toEqual(pyNames);
      for (const name of tsNames) expect(names, `${op.operationId} ${name}`).toContain(name);
      const curl = new URL(/'(http[^']+)'/.exec((served(op)['x-codeSamples'] as CodeSample[])[0]!.source)![1]!);
      const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(tsNames.sort(), op.operationId).toEqual([...pathNames, ...curl.searchParams.keys()].sort());
    }
  });

  it('sends createExport a body its target route accepts', () => {
    const op = contract.byId.get('createExport')!;
    const curl = (served(op)['x-codeSamples'] as CodeSample[])[0]!.source;
    const body = JSON.parse(/-d '([^']+)'/.exec(curl)![1]!) as { path: string; query: Record<string, string | number> };
    const target = contract.operations.find((o) => o.path === body.path)!;
    expect(target).toBeDefined();
    const { limit: _, ...query } = body.query;
    expect(queries.check(target.operationId, query)).toMatchObject({ ok: true });
    expect(parameterRuleProblems(target.facts.parameterRules, body.query)).toEqual([]);
  });
});
