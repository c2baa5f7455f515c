/**
 * Validation at the edge, once per request, in three steps: the parameter names (a list given
 * more than once is written as one comma-joined parameter, parameters/list-forms.ts; any other
 * parameter given twice is 400 at once; unknown ones are kept so that one 400 names them with the
 * validator's findings),
 * express-openapi-validator for the operation's own schemas (request, and in tests response,
 * validation), then the rules between parameters the contract declares (src/parameters, applied by
 * parameter-rules.ts).
 *
 * Each operation gets its own validator built from a copy of the contract that holds only that
 * operation, with its parameters written out in place of their `$ref`s: the validator then has one
 * route to find and no reference to follow per request. Its route lookup compiles every path with
 * path-to-regexp on each request; path-to-regexp is a pure function of (path, options), so it is
 * memoised on the module instance the validator uses, which changes nothing but the cost.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { withParametersInline, type OperationSpec } from '../api-contract/openapi.js';
import { refKeys, type Json } from '../json-ref.js';
import { invalidParameters, type ErrorDetail } from '../errors.js';
import { echoed, numericTextProblem, numericTypeOf, type NumericType } from '../formats.js';
import { joinRepeatedLists, PARAMETER_FORMATS } from '../parameters/index.js';
import type { ServiceDeps } from '../service.js';
import { parameterRules } from './parameter-rules.js';

type Compile = (path: string, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => unknown;

let memoised = false;

function memoiseValidatorRouteRegexps(): void {
  if (memoised) return;
  memoised = true;
  const require = createRequire(import.meta.url);
  memoiseSchemaValidator(require);
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

type SchemaValidatorClass = new (options: { version: string; validateApiSpec: boolean }) => unknown;

/**
 * Each validator's start builds an OpenAPISchemaValidator, compiling the OpenAPI schema with ajv
 * even when it is never used (validateApiSpec false, as here: it would check the
 * contract itself). The instance depends only on its options and holds no state between calls,
 * so one per options is shared by the operations' validators.
 */
function memoiseSchemaValidator(require: NodeJS.Require): void {
  const modulePath = path.join(path.dirname(require.resolve('express-openapi-validator')), 'framework/openapi.schema.validator.js');
  const schemaValidatorModule = require(modulePath) as { OpenAPISchemaValidator: SchemaValidatorClass };
  const Original = schemaValidatorModule.OpenAPISchemaValidator;
  const instances = new Map<string, unknown>();
  schemaValidatorModule.OpenAPISchemaValidator = function SharedSchemaValidator(options: { version: string; validateApiSpec: boolean }) {
    const key = `${options.version} ${options.validateApiSpec}`;
    let instance = instances.get(key);
    if (instance === undefined) {
      instance = new Original(options);
      instances.set(key, instance);
    }
    return instance;
  } as unknown as SchemaValidatorClass;
}

/** The query string of a request as sent. */
export function searchOf(originalUrl: string): string {
  const at = originalUrl.indexOf('?');
  return at === -1 ? '' : originalUrl.slice(at + 1);
}

interface QueryParameters {
  known: Set<string>;
  /** The numeric parameters: their type, and whether they are lists (comma-separated). */
  numeric: Map<string, { type: NumericType; list: boolean }>;
  /** The list parameters (`type: array`), which may be given once comma-separated or repeated. */
  lists: Set<string>;
}

const queryParametersOf = new WeakMap<OperationSpec, QueryParameters>();

function queryParameters(operation: OperationSpec): QueryParameters {
  let found = queryParametersOf.get(operation);
  if (found === undefined) {
    const query = operation.parameters.filter((p) => p.in === 'query');
    const numeric = new Map(
      query.flatMap((p) => {
        const numericType = numericTypeOf(p.schema);
        return numericType ? [[p.name, numericType] as const] : [];
      }),
    );
    const lists = new Set(query.filter((p) => p.schema.type === 'array').map((p) => p.name));
    found = { known: new Set(query.map((p) => p.name)), numeric, lists };
    queryParametersOf.set(operation, found);
  }
  return found;
}

/**
 * Writes a list parameter given more than once (`side=ask&side=above_ask`) as the one
 * comma-separated parameter the contract declares (`side=ask,above_ask`), in the URL the validator
 * and express's req.query read; names every other parameter that is given twice or not in the
 * contract, and every numeric one whose text is not a plain decimal (formats.ts numericTextProblem),
 * before the validator's coercion reads `1e309` as Infinity or `0x10` as 16. Repeated ones stop
 * the request here; the others are kept so the validator's findings can be added to them. Names are
 * echoed cut (formats.ts echoed). req.originalUrl keeps the form sent (the next page's link too).
 */
