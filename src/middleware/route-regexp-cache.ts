/**
 * express-openapi-validator compiles every route of the contract with path-to-regexp on every
 * request to find the operation (its `lookupRoute`), which costs more than the rest of validation.
 * path-to-regexp is a pure function of (path, options), so memoising it on the module instance the
 * validator uses changes nothing but the cost. Applied once, before the validator is created.
 */
import { createRequire } from 'node:module';

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => unknown;

let applied = false;

export function memoiseValidatorRouteRegexps(): void {
  if (applied) return;
  applied = true;
  const require = createRequire(import.meta.url);
  const modulePath = require.resolve('path-to-regexp', { paths: [require.resolve('express-openapi-validator')] });
  const pathToRegexpModule = require(modulePath) as { pathToRegexp: Compile };
  const compile = pathToRegexpModule.pathToRegexp;
  const cache = new Map<string, unknown>();
  pathToRegexpModule.pathToRegexp = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    const key = `${options?.sensitive ? 1 : 0}${options?.strict ? 1 : 0}${options?.end === false ? 0 : 1}${path}`;
    let compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = compile(path, options);
      cache.set(key, compiled);
    }
    return compiled;
  };
}
