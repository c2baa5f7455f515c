/**
 * The Redoc site at /docs: the page `make docs` builds (scripts/build-docs), one HTML file with
 * Redoc's bundle and the contract inline, served as static files.
 *
 * Its responses carry a Content-Security-Policy that lets the page run only its own inline scripts,
 * named by their SHA-256 (read from the built page, again whenever the file changes: `make run`
 * builds it in the background while the service starts), and reach only this origin: a reader's
 * browser fetches nothing from elsewhere. Redoc needs inline styles (its styled components), data:
 * images and fonts, and blob: workers (its search index).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler } from 'express';

const FIXED = [
  "default-src 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
];

/** The `script-src` source of each inline script of an HTML page, as 'sha256-<base64>'. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(m[1] ?? '')) continue;
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(m[2] ?? '', 'utf8')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}

/** The page's policy: its own inline scripts by hash, nothing from another origin. */
export function docsPolicy(html: string): string {
  return [FIXED[0], `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trimEnd(), ...FIXED.slice(1)].join('; ');
}

export function docsPage(dir: string): RequestHandler {
  const root = path.resolve(dir);
  const files = express.static(root, { index: 'index.html' });
  let cached: { stamp: string; policy: string } | null = null;
  const policy = (): string => {
    const page = path.join(root, 'index.html');
    try {
      const stat = fs.statSync(page);
      const stamp = `${stat.mtimeMs}:${stat.size}`;
      if (cached?.stamp !== stamp) cached = { stamp, policy: docsPolicy(fs.readFileSync(page, 'utf8')) };
      return cached.policy;
    } catch {
      // Not built (yet): no script may run.
      return docsPolicy('');
    }
  };
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', policy());
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    files(req, res, next);
  };
}
