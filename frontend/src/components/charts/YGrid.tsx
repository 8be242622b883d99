import type { Scale } from "./scale";

/** Horizontal grid lines at the scale's ticks, labelled on the left, as every chart draws them. */
export function YGrid({
  y,
  left,
  right,
  label = String,
}: {
  y: Scale;
  left: number;
  right: number;
  label?: (tick: number) => string;
}) {
  return (
    <>
      {y.ticks.map((tick) => (
        <g key={tick} className="grid">
          <line x1={left} x2={right} y1={y(tick)} y2={y(tick)} />
          <text x={left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
            {label(tick)}
          </text>
        </g>
      ))}
    </>
  );
}
