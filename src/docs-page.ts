/**
 * The Redoc site at /docs: the page `make docs` builds (scripts/build-docs), one HTML file with
 * Redoc's bundle and the contract inline, served as static files; the page itself names the origin
 * each request reached in its servers and request samples (DocsOrigin).
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
import express, { type Request, type RequestHandler } from 'express';

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

/**
 * Where the page names the service: the page is built from the contract, whose server (and so
 * every request sample) is `from`; served, each names the origin the request reached instead
 * (`originOf`: PUBLIC_URL, or the request's Host: services/public-url.ts), as /v1/openapi.json does.
 */
export interface DocsOrigin {
  from: string;
  originOf: (req: Request) => string;
}

/** Pages rewritten for an origin, per built page: a few origins, never more than this many (the oldest goes). */
const ORIGINS_KEPT = 8;

export function docsPage(dir: string, origin?: DocsOrigin): RequestHandler {
  const root = path.resolve(dir);
  const files = express.static(root, { index: 'index.html' });
  const page = path.join(root, 'index.html');
  let built: { stamp: string; html: string; byOrigin: Map<string, { html: string; policy: string }> } | null = null;
  /** The page as `origin` reads it, with its policy; null when it is not built (yet). */
  const pageFor = (to: string): { html: string; policy: string } | null => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(page);
    } catch {
      return null;
    }
    const stamp = `${stat.mtimeMs}:${stat.size}`;
    if (built?.stamp !== stamp) built = { stamp, html: fs.readFileSync(page, 'utf8'), byOrigin: new Map() };
    let found = built.byOrigin.get(to);
    if (!found) {
      const html = origin && to !== origin.from ? built.html.replaceAll(origin.from, to) : built.html;
      found = { html, policy: docsPolicy(html) };
      if (built.byOrigin.size >= ORIGINS_KEPT) built.byOrigin.delete(built.byOrigin.keys().next().value as string);
      built.byOrigin.set(to, found);
    }
    return found;
  };
  return (req, res, next) => {
    const to = origin ? origin.originOf(req) : '';
    const served = pageFor(to);
    // Not built (yet): no script may run.
    res.setHeader('Content-Security-Policy', served?.policy ?? docsPolicy(''));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (served && (req.method === 'GET' || req.method === 'HEAD') && /\/(index\.html)?$/.test(req.originalUrl.split('?')[0] ?? '')) {
      res.type('html').send(served.html);
      return;
    }
    files(req, res, next);
  };
}
