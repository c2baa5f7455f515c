/**
 * Heat map: GET /v1/options/exposure/heatmap drawn as a strike (rows, high at the top) by
 * expiration (columns) grid on a canvas. Signed metrics go from red (negative) to green (positive),
 * the others from dark to blue, with intensity linear in the value over the window's largest
 * magnitude; the price's place between strikes is a white line, the largest cell is outlined. A
 * pair without a listed contract is left blank; a listed contract with nothing to show is 0.
 */
import type { GetExposureHeatmapResponse } from '../../generated/client/types.gen';
import { getJson, urlOf } from '../api';
import { el, facts } from '../dom';
import { compact, dateTimeOf, num, strike } from '../format';
import { queryOf, type View } from '../view';

type Heatmap = GetExposureHeatmapResponse['data'];

const ROW_HEIGHT = 18;
const LABEL_WIDTH = 84;
const HEADER_HEIGHT = 34;

function colorOf(value: number, scale: number, signed: boolean): string {
  const t = scale > 0 ? Math.min(1, Math.abs(value) / scale) : 0;
  const a = 0.08 + 0.92 * t;
  if (!signed) return `rgba(74,163,255,${a})`;
  return value >= 0 ? `rgba(47,191,113,${a})` : `rgba(239,83,80,${a})`;
}

/**
 * A cell's text: its value, compact, with float noise shown as 0: a magnitude below a billionth of
 * the window's largest (or below 1e-9) is what a greek of a contract at its expiry leaves (the 0d
 * column read `4e-28`). The value itself, and its colour, stay as the API gave them.
 */
export function cellLabel(value: number, scale: number, digits = 2): string {
  return compact(Math.abs(value) < Math.max(1e-9, scale * 1e-9) ? 0 : value, digits);
}

interface Grid {
  strikes: number[];
  expirations: { date: string; dte: number }[];
  values: (number | null)[][];
}

function gridOf(h: Heatmap): Grid {
  const strikes = [...new Set(h.cells.map((c) => c.strike))].sort((a, b) => b - a);
  const dates = new Map<string, number>();
  for (const c of h.cells) dates.set(c.date_of_expiry, c.days_to_expiry);
  const expirations = [...dates].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, dte]) => ({ date, dte }));
  const row = new Map(strikes.map((k, i) => [k, i]));
  const col = new Map(expirations.map((e, j) => [e.date, j]));
  const values = strikes.map(() => expirations.map((): number | null => null));
  for (const c of h.cells) values[row.get(c.strike)!]![col.get(c.date_of_expiry)!] = c.value;
  return { strikes, expirations, values };
}

/** The window's largest magnitude, which the colours and the labels are measured against. */
function scaleOf(h: Heatmap): number {
  return Math.max(Math.abs(h.minimum ?? 0), Math.abs(h.maximum ?? 0));
}

function draw(canvas: HTMLCanvasElement, h: Heatmap, grid: Grid, width: number): { cellWidth: number } {
  const cols = grid.expirations.length;
  const cellWidth = Math.max(28, Math.floor((width - LABEL_WIDTH) / Math.max(1, cols)));
  const cssWidth = LABEL_WIDTH + cellWidth * cols;
  const cssHeight = HEADER_HEIGHT + ROW_HEIGHT * grid.strikes.length;
  const ratio = devicePixelRatio;
  canvas.width = Math.round(cssWidth * ratio);
  canvas.height = Math.round(cssHeight * ratio);
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(ratio, ratio);
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  const signed = (h.minimum ?? 0) < 0 || ['gamma', 'delta', 'vanna', 'charm', 'net_premium'].includes(h.metric);
  const scale = scaleOf(h);
  ctx.fillStyle = '#aab4c0';
  ctx.textAlign = 'center';
  grid.expirations.forEach((e, j) => {
    const x = LABEL_WIDTH + j * cellWidth + cellWidth / 2;
    ctx.fillText(e.date.slice(5), x, 10);
    ctx.fillText(`${e.dte}d`, x, 24);
  });
  grid.strikes.forEach((k, i) => {
    const y = HEADER_HEIGHT + i * ROW_HEIGHT;
    ctx.fillStyle = '#aab4c0';
    ctx.textAlign = 'right';
    ctx.fillText(strike(k), LABEL_WIDTH - 6, y + ROW_HEIGHT / 2);
    grid.values[i]!.forEach((v, j) => {
      if (v === null) return;
      const x = LABEL_WIDTH + j * cellWidth;
      ctx.fillStyle = colorOf(v, scale, signed);
      ctx.fillRect(x + 1, y + 1, cellWidth - 2, ROW_HEIGHT - 2);
      if (cellWidth >= 44) {
        ctx.fillStyle = '#f5f7fa';
        ctx.textAlign = 'center';
        ctx.fillText(cellLabel(v, scale), x + cellWidth / 2, y + ROW_HEIGHT / 2);
      }
    });
  });
  const largest = h.largest_cell;
  if (largest) {
    const i = grid.strikes.indexOf(largest.strike);
    const j = grid.expirations.findIndex((e) => e.date === largest.date_of_expiry);
    if (i >= 0 && j >= 0) {
      ctx.strokeStyle = '#f2b134';
      ctx.lineWidth = 2;
      ctx.strokeRect(LABEL_WIDTH + j * cellWidth + 1, HEADER_HEIGHT + i * ROW_HEIGHT + 1, cellWidth - 2, ROW_HEIGHT - 2);
    }
  }
  const price = h.valuation.underlying_price;
  if (price !== null && grid.strikes.length > 1) {
    // Strikes descend down the rows: the line goes below the last strike at or above the price.
    const above = grid.strikes.filter((k) => k >= price).length;
    if (above > 0 && above < grid.strikes.length) {
      const y = HEADER_HEIGHT + above * ROW_HEIGHT;
      ctx.strokeStyle = '#f5f7fa';
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(cssWidth, y);
      ctx.stroke();
      // The price in the strike column, on a plate over the strike labels it crosses.
      const label = `price ${num(price)}`;
      ctx.fillStyle = '#f5f7fa';
      ctx.fillRect(0, y - 8, LABEL_WIDTH - 2, 16);
      ctx.fillStyle = '#0e1116';
      ctx.textAlign = 'center';
      ctx.fillText(label, (LABEL_WIDTH - 2) / 2, y);
    }
  }
  return { cellWidth };
}

