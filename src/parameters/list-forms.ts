/**
 * The two forms a list parameter may be sent in. The contract declares lists `style: form,
 * explode: false` (`side=ask,above_ask`), and many clients send the exploded form instead
 * (`side=ask&side=above_ask`: openapi-python-client, openapi-fetch, orval, a hand-written
 * URLSearchParams). Both are accepted: the repeated form is rewritten to the declared one before
 * anything reads the query, so the validator, the rules and the services see one form only. A
 * repeated parameter that is not a list stays an error (middleware/validation.ts).
 */

/** A query string's parameter name as URLSearchParams decodes it (the edge's own reading). */
function decodedName(segment: string): string {
  const first = new URLSearchParams(segment).keys().next();
  return first.done ? '' : first.value;
}

/**
 * The query string with every list parameter given more than once written as one parameter, its
 * values comma-joined in the order sent (each value as sent, percent-encoding kept); null when no
 * list parameter is repeated. `search` is the query string without its `?`; `lists` the names of
 * the operation's list parameters.
 */
export function joinRepeatedLists(search: string, lists: ReadonlySet<string>): string | null {
  if (search === '' || lists.size === 0) return null;
  const segments = search.split('&');
  const valuesOf = new Map<string, string[]>();
  const named = segments.map((segment) => {
    const name = segment === '' ? '' : decodedName(segment);
    if (lists.has(name)) {
      const at = segment.indexOf('=');
      const values = valuesOf.get(name) ?? [];
      values.push(at === -1 ? '' : segment.slice(at + 1));
      valuesOf.set(name, values);
    }
    return { segment, name };
  });
  const repeated = new Set([...valuesOf].filter(([, values]) => values.length > 1).map(([name]) => name));
  if (repeated.size === 0) return null;
  const written = new Set<string>();
  const out: string[] = [];
  for (const { segment, name } of named) {
    if (!repeated.has(name)) {
      out.push(segment);
    } else if (!written.has(name)) {
      written.add(name);
      const at = segment.indexOf('=');
      const rawName = at === -1 ? segment : segment.slice(0, at);
      out.push(`${rawName}=${(valuesOf.get(name) ?? []).join(',')}`);
    }
  }
  return out.join('&');
}
