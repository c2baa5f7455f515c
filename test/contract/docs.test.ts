import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
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
  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

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

  it('renders in Chromium under its Content-Security-Policy, fetching nothing from another origin, search included', async () => {
    const r = await fetch(`${service.url}/docs/`);
    const policy = r.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(policy).not.toContain('unsafe-eval');
    // Redocly's logo came from cdn.redoc.ly (scripts/build-docs replaces it).
    expect(await r.text()).not.toContain('cdn.redoc.ly');

    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const origin = new URL(service.url).origin;
      const trouble: string[] = [];
      await context.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`.trimEnd()),
        ),
      );
      const page = context.pages()[0] ?? (await context.newPage());
      context.on(
        'request',
        (q) => new URL(q.url()).origin !== origin && !/^(data|blob):/.test(q.url()) && trouble.push(`elsewhere: ${q.url()}`),
      );
      page.on('pageerror', (e) => trouble.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        // The browser asks for /favicon.ico by itself; the service has none.
        if (m.location().url === `${origin}/favicon.ico`) return;
        // Redoc's search probes whether it may build a worker from a string (Function(...), in a
        // try/catch) and indexes on the page's own thread when the policy says no: expected.
        if (m.text() === 'CSP violation: script-src eval') return;
        trouble.push(`console: ${m.text()}`);
      });
      await page.goto(`${service.url}/docs/`, { waitUntil: 'networkidle' });
      await page.getByText('Getting started', { exact: true }).first().click();
      await page.getByRole('heading', { name: 'Getting started' }).waitFor({ state: 'visible', timeout: 15_000 });
      // Search (its index built on the page's thread) finds the trades route.
      await page.getByText('Search Ctrl+K').first().click();
      await page.getByPlaceholder('Search docs...').fill('option trades');
      await page.getByText('List classified option prints').first().waitFor({ state: 'visible', timeout: 15_000 });
      expect(trouble).toEqual([]);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });
});
