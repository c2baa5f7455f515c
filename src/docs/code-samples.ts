/**
 * Request samples of an operation (Redoc's `x-codeSamples`): curl and the two SDKs (`@oads/sdk`,
 * `oads_sdk`, the surface of issue 21 §2), written from one sample request built out of the
 * operation's own parameters and their `examples`, so a sample can name no parameter the operation
 * does not have. The sample request takes the required parameters, the first choice of each
 * `exactly_one_of` rule, and `date`, `limit` and one list parameter (to show the comma-separated
 * form) when the operation has them and no other rule names them.
 */
import type { OperationSpec, ParameterSpec } from '../api-contract/openapi.js';

export type SampleValue = string | number | boolean | SampleValue[] | { [key: string]: SampleValue };

export interface SampleRequest {
  path: Record<string, SampleValue>;
  query: Record<string, SampleValue>;
  /** The JSON body of an operation that takes one (createExport). */
  body?: SampleValue;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

type Json = Record<string, unknown>;

/** The first example of a parameter, else of its schema, else its default or first allowed value. */
export function exampleOf(parameter: Pick<ParameterSpec, 'schema'> & { examples?: unknown }): SampleValue | undefined {
  const schema = parameter.schema;
  const items = schema.items as Json | undefined;
  const candidates: unknown[] = [
    (parameter.examples as unknown[] | undefined)?.[0],
    (schema.examples as unknown[] | undefined)?.[0],
    schema.default,
    (schema.enum as unknown[] | undefined)?.[0],
  ];
  if (items) candidates.push(firstOf(items.examples), firstOf(items.enum));
  for (const candidate of candidates) {
    if (candidate === undefined || candidate === null) continue;
    if (items && !Array.isArray(candidate)) return [candidate as SampleValue];
    return candidate as SampleValue;
  }
  return undefined;
}

function firstOf(list: unknown): unknown {
  return Array.isArray(list) ? list[0] : undefined;
}

/** Every parameter a declared rule names. */
function namedByRules(operation: OperationSpec): Set<string> {
  const names = new Set<string>();
  for (const rule of operation.facts.parameterRules) {
    switch (rule.kind) {
      case 'exactly_one_of':
      case 'at_most_one_of':
        rule.groups.flat().forEach((n) => names.add(n));
        break;
      case 'not_above':
        names.add(rule.low).add(rule.high);
        break;
      case 'values_when':
      case 'only_when':
      case 'default_when':
        names.add(rule.parameter);
        rule.when.forEach((c) => names.add(c.parameter));
        break;
      case 'within_one_session':
      case 'within_globex_session':
      case 'range_at_most_days':
        // A window's parameters keep any one of them given alone (a feed's date, say): the sample
        // may name them as it names a free parameter.
        break;
    }
  }
  return names;
}

/** The sample request of an operation; `body` is the request body's example, if it takes one. */
export function sampleRequest(operation: OperationSpec, body?: SampleValue): SampleRequest {
  const ruled = namedByRules(operation);
  const wanted = new Set(operation.parameters.filter((p) => p.required).map((p) => p.name));
  for (const rule of operation.facts.parameterRules) {
    if (rule.kind === 'exactly_one_of') rule.groups[0]?.forEach((n) => wanted.add(n));
  }
  const free = operation.parameters.filter((p) => p.in === 'query' && !p.required && !ruled.has(p.name));
  for (const name of ['date', 'limit']) if (free.some((p) => p.name === name)) wanted.add(name);
  const list = free.find((p) => p.schema.type === 'array' && exampleOf(p) !== undefined);
  if (list) wanted.add(list.name);
  const request: SampleRequest = { path: {}, query: {} };
  // In the contract's order, as a reader of the parameter list meets them.
  for (const parameter of operation.parameters) {
    if (!wanted.has(parameter.name) || parameter.in === 'header') continue;
    // A parameter without any example is left out (src/docs/enrich.test.ts fails on a required one)
    // rather than stopping the service at start.
    const value = exampleOf(parameter);
    if (value !== undefined) request[parameter.in][parameter.name] = value;
  }
  if (body !== undefined) request.body = body;
  return request;
}

function scalarText(value: SampleValue | undefined): string {
  if (value === undefined || typeof value === 'object') throw new Error(`not a parameter value: ${JSON.stringify(value)}`);
  return String(value);
}

/** The URL of a sample request: path parameters filled in, lists comma-separated (`explode: false`). */
export function sampleUrl(baseUrl: string, operation: OperationSpec, request: SampleRequest): string {
  const filled = operation.path.replace(/\{(\w+)\}/g, (template: string, name: string) =>
    request.path[name] === undefined ? template : encodeURIComponent(scalarText(request.path[name])),
  );
  const query = Object.entries(request.query)
    .map(
      ([name, value]) =>
        `${name}=${(Array.isArray(value) ? value : [value])
          .map(scalarText)
          .map((v) => encodeURIComponent(v))
          .join(',')}`,
    )
    .join('&');
  return `${baseUrl.replace(/\/$/, '')}${filled}${query ? `?${query}` : ''}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function tsLiteral(value: SampleValue): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  const members = Object.entries(value).map(([k, v]) => `${IDENTIFIER.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v)}`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}

/** An object literal with one member a line. */
function tsBlock(value: Record<string, SampleValue>): string {
  return `{\n${Object.entries(value)
    .map(([k, v]) => `  ${IDENTIFIER.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v)},\n`)
    .join('')}}`;
}

/** A dict literal with one member a line. */
function pyBlock(value: Record<string, SampleValue>): string {
  return `{\n${Object.entries(value)
    .map(([k, v]) => `    ${JSON.stringify(k)}: ${pyLiteral(v)},\n`)
    .join('')}}`;
}

function pyLiteral(value: SampleValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`)
    .join(', ')}}`;
}

function snakeCase(operationId: string): string {
  return operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** curl, TypeScript and Python samples of one operation's sample request. */
export function codeSamples(
  operation: OperationSpec,
  request: SampleRequest,
  options: { baseUrl: string; authenticated: boolean },
): CodeSample[] {
  const url = sampleUrl(options.baseUrl, operation, request);
  const curl = [`curl -sS ${shellQuoted(url)}`];
  if (operation.method === 'post') curl.push(`-X POST`);
  if (options.authenticated) curl.push(`-H "Authorization: Bearer $OADS_API_KEY"`);
  if (request.body !== undefined) curl.push(`-H 'Content-Type: application/json'`, `-d ${shellQuoted(JSON.stringify(request.body))}`);

  const params = { ...request.path, ...request.query };
  const method = operation.operationId;
  const pyMethod = snakeCase(method);
  const hasParams = Object.keys(params).length > 0;
  const typeImport = request.body !== undefined ? ', type BodyOf' : hasParams ? ', type ParamsOf' : '';
  const ts = [
    `import { Oads${typeImport} } from '@oads/sdk';`,
    '',
    `const oads = new Oads({`,
    `  apiKey: process.env.OADS_API_KEY!,`,
    `  baseUrl: '${options.baseUrl}',`,
    `});`,
  ];
  const py = [
    'import os',
    '',
    'from oads_sdk import Oads',
    '',
    'oads = Oads(',
    '    api_key=os.environ["OADS_API_KEY"],',
    `    base_url="${options.baseUrl}",`,
    ')',
  ];
  if (request.body !== undefined && typeof request.body === 'object' && !Array.isArray(request.body)) {
    ts.push(`const exportRequest: BodyOf<'${method}'> = ${tsBlock(request.body)};`, `const job = await oads.${method}(exportRequest);`);
    py.push(`export_request = ${pyBlock(request.body)}`, `job = oads.${pyMethod}(export_request)`);
    if (method === 'createExport') {
      ts.push('', '// Or create, poll until ready and download, in one call:', `const file = await oads.runExport(exportRequest);`);
      py.push('', '# Or create, poll until ready and download, in one call:', `data = oads.run_export(export_request)`);
    }
  } else if (hasParams) {
    ts.push(`const params: ParamsOf<'${method}'> = ${tsBlock(params)};`, `const result = await oads.${method}(params);`);
    py.push(
      `params = dict(\n${Object.entries(params)
        .map(([k, v]) => `    ${k}=${pyLiteral(v)},\n`)
        .join('')})`,
      `result = oads.${pyMethod}(**params)`,
    );
  } else {
    ts.push(`const result = await oads.${method}();`);
    py.push(`result = oads.${pyMethod}()`);
  }
  if (operation.facts.paginated) {
    ts.push(
      '',
      '// Every page, following pagination.next_cursor_id until it is null:',
      `for await (const page of oads.pages('${method}', params)) {`,
      '  console.log(page.data.length);',
      '}',
    );
    py.push(
      '',
      '# Every page, following pagination.next_cursor_id until it is None:',
      `for page in oads.pages("${pyMethod}", **params):`,
      '    print(len(page["data"]))',
    );
  }
  ts.push('', '// A non-2xx answer throws OadsError: status, code, message,', '// details and retryAfter (429 and 503).');
  py.push('', '# A non-2xx answer raises OadsError: status, code, message,', '# details and retry_after (429 and 503).');
  return [
    { lang: 'curl', label: 'curl', source: curl.join(' \\\n  ') },
    { lang: 'TypeScript', label: 'TypeScript (@oads/sdk)', source: ts.join('\n') },
    { lang: 'Python', label: 'Python (oads_sdk)', source: py.join('\n') },
  ];
}