export const checkParameterNames: RequestHandler = (req, res, next) => {
  const search = searchOf(req.originalUrl);
  const operation = res.locals.operation as OperationSpec | null;
  if (search === '' || !operation) {
    next();
    return;
  }
  const { known, numeric, lists } = queryParameters(operation);
  const joined = joinRepeatedLists(search, lists);
  if (joined !== null) req.url = `${req.url.slice(0, req.url.indexOf('?'))}?${joined}`;
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  const badNumbers: ErrorDetail[] = [];
  for (const [name, value] of new URLSearchParams(search)) {
    if (seen.has(name) && !lists.has(name)) repeated.add(name);
    seen.add(name);
    if (!known.has(name)) unknown.add(name);
    const numericType = numeric.get(name);
    if (numericType === undefined || repeated.has(name)) continue;
    const problem = (numericType.list ? value.split(',') : [value])
      .map((text) => numericTextProblem(numericType.type, text))
      .find((p) => p !== null);
    if (problem) badNumbers.push({ parameter: name, message: problem });
  }
  const problems = [
    ...[...repeated].map((parameter) => ({ parameter: echoed(parameter), message: 'given more than once' })),
    ...[...unknown].filter((p) => !repeated.has(p)).map((parameter) => ({ parameter: echoed(parameter), message: 'unknown parameter' })),
    ...badNumbers.filter((d) => !repeated.has(d.parameter)),
  ];
  if (repeated.size > 0) {
    next(invalidParameters(problems));
    return;
  }
  if (problems.length > 0) res.locals.parameterProblems = problems;
  next();
};

const rejectUnknownParameters: RequestHandler = (_req, res, next) => {
  const problems = res.locals.parameterProblems as ErrorDetail[] | undefined;
  next(problems ? invalidParameters(problems) : undefined);
};

/**
 * The copy of the contract one operation's validator is built from: that operation alone, and of
 * the components only the security schemes and what the operation refers to (followed through the
 * components those refer to). The validator compiles every schema it is given, so with the whole
 * contract each operation compiled every component and every response, seconds of CPU per process
 * start (each HTTP worker of `make run`, each service a test starts). Responses are
 * validated only when config.validateResponses says so (tests); otherwise the copy keeps each
 * response's status and description but not its content, which request validation never reads.
 */
export function validatorDocument(
  document: Json,
  operation: Json,
  spec: Pick<OperationSpec, 'path' | 'method'>,
  withResponses: boolean,
): Json {
  const responses = operation.responses as Json | undefined;
  const validated =
    withResponses || responses === undefined
      ? operation
      : { ...operation, responses: Object.fromEntries(Object.keys(responses).map((status) => [status, { description: 'not validated' }])) };
  const all = (document.components ?? {}) as Record<string, Json>;
  const components: Record<string, Json> = all.securitySchemes ? { securitySchemes: all.securitySchemes } : {};
  const pending: unknown[] = [validated];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') {
        pending.push(value);
        continue;
      }
      // '#/components/<group>/<id>[/...]': the whole component is kept.
      const [root, group, id] = refKeys(value) ?? [];
      if (root !== 'components' || group === undefined || id === undefined || components[group]?.[id] !== undefined) continue;
      const target = all[group]?.[id];
      if (target === undefined) continue;
      components[group] = { ...components[group], [id]: target };
      pending.push(target);
    }
  }
  return { ...document, components, paths: { [spec.path]: { [spec.method]: validated } } };
}

/** The validation chain of one operation, run after checkParameterNames. */
export function validationFor(deps: ServiceDeps, operation: OperationSpec): RequestHandler[] {
  memoiseValidatorRouteRegexps();
  const document = deps.apiContract.document as Json & { paths: Record<string, Record<string, Json>> };
  const spec = document.paths[operation.path]?.[operation.method] ?? {};
  const single = validatorDocument(document, withParametersInline(document, spec), operation, deps.config.validateResponses);
  const validator = OpenApiValidator.middleware({
    apiSpec: single as never,
    // The contract is checked whole by `redocly lint` (make test); checked again here it was each
    // operation's copy against the OpenAPI schema, seconds of every process's start.
    validateApiSpec: false,
    // Query strings are always coerced by the validator; a JSON body is not: an export's query
    // reaches parameters/query-validator.ts as sent (with coercion, the anyOf of ExportQueryValue
    // turned the text "0x10" into the number 16 before anything could refuse it).
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false, allErrors: true },
    validateResponses: deps.config.validateResponses ? { removeAdditional: false, coerceTypes: false } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    // The formats query-validator.ts gives its own ajv: a query is checked the same way in both.
    formats: PARAMETER_FORMATS,
  });
  return [...validator, rejectUnknownParameters, parameterRules(operation)];
}