export const heatmap: View = {
  id: 'heatmap',
  async load(context) {
    const url = urlOf('/v1/options/exposure/heatmap', queryOf(context));
    const body = await getJson<GetExposureHeatmapResponse>(url);
    return (out) => {
      const h = body.data;
      const grid = gridOf(h);
      const scale = scaleOf(h);
      const observed = ['open_interest', 'volume', 'premium', 'net_premium', 'trades'].includes(h.metric);
      out.append(
        el(
          'p',
          { class: 'model' },
          observed
            ? `Observed ${h.metric.replace('_', ' ')}, in ${h.unit_label}: the same for every positioning model.`
            : `Model estimate, not observed positions: ${h.positioning_model}, ${h.perspective} view, ${h.leg} leg, in ${h.unit_label}.`,
        ),
        facts([
          ['Valued at', dateTimeOf(h.valuation.timestamp)],
          ['Range', `${compact(h.minimum)} to ${compact(h.maximum)}`],
          [
            'Largest cell',
            h.largest_cell === null
              ? '–'
              : `${compact(h.largest_cell.value)} at ${strike(h.largest_cell.strike)} ${h.largest_cell.date_of_expiry}`,
          ],
          [
            'Window',
            `${h.expiration_window.count} of ${h.expiration_window.total_expirations} expirations from #${h.expiration_window.offset}; ${h.strike_range.total_strikes} strikes`,
          ],
        ]),
      );
      if (h.cells.length === 0) {
        out.append(el('p', { class: 'empty' }, 'No listed contract in the window.'));
        return { requests: [url], strikes: [], expirations: [], values: [] };
      }
      const hover = el('p', { class: 'hover' }, 'Point at a cell for its value.');
      const canvas = el('canvas', { class: 'heat' });
      const box = el('div', { class: 'heat-box' }, canvas);
      out.append(hover, box);
      let { cellWidth } = draw(canvas, h, grid, box.clientWidth || 900);
      window.addEventListener('resize', () => {
        if (canvas.isConnected) ({ cellWidth } = draw(canvas, h, grid, box.clientWidth || 900));
      });
      canvas.addEventListener('mousemove', (event) => {
        const rect = canvas.getBoundingClientRect();
        const i = Math.floor((event.clientY - rect.top - HEADER_HEIGHT) / ROW_HEIGHT);
        const j = Math.floor((event.clientX - rect.left - LABEL_WIDTH) / cellWidth);
        const v = grid.values[i]?.[j];
        const e = grid.expirations[j];
        hover.textContent =
          v === undefined || e === undefined
            ? 'Point at a cell for its value.'
            : `${strike(grid.strikes[i])} · ${e.date} (${e.dte}d) · ${v === null ? 'no listed contract' : `${cellLabel(v, scale, 4)} ${h.unit_label}`}`;
      });
      const labels = grid.values.map((row) => row.map((v) => (v === null ? null : cellLabel(v, scale))));
      return { requests: [url], strikes: grid.strikes, expirations: grid.expirations.map((e) => e.date), values: grid.values, labels };
    };
  },
};
