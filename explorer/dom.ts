/** Small DOM builders (text only: values from the API are never parsed as HTML). */

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** A table: a header row, then one row per item with its cells. */
export function table(
  headers: readonly string[],
  rows: readonly { cells: Child[]; attrs?: Record<string, string> }[],
  className = 'grid',
): HTMLTableElement {
  // A header sits over its column's numbers on the right, as the first row's cell does.
  const numeric = (i: number): boolean => {
    const cell = rows[0]?.cells[i];
    return cell instanceof HTMLTableCellElement && cell.classList.contains('num');
  };
  return el(
    'table',
    { class: className },
    el('thead', {}, el('tr', {}, ...headers.map((h, i) => el('th', numeric(i) ? { class: 'num' } : {}, h)))),
    el(
      'tbody',
      {},
      ...rows.map((row) =>
        el('tr', row.attrs ?? {}, ...row.cells.map((cell) => (cell instanceof HTMLTableCellElement ? cell : el('td', {}, cell)))),
      ),
    ),
  );
}

/** A cell with a class (numbers right-aligned, green/red for signs). */
export function td(text: string, className = ''): HTMLTableCellElement {
  return el('td', className ? { class: className } : {}, text);
}

/** A line of labelled facts: "Model classic_oi/v1 · Unit USD per 1% move …". */
export function facts(items: readonly [string, string][]): HTMLElement {
  return el('dl', { class: 'facts' }, ...items.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
}
