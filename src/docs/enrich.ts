/**
 * The contract as it is served and documented: openapi/v1.yaml with, on each operation, its
 * success response's example (openapi/examples/<operationId>.json, captured from the simulated
 * market by scripts/capture-examples.ts) and its request samples (`x-codeSamples`, code-samples.ts).
 * The validators keep reading the plain contract: the examples are documentation, not rules, and
 * the validator would copy them into every operation's compiled document.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiContract, OperationSpec } from '../api-contract/openapi.js';
import { resolveRef } from '../json-ref.js';
import { codeSamples, sampleRequest, type SampleValue } from './code-samples.js';
import { withSdkInstall } from './sdk-install.js';

type Json = Record<string, unknown>;

export const examplesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi/examples');

/** The file of the requests the examples answered (scripts/capture-examples.ts writes it). */
export const REQUESTS_FILE = 'requests.json';

export interface ResponseExample {
  summary: string;
  value: unknown;
}

/** The success status of an operation: its first 2xx response (200, or 202 for createExport). */
export function successStatus(operation: Json): string {
  const status = Object.keys((operation.responses as Json | undefined) ?? {}).find((s) => /^2\d\d$/.test(s));
  if (!status) throw new Error(`${String(operation.operationId)} has no 2xx response`);
  return status;
}

/** The captured examples by operationId, each with a summary naming the request it answered. */
export function loadExamples(dir = examplesDir): Map<string, ResponseExample> {
  const examples = new Map<string, ResponseExample>();
  if (!fs.existsSync(dir)) return examples;
  const requestsFile = path.join(dir, REQUESTS_FILE);
  const requests = (fs.existsSync(requestsFile) ? JSON.parse(fs.readFileSync(requestsFile, 'utf8')) : {}) as Record<string, string>;
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith('.json') || file === REQUESTS_FILE) continue;
    const operationId = file.slice(0, -'.json'.length);
    const request = requests[operationId];
    examples.set(operationId, {
      summary: request ? `The simulated market's answer to ${request}` : 'An answer of the simulated market',
      value: JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as unknown,
    });
  }
  return examples;
}

/** The request body example of an operation: its schema's properties' first examples. */
function bodyExample(document: Json, operation: Json): SampleValue | undefined {
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  const media = content?.['application/json'] as Json | undefined;
  if (!media) return undefined;
  const schema = resolveRef(document, media.schema);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const body: Record<string, SampleValue> = {};
  for (const [name, property] of Object.entries(properties)) {
    const example = (property.examples as SampleValue[] | undefined)?.[0];
    if (example !== undefined) body[name] = example;
  }
  return body;
}

/**
 * A copy of the document with each operation's example and samples, and the SDKs' install section
 * in its description (sdk-install.ts); the objects on the way to them are copied, everything else is shared with `document` (which is left as it was).
 */
export function enrichDocument(document: Json, operations: readonly OperationSpec[], examples: ReadonlyMap<string, ResponseExample>): Json {
  const baseUrl = String(((document.servers as Json[] | undefined)?.[0]?.url as string | undefined) ?? 'http://127.0.0.1:8080');
  const documentSecured = Array.isArray(document.security) && document.security.length > 0;
  const paths: Record<string, Json> = { ...(document.paths as Record<string, Json>) };
  for (const operation of operations) {
    const item = { ...paths[operation.path] };
    const op = { ...(item[operation.method] as Json) };
    const security = op.security as unknown[] | undefined;
    const request = sampleRequest(operation, bodyExample(document, op));
    op['x-codeSamples'] = codeSamples(operation, request, { baseUrl, authenticated: security ? security.length > 0 : documentSecured });
    const example = examples.get(operation.operationId);
    if (example) {
      const status = successStatus(op);
      const responses = { ...(op.responses as Json) };
      const response = { ...resolveRef(document, responses[status]) };
      const content = { ...(response.content as Json) };
      content['application/json'] = {
        ...(content['application/json'] as Json),
        examples: { default: { summary: example.summary, value: example.value } },
      };
      response.content = content;
      responses[status] = response;
      op.responses = responses;
    }
    item[operation.method] = op;
    paths[operation.path] = item;
  }
  const info = document.info as Json;
  return {
    ...document,
    info: { ...info, description: withSdkInstall((info.description as string | undefined) ?? '', String(info.version)) },
    paths,
  };
}

/**
 * The document served at /v1/openapi.json and built into the docs page: the contract with each
 * operation's response example and request samples. Built by the route and by `make docs`
 * (scripts/docs-document.ts), not when the contract loads. Given an origin (the route gives the
 * one the request reached, or PUBLIC_URL: services/public-url.ts), its `servers` and the samples
 * name that origin instead of the contract's local address, so a client generated from the
 * served document calls the service it came from.
 */
export function servedDocument(contract: ApiContract, dir = examplesDir, origin?: string): Json {
  const document =
    origin === undefined ? contract.document : { ...contract.document, servers: [{ url: origin, description: SERVED_SERVER }] };
  return enrichDocument(document, contract.operations, loadExamples(dir));
}

/** The description of the served document's one server. */
export const SERVED_SERVER = 'This service: the origin this document was requested at, or the PUBLIC_URL it is configured with.';
