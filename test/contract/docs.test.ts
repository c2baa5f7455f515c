import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

describe('the documentation site', () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-docs-'));
    // As `make docs` builds it: from the contract as served, with examples and request samples.
    await promisify(execFile)('bash', ['scripts/build-docs', dir, path.join(dir, 'openapi.json')]);
    service = await startTestService({ docsDir: dir });
  });
  afterAll(async () => service.stop());

  it('builds it from a document Redocly finds valid, response examples included (no-invalid-media-type-examples)', async () => {
    // build-docs does not lint: this is the check of what the page shows, examples and samples added.
    await expect(promisify(execFile)('npx', ['redocly', 'lint', path.join(dir, 'openapi.json')])).resolves.toBeDefined();
  });

  it('serves Redoc at /docs with the bundle inline (nothing fetched from the internet)', async () => {
    const r = await fetch(`${service.url}/docs/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    const html = await r.text();
    expect(html).toContain('Options Analytics Data Service');
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    // Redoc's telemetry from readers' browsers is off (scripts/build-docs).
    expect(html).toContain('"disableTelemetry":true');
    expect(html).not.toContain('"disableTelemetry":false');
    expect(html).toContain('listOptionTrades');
    // The request samples and the response examples are in the page's data.
    expect(html).toContain('x-codeSamples');
    expect(html).toContain('@oads/sdk');
    expect(html).toContain('from oads_sdk import Oads');
    expect(html).toContain("The simulated market's answer to GET /v1/options/trades");
  });

  it('compresses the page (2.7 MB) for a client that accepts it, and answers HEAD with the same headers', async () => {
    const plain = await fetch(`${service.url}/docs/`, { headers: { 'accept-encoding': 'identity' } });
    const plainBytes = (await plain.arrayBuffer()).byteLength;
    expect(plainBytes).toBeGreaterThan(service.config.compressionThresholdBytes);
    expect(plain.headers.get('content-encoding')).toBeNull();
    for (const encoding of ['gzip', 'br']) {
      const r = await fetch(`${service.url}/docs/`, { headers: { 'accept-encoding': encoding } });
      expect(r.headers.get('content-encoding')).toBe(encoding);
      // fetch decodes the body: the page is the same.
      expect((await r.arrayBuffer()).byteLength).toBe(plainBytes);
      const head = await fetch(`${service.url}/docs/`, { method: 'HEAD', headers: { 'accept-encoding': encoding } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-encoding')).toBe(encoding);
      expect(head.headers.get('content-type')).toBe(r.headers.get('content-type'));
    }
  });

  it('sends / to the documentation', async () => {
    const r = await fetch(`${service.url}/`, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('/docs/');
  });
});
