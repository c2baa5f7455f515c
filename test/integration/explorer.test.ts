/**
 * The explorer page at /explorer in Debian's headless Chromium (driven by playwright-core; no
 * browser download), on one service over the small simulated market. The page is built from
 * explorer/ by the build script `make` runs, into a folder of its own. For each view: it loads
 * with no console error, no failed request and no request to another origin; what it drew (the
 * page records it, read from the chart's own data or the grid it painted) is what the API answers
 * when this test requests the same URLs itself, mapped here from the JSON independently of the
 * page's code; and a screenshot is written to build/test-results/explorer/<view>.png. Then the
 * API's errors as the page shows them (a 403 entitlement, a 400 naming the parameter, a bad key).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = path.resolve('build/test-results/explorer');
const DAY = '2026-11-20';

interface Drawn {
  requests: string[];
  [series: string]: unknown;
}

describe('the explorer page', () => {
  let service: TestService;
  let key: string;
  let basicKey: string;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let built: string;
  /** What went wrong in the browser since the last check. */
  const trouble: string[] = [];

  beforeAll(async () => {
    built = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-explorer-'));
    await buildExplorer(built);
    service = await startTestService({
      market: { dates: [DAY] },
      clock: () => MARKET_NOW,
      explorerDir: built,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ key } = await service.newAccount({ plan: 'pro' }));
    ({ key: basicKey } = await service.newAccount({ plan: 'basic', overnight: false }));
    fs.mkdirSync(SHOTS, { recursive: true });
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 900 },
    });
    // A Content-Security-Policy violation is an error of the page's, whether or not the browser logs it.
    await context.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
    );
    page = context.pages()[0] ?? (await context.newPage());
    const origin = new URL(service.url).origin;
    page.on('console', (m) => m.type() === 'error' && trouble.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => trouble.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => trouble.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('request', (r) => new URL(r.url()).origin !== origin && !r.url().startsWith('data:') && trouble.push(`elsewhere: ${r.url()}`));
    page.on('response', (r) => r.status() >= 400 && trouble.push(`${r.status()}: ${r.url()}`));
  });
  afterAll(async () => {
    await context?.close();
    await service?.stop();
    for (const dir of [profile, built]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The API's JSON for a URL the page requested, fetched here with the same key. */
  const api = async <T>(url: string, withKey = key): Promise<{ status: number; body: T }> => {
    const r = await fetch(`${service.url}${url}`, { headers: { Authorization: `Bearer ${withKey}` } });
    return { status: r.status, body: (await r.json()) as T };
  };

  /** Shows a view by its tab and waits until it has drawn (or failed: the page's error text). */
  const open = async (view: string, submit = false, shot = view): Promise<Drawn> => {
    trouble.length = 0;
    const section = page.locator(`#view-${view}`);
    if (submit) await section.locator('button[type=submit]').click();
    else await page.click(`#tabs a[data-view="${view}"]`);
    await page.waitForFunction((id) => ['ready', 'error'].includes(document.getElementById(`view-${id}`)?.dataset.state ?? ''), view, {
      timeout: 45_000,
    });
    const state = await section.getAttribute('data-state');
    expect(state, (await section.locator('.error').textContent()) ?? '').toBe('ready');
    // A chart paints on the next frame: the screenshot waits for it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
    expect(trouble).toEqual([]);
    return (await page.evaluate(
      (id) => (window as unknown as { explorerDrawn?: Record<string, Drawn> }).explorerDrawn?.[id],
      view,
    )) as Drawn;
  };

  it('asks for the key, keeps it in session storage and shows the account', async () => {
    trouble.length = 0;
    const response = await page.goto(`${service.url}/explorer`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${service.url}/explorer/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect.poll(() => page.textContent('#account')).toMatch(/No key/);
    await page.fill('#api-key', key);
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => page.textContent('#account')).toMatch(/pro plan/);
    expect(await page.evaluate(() => sessionStorage.getItem('oads.apiKey'))).toBe(key);
    expect(await page.inputValue('#api-key')).toBe('');
    await page.waitForFunction(() => document.getElementById('view-tape')?.dataset.state === 'ready');
    expect(trouble).toEqual([]);
  });

  it('tape: the prints of /v1/options/trades with the filters set, in its order', async () => {
    await page.check('#view-tape input[name=side][value=ask]');
    await page.check('#view-tape input[name=side][value=above_ask]');
    await page.fill('#view-tape input[name=min_premium]', '1000');
    const drawn = await open('tape', true);
    expect(drawn.requests).toEqual([
      '/v1/options/trades?underlying_symbol=SPX&session=rth&min_premium=1000&limit=100&side=above_ask%2Cask',
    ]);
    const { body } = await api<{ data: { id: string; premium: number; side: string }[] }>(drawn.requests[0]!);
    expect(body.data.length).toBeGreaterThan(10);
    expect(body.data.every((p) => ['above_ask', 'at_ask', 'near_ask'].includes(p.side) && p.premium >= 1000)).toBe(true);
    expect(drawn.ids).toEqual(body.data.map((p) => p.id));
    expect(drawn.premiums).toEqual(body.data.map((p) => p.premium));
    expect(await page.locator('#view-tape tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).toEqual(
      body.data.map((p) => p.id),
    );

    // The next page by the cursor, appended below.
    const { body: first } = await api<{ pagination: { next_cursor_id: string | null } }>(drawn.requests[0]!);
    expect(first.pagination.next_cursor_id).not.toBeNull();
    await page.click('#view-tape button.more');
    await page.waitForFunction(
      () => (window as unknown as { explorerDrawn: Record<string, { requests: string[] }> }).explorerDrawn.tape!.requests.length === 2,
    );
    const more = (await page.evaluate(() => (window as unknown as { explorerDrawn: Record<string, Drawn> }).explorerDrawn.tape)) as Drawn;
    const next = new URLSearchParams(drawn.requests[0]!.split('?')[1]);
    next.set('cursor_id', first.pagination.next_cursor_id!);
    expect(more.requests[1]).toBe(`/v1/options/trades?${next.toString()}`);
    const second = (await api<{ data: { id: string }[] }>(more.requests[1]!)).body.data;
    expect(second.length).toBeGreaterThan(0);
    expect(more.ids).toEqual([...body.data, ...second].map((p) => p.id));
    expect(await page.locator('#view-tape tbody tr').count()).toBe(body.data.length + second.length);
    expect(trouble).toEqual([]);
  });

  it('flow leaders: the ranking of /v1/options/flow/leaders', async () => {
    const drawn = await open('leaders');
    const { body } = await api<{ data: { underlying_symbol: string; premium: number }[] }>(drawn.requests[0]!);
    expect(body.data.length).toBeGreaterThan(1);
    expect(drawn.symbols).toEqual(body.data.map((r) => r.underlying_symbol));
    expect(drawn.premiums).toEqual(body.data.map((r) => r.premium));
    expect(await page.locator('#view-leaders tbody tr').count()).toBe(body.data.length);
  });

  it('premium drift: the buckets of /v1/options/flow/premium-drift as lines', async () => {
    const drawn = await open('premium-drift');
    type Bucket = {
      timestamp: number;
      call_drift: number | null;
      put_drift: number | null;
      sentiment_drift: number | null;
      underlying_price: number | null;
    };
    const { body } = await api<{ data: Bucket[] }>(drawn.requests[0]!);
    expect(body.data.length).toBeGreaterThan(10);
    const series = drawn.series as Record<keyof Bucket, unknown[]>;
    for (const field of ['timestamp', 'call_drift', 'put_drift', 'sentiment_drift', 'underlying_price'] as const)
      expect(series[field], field).toEqual(body.data.map((b) => b[field]));
    // The time axis: New York 24-hour times, the date beneath the first, each tick its own label
    // (they ran together as `10:00am10:10am`), at most one per 64 px of the chart.
    const ticks = drawn.ticks as string[];
    const width = await page
      .locator('#view-premium-drift .chart canvas')
      .first()
      .evaluate((c) => c.getBoundingClientRect().width);
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks.length).toBeLessThanOrEqual(Math.floor(width / 64) + 1);
    expect(ticks[0]).toMatch(/^\d\d:\d\d\n[A-Z][a-z]{2} \d{1,2}$/);
    for (const tick of ticks.slice(1)) expect(tick).toMatch(/^\d\d:\d\d(\n[A-Z][a-z]{2} \d{1,2})?$/);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  it('levels: exposure by strike (the heat map legs summed by strike) with the price, the flip and the walls marked', async () => {
    const drawn = await open('levels');
    const [levelsUrl, callUrl, putUrl] = drawn.requests as [string, string, string];
    expect(levelsUrl).toBe(
      '/v1/options/levels?underlying_symbol=SPX&greek=gamma&unit=per_percent&model=classic_oi&perspective=dealer&session=rth',
    );
    type Levels = {
      underlying_price: number;
      positioning_model: string;
      unit_label: string;
      levels: { gamma_flip: number | null; call_wall: number | null; put_wall: number | null };
      ranked: { net: { strike: number; value: number }[] } | null;
    };
    type Heatmap = { cells: { strike: number; value: number }[]; expiration_window: { count: number; total_expirations: number } };
    const levels = (await api<{ data: Levels }>(levelsUrl)).body.data;
    const calls = (await api<{ data: Heatmap }>(callUrl)).body.data;
    const puts = (await api<{ data: Heatmap }>(putUrl)).body.data;
    const sum = (h: Heatmap): Map<number, number> => {
      const m = new Map<number, number>();
      for (const c of h.cells) m.set(c.strike, (m.get(c.strike) ?? 0) + c.value);
      return m;
    };
    const callBy = sum(calls);
    const putBy = sum(puts);
    const strikes = [...new Set([...callBy.keys(), ...putBy.keys()])].sort((a, b) => a - b);
    expect(strikes.length).toBeGreaterThan(40);
    expect(drawn.strikes).toEqual(strikes);
    expect(drawn.call).toEqual(strikes.map((k) => callBy.get(k) ?? 0));
    expect(drawn.put).toEqual(strikes.map((k) => putBy.get(k) ?? 0));
    expect(drawn.markers).toEqual({
      price: levels.underlying_price,
      ...(levels.levels.gamma_flip === null ? {} : { 'gamma flip': levels.levels.gamma_flip }),
      ...(levels.levels.call_wall === null ? {} : { 'call wall': levels.levels.call_wall }),
      ...(levels.levels.put_wall === null ? {} : { 'put wall': levels.levels.put_wall }),
    });
    // The model and the unit are on the page as the API named them.
    const text = await page.textContent('#view-levels');
    expect(text).toContain(levels.positioning_model);
    expect(text).toContain(levels.unit_label);
    // Where the profile covers every expiration, its net at the levels' top-ranked strikes is the
    // levels' own net exposure there (the contract: cells summed by strike are the levels' net).
    if (calls.expiration_window.count === calls.expiration_window.total_expirations) {
      const net = drawn.net as number[];
      for (const r of levels.ranked?.net ?? []) {
        const i = strikes.indexOf(r.strike);
        if (i >= 0) expect(Math.abs(net[i]! - r.value)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(r.value)));
      }
    }
  });

  it('heat map: every cell of /v1/options/exposure/heatmap at its strike and expiration, and no other (modeled gamma, then observed open interest)', async () => {
    type Heatmap = { cells: { strike: number; date_of_expiry: string; value: number }[]; positioning_model: string; unit_label: string };
    const check = async (drawn: Drawn): Promise<Heatmap> => {
      const { body } = await api<{ data: Heatmap }>(drawn.requests[0]!);
      const strikes = drawn.strikes as number[];
      const expirations = drawn.expirations as string[];
      const values = drawn.values as (number | null)[][];
      expect(body.data.cells.length).toBeGreaterThan(50);
      expect(strikes).toEqual([...new Set(body.data.cells.map((c) => c.strike))].sort((a, b) => b - a));
      expect(expirations).toEqual([...new Set(body.data.cells.map((c) => c.date_of_expiry))].sort());
      for (const c of body.data.cells) expect(values[strikes.indexOf(c.strike)]![expirations.indexOf(c.date_of_expiry)]).toBe(c.value);
      // The cells' texts: no float noise in exponent notation (a 0d column read 4e-28); what is
      // below a billionth of the largest magnitude reads 0.
      const labels = (drawn.labels as (string | null)[][]).flat();
      const scale = Math.max(...body.data.cells.map((c) => Math.abs(c.value)));
      expect(labels.filter((l) => l !== null && /e[-+]?\d/.test(l))).toEqual([]);
      for (const c of body.data.cells) {
        const label = (drawn.labels as (string | null)[][])[strikes.indexOf(c.strike)]![expirations.indexOf(c.date_of_expiry)];
        if (Math.abs(c.value) < Math.max(1e-9, scale * 1e-9)) expect(label, String(c.value)).toBe('0');
        else expect(label, String(c.value)).not.toBe('0');
      }
      expect(values.flat().filter((v) => v !== null)).toHaveLength(body.data.cells.length);
      expect(await page.textContent('#view-heatmap')).toContain(body.data.unit_label);
      return body.data;
    };
    const gamma = await check(await open('heatmap'));
    expect(await page.textContent('#view-heatmap')).toContain(gamma.positioning_model);
    await page.selectOption('#view-heatmap select[name=metric]', 'open_interest');
    const drawn = await open('heatmap', true, 'heatmap-open-interest');
    expect(drawn.requests[0]).toContain('metric=open_interest');
    await check(drawn);
    // Not a model's estimate: the page says so (net open interest is calls minus puts).
    expect(await page.textContent('#view-heatmap .model')).toMatch(/^Observed open interest/);
  });

  it('skew: each expiration’s fitted smile by strike', async () => {
    const drawn = await open('skew');
    type Skew = {
      valuation: { underlying_price: number };
      expirations: { date_of_expiry: string; points: { strike: number; smile_implied_volatility: number | null }[] }[];
    };
    const { body } = await api<{ data: Skew }>(drawn.requests[0]!);
    const expected = body.data.expirations
      .filter((e) => e.points.length > 0)
      .map((e) => {
        const points = e.points.filter((p) => p.smile_implied_volatility !== null);
        return {
          date_of_expiry: e.date_of_expiry,
          strikes: points.map((p) => p.strike),
          smile: points.map((p) => p.smile_implied_volatility),
        };
      });
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.every((e) => e.strikes.length > 5)).toBe(true);
    expect(drawn.expirations).toEqual(expected);
    expect(drawn.underlying_price).toBe(body.data.valuation.underlying_price);
  });

  it('volatility drift: ATM (both clocks), 30-day and realized lines of /v1/options/volatility/drift', async () => {
    const drawn = await open('vol-drift');
    type Point = {
      timestamp: number;
      implied_volatility: number | null;
      implied_volatility_trading_clock: number | null;
      implied_volatility_30d: number | null;
      adjusted_realized_volatility: number | null;
    };
    const { body } = await api<{ data: { points: Point[] } }>(drawn.requests[0]!);
    expect(body.data.points.length).toBeGreaterThan(10);
    const series = drawn.series as Record<keyof Point, unknown[]>;
    for (const field of [
      'timestamp',
      'implied_volatility',
      'implied_volatility_trading_clock',
      'implied_volatility_30d',
      'adjusted_realized_volatility',
    ] as const) {
      expect(series[field], field).toEqual(body.data.points.map((p) => p[field]));
    }
    expect(body.data.points.some((p) => p.implied_volatility !== null)).toBe(true);
  });

  it('shows the API’s errors as the API gave them: a 400 naming the parameter, a 403 entitlement, a refused key', async () => {
    // 400: contract grain does not take the root grain's sort.
    await page.click('#tabs a[data-view="leaders"]');
    await page.selectOption('#view-leaders select[name=grain]', 'contract');
    await page.selectOption('#view-leaders select[name=sort]', 'net');
    await page.click('#view-leaders button[type=submit]');
    await page.waitForFunction(() => document.getElementById('view-leaders')?.dataset.state === 'error');
    const bad = await api<{ error: { code: string; message: string; details: { parameter: string }[] } }>(
      `/v1/options/flow/leaders?underlying_symbols=SPX&grain=contract&sort=net&order=desc&session=rth&limit=25`,
    );
    expect(bad.status).toBe(400);
    const badText = (await page.textContent('#view-leaders .error')) ?? '';
    expect(badText).toContain(`400 ${bad.body.error.code}`);
    expect(badText).toContain(bad.body.error.message);
    expect(badText).toContain(bad.body.error.details[0]!.parameter);

    // 403: a basic plan without the overnight entitlement asks for the overnight session.
    await page.fill('#api-key', basicKey);
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => page.textContent('#account')).toMatch(/basic plan/);
    await page.click('#tabs a[data-view="premium-drift"]');
    await page.selectOption('#view-premium-drift select[name=session]', 'gth');
    await page.click('#view-premium-drift button[type=submit]');
    await page.waitForFunction(() => document.getElementById('view-premium-drift')?.dataset.state === 'error');
    const forbidden = await api<{ error: { code: string; message: string } }>(
      '/v1/options/flow/premium-drift?underlying_symbol=SPX&interval=5m&session=gth',
      basicKey,
    );
    expect(forbidden.status).toBe(403);
    const forbiddenText = (await page.textContent('#view-premium-drift .error')) ?? '';
    expect(forbiddenText).toContain(`403 ${forbidden.body.error.code}`);
    expect(forbiddenText).toContain(forbidden.body.error.message);
    await page.screenshot({ path: path.join(SHOTS, 'error-403.png') });

    // 401: a key the service does not know.
    await page.fill('#api-key', 'oads_not_a_key');
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => page.textContent('#account')).toMatch(/^401 unauthorized/);
  });
});
