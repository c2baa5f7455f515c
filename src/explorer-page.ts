/**
 * The explorer page at /explorer: static files built from explorer/ by scripts/build-explorer.ts
 * (an HTML page, one bundled script with uPlot inside, one stylesheet; nothing fetched from another
 * origin). The page asks for the user's API key and calls the /v1 routes itself, so this route needs
 * no key and knows nothing of the API.
 *
 * Its responses carry a Content-Security-Policy that allows only this origin's own script, styles
 * and requests: a page that holds an API key must not run injected or third-party code.
 */
import path from 'node:path';
import express, { type RequestHandler } from 'express';

/** The folder `make run` builds the page into, relative to the working directory. */
export const EXPLORER_BUILD_DIR = 'build/explorer';

const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function explorerPage(dir: string): RequestHandler {
  const files = express.static(path.resolve(dir), { index: 'index.html' });
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    files(req, res, next);
  };
}
