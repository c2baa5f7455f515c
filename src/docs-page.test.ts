import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { docsPage, docsPolicy, inlineScriptHashes } from './docs-page.js';

describe('the docs page policy', () => {
  it("hashes each inline script as CSP's script-src does (MDN's published example)", () => {
    // MDN, Content-Security-Policy script-src, "Unsafe inline script": the hash of alert('Hello, world.');
    expect(inlineScriptHashes("<p>x</p><script>alert('Hello, world.');</script>")).toEqual([
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
    ]);
  });

  it('leaves out scripts loaded by src, and names a script repeated once', () => {
    const html = '<script src="/a.js"></script><script type="module">1</script><SCRIPT>1</SCRIPT>';
    expect(inlineScriptHashes(html)).toHaveLength(1);
  });

  it('allows no other origin and no eval', () => {
    const policy = docsPolicy('<script>1</script>');
    expect(policy).toMatch(/^default-src 'none'; script-src 'self' 'sha256-[^']+';/);
    expect(policy).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(docsPolicy('')).toContain("script-src 'self';");
  });
});

describe('the docs page', () => {
  it('names the origin each request reached in place of the built one, with the policy of the page it sends', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-docs-page-'));
    const built =
      '<p>x</p><script>const state = {"servers":[{"url":"http://127.0.0.1:8080"}],"sample":"curl http://127.0.0.1:8080/v1/status"};</script>';
    fs.writeFileSync(path.join(dir, 'index.html'), built);
    fs.writeFileSync(path.join(dir, 'other.txt'), 'http://127.0.0.1:8080');
    const app = express();
    app.use('/docs', docsPage(dir, { from: 'http://127.0.0.1:8080', originOf: (req) => `http://${String(req.headers.host)}` }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const get = async (url: string, host: string): Promise<{ status: number; body: string; policy: string }> =>
      await new Promise((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: url, headers: { host } }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, policy: String(res.headers['content-security-policy']) }));
          })
          .on('error', reject);
      });
    try {
      for (const url of ['/docs/', '/docs/index.html']) {
        const page = await get(url, 'docs.example.test:9443');
        expect(page.status).toBe(200);
        expect(page.body).toBe(built.replaceAll('http://127.0.0.1:8080', 'http://docs.example.test:9443'));
        // The policy allows the script as sent (its hash is the rewritten script's).
        expect(page.policy).toBe(docsPolicy(page.body));
        expect(page.policy).not.toBe(docsPolicy(built));
      }
      const local = await get('/docs/', '127.0.0.1:8080');
      expect(local.body).toBe(built);
      expect(local.policy).toBe(docsPolicy(built));
      // Other files as built; /docs still goes to /docs/.
      expect((await get('/docs/other.txt', 'docs.example.test:9443')).body).toBe('http://127.0.0.1:8080');
      expect((await get('/docs', 'docs.example.test:9443')).status).toBe(301);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
