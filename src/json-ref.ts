/** Local `$ref`s of the contract (`#/components/...`), followed as OpenAPI 3.1 reads them. */

export type Json = Record<string, unknown>;

/** The keys of a local `$ref` (`#/a/b~1c` → ['a', 'b/c']), unescaped as JSON Pointer says; null for any other reference. */
export function refKeys(ref: string): string[] | null {
  if (!ref.startsWith('#/')) return null;
  return ref
    .slice(2)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
}

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
    let target: unknown = document;
    for (const key of refKeys($ref) ?? []) target = (target as Json)[key];
    current = target as Json;
  }
  return siblings ? { ...current, ...siblings } : current;
}
