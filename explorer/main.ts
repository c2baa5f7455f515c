/**
 * The explorer page: the key (kept in this tab's session storage, sent as a Bearer token), the tabs
 * (one view each, chosen by the URL's hash), and the run of a view: its form's query, the request,
 * then either the drawing or the API's error as the API gave it (status, code, message, each bad
 * parameter, the request id). A view loads when first shown and on each submit of its form or of
 * the underlying and date above; an answer that arrives after a newer request was made is dropped.
 */
import './explorer.css';
import { ApiFailure, getJson, storedKey, storeKey } from './api';
import { el } from './dom';
import { recordDrawn, type View } from './view';
import { heatmap } from './views/heatmap';
import { leaders } from './views/leaders';
import { levels } from './views/levels';
import { premiumDrift } from './views/premium-drift';
import { skew } from './views/skew';
import { tape } from './views/tape';
import { volDrift } from './views/vol-drift';
import type { GetAccountResponse } from '../generated/client/types.gen';

const VIEWS: readonly View[] = [tape, leaders, premiumDrift, levels, heatmap, skew, volDrift];

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const contextForm = byId<HTMLFormElement>('context');
const sequence = new Map<string, number>();
const loaded = new Set<string>();

function sectionOf(view: View): HTMLElement {
  return byId(`view-${view.id}`);
}

function showError(box: HTMLElement, error: unknown): void {
  box.replaceChildren();
  if (error instanceof ApiFailure) {
    const parts: (Node | string | null)[] = [
      el('strong', {}, error.status > 0 ? `${error.status} ${error.code}` : error.code),
      ` ${error.message}`,
      error.details.length > 0
        ? el('ul', {}, ...error.details.map((d) => el('li', {}, el('code', {}, d.parameter), `: ${d.message}`)))
        : null,
      error.retryAfterMs !== null ? el('div', { class: 'muted' }, `Retry after ${Math.ceil(error.retryAfterMs / 1000)} s.`) : null,
      error.requestId ? el('div', { class: 'muted' }, `Request ${error.requestId}`) : null,
    ];
    box.append(...parts.filter((part) => part !== null));
  } else {
    box.append(el('strong', {}, 'page error'), ` ${error instanceof Error ? error.message : String(error)}`);
  }
  box.hidden = false;
}

async function run(view: View): Promise<void> {
  const section = sectionOf(view);
  const form = section.querySelector('form')!;
  const out = section.querySelector<HTMLElement>('.out')!;
  const errorBox = section.querySelector<HTMLElement>('.error')!;
  const mine = (sequence.get(view.id) ?? 0) + 1;
  sequence.set(view.id, mine);
  loaded.add(view.id);
  section.dataset.state = 'loading';
  const field = (name: string): string => contextForm.querySelector<HTMLInputElement>(`[name=${name}]`)!.value.trim();
  try {
    const draw = await view.load({ underlying: field('underlying_symbol'), date: field('date') || null, form });
    if (sequence.get(view.id) !== mine) return;
    errorBox.hidden = true;
    out.replaceChildren();
    recordDrawn(view.id, draw(out));
    section.dataset.state = 'ready';
  } catch (error) {
    if (sequence.get(view.id) !== mine) return;
    out.replaceChildren();
    showError(errorBox, error);
    section.dataset.state = 'error';
  }
}

function current(): View {
  const id = location.hash.slice(1);
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}

function show(): void {
  const view = current();
  for (const v of VIEWS) sectionOf(v).hidden = v !== view;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#tabs a')) a.classList.toggle('active', a.dataset.view === view.id);
  if (!loaded.has(view.id) && storedKey() !== null) void run(view);
}

async function showAccount(): Promise<void> {
  const line = byId('account');
  if (storedKey() === null) {
    line.textContent = 'No key: enter yours (it stays in this tab’s session storage).';
    line.className = 'account';
    return;
  }
  try {
    const account = (await getJson<GetAccountResponse>('/v1/account')).data;
    line.textContent = `${account.name} · ${account.plan} plan · overnight ${account.entitlements.overnight ? 'yes' : 'no'} · key ${account.key.prefix}…`;
    line.className = 'account ok';
  } catch (error) {
    line.textContent = error instanceof ApiFailure ? `${error.status} ${error.code}: ${error.message}` : String(error);
    line.className = 'account bad';
  }
}

function reloadAll(): void {
  loaded.clear();
  show();
}

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('api-key');
  storeKey(input.value.trim() || null);
  input.value = '';
  void showAccount();
  reloadAll();
});
byId('forget-key').addEventListener('click', () => {
  storeKey(null);
  void showAccount();
});
contextForm.addEventListener('submit', (event) => {
  event.preventDefault();
  reloadAll();
});
contextForm.addEventListener('change', reloadAll);
for (const view of VIEWS) {
  sectionOf(view)
    .querySelector('form')!
    .addEventListener('submit', (event) => {
      event.preventDefault();
      void run(view);
    });
}
window.addEventListener('hashchange', show);
void showAccount();
show();
