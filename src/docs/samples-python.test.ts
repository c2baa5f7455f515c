/**
 * The Python request samples run against the SDK they show (sdk/python, oads_sdk): each is executed
 * with the SDK's Oads whose one request function (`call`) records instead of sending, so a keyword
 * the method does not take fails as it would for a user (TypeError), and what reached the SDK is
 * compared with the sample's curl request. One Python process for all, about half a second.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import type { CodeSample } from './code-samples.js';
import { servedDocument } from './enrich.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const RUNNER = `
import contextlib, io, json, os, sys
import oads_sdk

calls = []

class Recording(oads_sdk.Oads):
    def call(self, operation, body=None, /, **params):
        calls.append({"operation": operation, "body": body, "params": {k: v for k, v in params.items() if v is not None}})
        return {"data": [], "pagination": {"next_cursor_id": None}}

    def run_export(self, body, **options):
        calls.append({"operation": "run_export", "body": dict(body), "params": {}})
        return {}

oads_sdk.Oads = Recording
os.environ["OADS_API_KEY"] = "oads_sample"
out = {}
for operation_id, source in json.load(sys.stdin).items():
    calls.clear()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, operation_id, "exec"), {"__name__": "sample"})
        out[operation_id] = {"calls": list(calls)}
    except Exception as error:
        out[operation_id] = {"error": f"{type(error).__name__}: {error}"}
# The check can fail: a keyword the method does not take is refused.
try:
    oads_sdk.Oads(api_key="oads_sample").list_option_trades(underlying_symbol="SPX", not_a_parameter=1)
    out["control"] = "accepted"
except TypeError as error:
    out["control"] = f"TypeError: {error}"
json.dump(out, sys.stdout, default=str)
`;

interface Recorded {
  calls?: { operation: string; body: unknown; params: Record<string, unknown> }[];
  error?: string;
}

describe('the Python request samples', () => {
  it('run against sdk/python (oads_sdk), calling the operation with the parameters curl sends', () => {
    const contract = loadApiContract();
    const paths = servedDocument(contract).paths as Record<string, Record<string, { 'x-codeSamples': CodeSample[] }>>;
    const samples = (id: string, lang: string): string => {
      const op = contract.byId.get(id as never)!;
      return paths[op.path]![op.method]!['x-codeSamples'].find((s) => s.lang === lang)!.source;
    };
    const ids = contract.operations.map((o) => o.operationId);
    const output = execFileSync(path.join(root, '.venv/bin/python'), ['-c', RUNNER], {
      input: JSON.stringify(Object.fromEntries(ids.map((id) => [id, samples(id, 'Python')]))),
      env: { PYTHONPATH: path.join(root, 'sdk/python') },
      cwd: root,
    });
    const { control, ...recorded } = JSON.parse(output.toString()) as Record<string, Recorded> & { control: string };
    expect(control).toMatch(/^TypeError: .*not_a_parameter/);
    for (const op of contract.operations) {
      const got = recorded[op.operationId] as Recorded;
      expect(got.error, op.operationId).toBeUndefined();
      const snake = op.operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const curl = samples(op.operationId, 'curl');
      const url = new URL(/'(http[^']+)'/.exec(curl)![1]!);
      const [first, ...rest] = got.calls!;
      expect(first?.operation, op.operationId).toBe(snake);
      if (op.operationId === 'createExport') {
        expect(first?.body).toEqual(JSON.parse(/-d '([^']+)'/.exec(curl)![1]!));
        expect(rest.map((c) => c.operation)).toEqual(['run_export']);
        continue;
      }
      // Path parameters are in the URL's path, query parameters in its query, lists comma-joined.
      const sent = Object.fromEntries(
        Object.entries(first!.params).filter(([name]) => op.parameters.some((p) => p.name === name && p.in === 'query')),
      );
      expect(
        Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)])),
        op.operationId,
      ).toEqual(Object.fromEntries(url.searchParams));
      for (const p of op.parameters.filter((q) => q.in === 'path'))
        expect(url.pathname, op.operationId).toContain(`/${String(first!.params[p.name])}`);
      expect(rest.length, op.operationId).toBe(op.facts.paginated ? 1 : 0);
    }
  });
});
