/**
 * What a view is: a form of filters named as the route's query parameters, a load that requests
 * the route and returns how to draw the answer, and what it drew (recorded for the browser test,
 * which requests the same URLs itself and compares).
 */

export interface Drawn {
  /** The /v1 URLs (path and query) whose answers were drawn. */
  requests: string[];
  [series: string]: unknown;
}

declare global {
  interface Window {
    /** What each view drew last, by view id: read by test/integration/explorer.test.ts. */
    explorerDrawn?: Record<string, Drawn>;
  }
}

export function recordDrawn(view: string, drawn: Drawn): void {
  (window.explorerDrawn ??= {})[view] = drawn;
}

export interface ViewContext {
  underlying: string;
  /** YYYY-MM-DD, or null for the API's default session. */
  date: string | null;
  form: HTMLFormElement;
}

export interface View {
  id: string;
  /** Requests the route(s); resolves to a function that draws into the view's output. */
  load(context: ViewContext): Promise<(out: HTMLElement) => Drawn>;
}

/**
 * The query of a view: the context's underlying (unless `underlying` is false) and date, then the
 * form's fields by name; empty fields are left out (the API's defaults apply), checked boxes of one
 * name are joined with commas (the contract's lists are `explode: false`).
 */
export function queryOf(
  context: ViewContext,
  options: { underlying?: false | 'underlying_symbol' | 'underlying_symbols'; skip?: readonly string[] } = {},
): URLSearchParams {
  const query = new URLSearchParams();
  const underlying = options.underlying ?? 'underlying_symbol';
  if (underlying) query.set(underlying, context.underlying);
  if (context.date) query.set('date', context.date);
  const lists = new Map<string, string[]>();
  for (const element of Array.from(context.form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) continue;
    const name = element.name;
    if (!name || options.skip?.includes(name)) continue;
    if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      if (!element.checked) continue;
      if (element.value === 'true') query.set(name, 'true');
      else lists.set(name, [...(lists.get(name) ?? []), element.value]);
      continue;
    }
    if (element.value.trim() !== '') query.set(name, element.value.trim());
  }
  for (const [name, values] of lists) query.set(name, values.join(','));
  return query;
}

/** The newest non-null value of a field in rows oldest first, with its row's timestamp. */
export function latest<T extends { timestamp: number }, K extends keyof T>(
  rows: readonly T[],
  field: K,
): { value: NonNullable<T[K]>; timestamp: number } | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const value = rows[i]![field];
    if (value !== null && value !== undefined) return { value: value, timestamp: rows[i]!.timestamp };
  }
  return null;
}
