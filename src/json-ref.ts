/** Local `$ref`s of the contract (`#/components/...`), followed as OpenAPI 3.1 reads them. */

export type Json = Record<string, unknown>;

/**
 * Follows a local `$ref` (`#/components/...`) to its target, repeatedly. Members beside a `$ref`
 * (OpenAPI 3.1 allows them: a parameter's `default`, `description`, `examples` next to the shared
 * schema it names) are kept over the target's, the nearest `$ref`'s first.
 */
export function resolveRef(document: Json, node: unknown): Json {
  let current = node as Json;
  let siblings: Json | null = null;
  for (let depth = 0; depth < 16 && current && typeof current.$ref === 'string'; depth += 1) {
    const { $ref, ...rest } = current;
    if (Object.keys(rest).length > 0) siblings = { ...rest, ...(siblings ?? {}) };
    const pointer = $ref.replace(/^#\//, '').split('/');
    let target: unknown = document;
    for (const key of pointer) target = (target as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
    current = target as Json;
  }
  return siblings ? { ...current, ...siblings } : current;
}
