/**
 * uPlot with the page's look: dark axes, New York time on time axes, values in the legend as the
 * view formats them, and vertical markers (price, flip, walls) drawn on the plot.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { NEW_YORK, timeTicks } from './format';

export interface Marker {
  value: number;
  label: string;
  color: string;
  dash?: number[];
}

const AXIS = { stroke: '#aab4c0', grid: { stroke: 'rgba(255,255,255,0.07)' }, ticks: { stroke: 'rgba(255,255,255,0.15)' } };

/**
 * The least room between two time ticks, in CSS pixels: a label (`14:05`) is about 35 px wide.
 * uPlot's default (50 px for its `10:00am`) let the labels of a narrow chart touch (`10:00am10:10am`).
 */
const TIME_TICK_SPACE = 64;

/** The labels each chart's time axis drew last (the explorer's page test reads them). */
const drawnTimeTicks = new WeakMap<uPlot, string[]>();

export function timeTicksOf(u: uPlot): string[] {
  return drawnTimeTicks.get(u) ?? [];
}

const live = new Set<{ chart: uPlot; box: HTMLElement }>();
window.addEventListener('resize', () => {
  for (const entry of live) {
    if (!entry.box.isConnected) {
      live.delete(entry);
      continue;
    }
    entry.chart.setSize({ width: widthOf(entry.box), height: entry.chart.height });
  }
});

function widthOf(box: HTMLElement): number {
  return Math.max(320, box.clientWidth - 8);
}

/** Vertical lines at x values, labelled at the top of the plot. */
function markersPlugin(markers: readonly Marker[]): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        const { ctx, bbox } = u;
        ctx.save();
        ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
        markers.forEach((m, i) => {
          const x = Math.round(u.valToPos(m.value, 'x', true));
          if (x < bbox.left || x > bbox.left + bbox.width) return;
          ctx.strokeStyle = m.color;
          ctx.fillStyle = m.color;
          ctx.lineWidth = 1.5 * devicePixelRatio;
          ctx.setLineDash((m.dash ?? []).map((d) => d * devicePixelRatio));
          ctx.beginPath();
          ctx.moveTo(x, bbox.top);
          ctx.lineTo(x, bbox.top + bbox.height);
          ctx.stroke();
          // Beside the line, on its left when the line is in the right quarter (not clipped).
          const right = x > bbox.left + bbox.width * 0.75;
          ctx.textAlign = right ? 'right' : 'left';
          ctx.fillText(m.label, x + (right ? -4 : 4) * devicePixelRatio, bbox.top + (12 + 13 * i) * devicePixelRatio);
        });
        ctx.restore();
      },
    },
  };
}

export interface ChartOptions {
  title: string;
  data: uPlot.AlignedData;
  series: uPlot.Series[];
  /** x is Unix ms (New York time on the axis) or a plain number (strikes). */
  time: boolean;
  xLabel?: string;
  yLabel: string;
  yFormat: (v: number) => string;
  /** A second y axis on the right, for series with scale 'y2'. */
  y2?: { label: string; format: (v: number) => string };
  markers?: readonly Marker[];
  /** Keep 0 inside the y range (bars, signed totals). */
  zero?: boolean;
  /** x values the x range must include (markers outside the data, such as a distant flip). */
  xInclude?: readonly number[];
  height?: number;
}

export function chart(box: HTMLElement, options: ChartOptions): uPlot {
  const axes: uPlot.Axis[] = [
    options.time
      ? {
          ...AXIS,
          label: options.xLabel,
          space: TIME_TICK_SPACE,
          values: (u, splits) => {
            const labels = timeTicks(splits);
            drawnTimeTicks.set(u, labels);
            return labels;
          },
        }
      : { ...AXIS, label: options.xLabel, values: (_u, splits) => splits.map((v) => v.toLocaleString('en-US')) },
    { ...AXIS, label: options.yLabel, size: 70, values: (_u, splits) => splits.map(options.yFormat) },
  ];
  if (options.y2) {
    const y2 = options.y2;
    axes.push({
      ...AXIS,
      scale: 'y2',
      side: 1,
      grid: { show: false },
      label: y2.label,
      size: 70,
      values: (_u, splits) => splits.map(y2.format),
    });
  }
  const zeroRange: uPlot.Range.Function = (_u, min, max) => {
    const lo = Math.min(0, min);
    const hi = Math.max(0, max);
    const pad = (hi - lo || Math.abs(hi) || 1) * 0.05;
    return [lo - (lo < 0 ? pad : 0), hi + (hi > 0 ? pad : 0)];
  };
  const include = options.xInclude ?? [];
  const xRange: uPlot.Range.Function = (_u, min, max) => {
    const lo = Math.min(min, ...include);
    const hi = Math.max(max, ...include);
    const pad = (hi - lo) * 0.01;
    return [lo - pad, hi + pad];
  };
  const chartOptions: uPlot.Options = {
    title: options.title,
    width: widthOf(box),
    height: options.height ?? 380,
    ms: 1,
    tzDate: (ts) => uPlot.tzDate(new Date(ts), NEW_YORK),
    scales: {
      x: include.length > 0 ? { time: options.time, range: xRange } : { time: options.time },
      y: options.zero ? { range: zeroRange } : {},
      ...(options.y2 ? { y2: {} } : {}),
    },
    axes,
    series: [
      { label: options.xLabel ?? 'time', value: options.time ? '{HH}:{mm}' : (_u, v) => (v === null ? '–' : v.toLocaleString('en-US')) },
      ...options.series,
    ],
    legend: { live: true },
    cursor: { drag: { x: true, y: false } },
    plugins: options.markers && options.markers.length > 0 ? [markersPlugin(options.markers)] : [],
  };
  const u = new uPlot(chartOptions, options.data, box);
  live.add({ chart: u, box });
  return u;
}

export const COLORS = {
  call: '#2fbf71',
  put: '#ef5350',
  net: '#f5f7fa',
  accent: '#4aa3ff',
  amber: '#f2b134',
  violet: '#b58cff',
  muted: '#8a94a3',
};

/** Bars centred on x (align 0) or on its left (-1) or right (1) half. */
export function bars(align: -1 | 0 | 1, size = 0.9): uPlot.Series.PathBuilder {
  return uPlot.paths.bars!({ size: [size, 60], align });
}

export { uPlot };
