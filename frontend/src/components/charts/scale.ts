/** The arithmetic behind the hand-drawn charts, kept apart from SVG so it can be tested. */

export interface Scale {
  (value: number): number;
  ticks: number[];
}

/** Maps [low, high] onto [from, to] (to may be above from: SVG's y grows downwards). */
export function linearScale(
  domain: [number, number],
  range: [number, number],
  tickCount = 5,
): Scale {
  const [low, high] = domain;
  const [from, to] = range;
  const span = high - low || 1;
  const scale = ((value: number) => from + ((value - low) / span) * (to - from)) as Scale;
  scale.ticks = niceTicks(low, high, tickCount);
  return scale;
}

/** Round tick values (1, 2 or 5 times a power of ten apart) covering [low, high]. */
export function niceTicks(low: number, high: number, count: number): number[] {
  if (high <= low) return [low];
  const rough = (high - low) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((s) => s >= rough) ?? rough;
  const ticks: number[] = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high + step / 1e6; tick += step) {
    ticks.push(Number(tick.toFixed(10)));
  }
  return ticks;
}

/** A domain from 0 to a round number above every value, for counts. */
export function countDomain(values: number[]): [number, number] {
  const max = Math.max(0, ...values);
  if (max === 0) return [0, 1];
  const ticks = niceTicks(0, max, 4);
  const last = ticks.at(-1)!;
  return [0, last >= max ? last : last + (ticks[1] ?? max) - (ticks[0] ?? 0)];
}

/** Percentages zoomed to the tens that hold them (80–100 rather than 0–100), so boxes of
 * close iterations stay tellable apart. */
export function percentDomain(values: number[]): [number, number] {
  if (values.length === 0) return [0, 100];
  const low = Math.max(0, Math.floor(Math.min(...values) / 10) * 10);
  const high = Math.min(100, Math.ceil(Math.max(...values) / 10) * 10);
  return high - low >= 10 ? [low, high] : low >= 10 ? [low - 10, high] : [low, low + 10];
}

/** Chance-corrected coefficients (kappa, alpha: -1 to 1) zoomed to the tenths that hold them. */
export function coefficientDomain(values: number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const low = Math.max(-1, Math.floor(Math.min(...values) * 10) / 10);
  const high = Math.min(1, Math.ceil(Math.max(...values) * 10) / 10);
  return high - low >= 0.1 ? [low, high] : low > -1 ? [low - 0.1, high] : [low, low + 0.1];
}
