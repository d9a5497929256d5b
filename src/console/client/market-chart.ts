// The market chart: the key's rates over its own clock, one point per reading of the market, drawn
// with uPlot (canvas). A module of the console's browser bundle.
import uPlot from 'uplot';

/** One reading: the key's clock (Unix seconds) and each pair's rate as a person reads it (units of the cheaper currency per USDT or USDC). */
export interface MarketSample {
  at: number;
  values: Record<string, number>;
}

export const CHART_SERIES = [
  { key: 'NGN/USDT', label: 'NGN per USDT', scale: 'NGN', stroke: '#2450b0' },
  { key: 'NGN/USDC', label: 'NGN per USDC', scale: 'NGN', stroke: '#0f7a4a' },
  { key: 'GHS/USDT', label: 'GHS per USDT', scale: 'GHS', stroke: '#9a5a00' },
  { key: 'GHS/USDC', label: 'GHS per USDC', scale: 'GHS', stroke: '#8a2a8a' },
] as const;

/** The chart's width in `box`: the box's, within 260 to 1,100 px (640 while the box is hidden). */
export const chartWidth = (box: HTMLElement) => Math.max(260, Math.min(box.clientWidth || 640, 1100));

/** The chart's height. */
export const CHART_HEIGHT = 220;

/** Draws (or redraws) the chart in `box`; answers false where the browser cannot draw on a canvas. */
export function drawMarketChart(box: HTMLElement, samples: MarketSample[], previous?: uPlot): uPlot | undefined {
  previous?.destroy();
  box.textContent = '';
  if (samples.length === 0) return undefined;
  const probe = box.ownerDocument.createElement('canvas');
  if (typeof probe.getContext !== 'function' || !probe.getContext('2d')) {
    box.textContent = `${samples.length} reading${samples.length === 1 ? '' : 's'} (this browser draws no chart)`;
    return undefined;
  }
  const data: uPlot.AlignedData = [samples.map((s) => s.at), ...CHART_SERIES.map((c) => samples.map((s) => s.values[c.key] ?? null))];
  const width = chartWidth(box);
  const axis = { stroke: '#586074', grid: { stroke: '#e6e8ee' }, ticks: { stroke: '#dde1e8' } };
  return new uPlot(
    {
      width,
      height: CHART_HEIGHT,
      scales: { x: { time: true }, NGN: { auto: true }, GHS: { auto: true } },
      axes: [
        // Hours and minutes of the key's clock (UTC), spaced so labels never touch.
        { ...axis, space: 90, values: (_u, ticks) => ticks.map((t) => new Date(t * 1000).toISOString().slice(11, 16)) },
        { ...axis, scale: 'NGN', label: 'NGN', size: 70 },
        { ...axis, scale: 'GHS', label: 'GHS', side: 1, size: 60, grid: { show: false } },
      ],
      series: [{ label: 'Key clock (UTC)' }, ...CHART_SERIES.map((c) => ({ label: c.label, scale: c.scale, stroke: c.stroke, width: 2, points: { show: true } }))],
      legend: { show: true },
    },
    data,
    box,
  );
}
