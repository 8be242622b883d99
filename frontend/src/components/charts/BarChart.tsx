import { colourOf } from "./palette";
import { countDomain, linearScale } from "./scale";
import { YGrid } from "./YGrid";
import "./charts.css";

export interface BarGroup {
  label: string;
  bars: { series: string; value: number }[];
}

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 24, right: 12, bottom: 34, left: 52 };

/** Grouped bars, one colour per series (an annotator), one group per x label (an iteration). */
export function BarChart({
  groups,
  title,
  yUnit,
  xLabel,
  format = (value) => String(Math.round(value)),
}: {
  groups: BarGroup[];
  title: string;
  /** What the bars count, written above the value axis ("turns", "minutes"). */
  yUnit: string;
  /** What the groups are, written under them ("iteration"). */
  xLabel: string;
  format?: (value: number) => string;
}) {
  const series = [...new Set(groups.flatMap((group) => group.bars.map((bar) => bar.series)))];
  const y = linearScale(
    countDomain(groups.flatMap((group) => group.bars.map((bar) => bar.value))),
    [HEIGHT - MARGIN.bottom, MARGIN.top],
    4,
  );
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, groups.length);
  const barWidth = Math.min(28, (slot * 0.8) / Math.max(1, series.length));
  const label = groups
    .map(
      (group) =>
        `${group.label}: ${group.bars.map((bar) => `${bar.series} ${format(bar.value)}`).join(", ")}`,
    )
    .join("; ");

  return (
    <figure className="chart-figure">
      <p className="chart-title">{title}</p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="chart"
        role="img"
        aria-label={`${title}. ${label}.`}
      >
        <YGrid y={y} left={MARGIN.left} right={WIDTH - MARGIN.right} label={format} />
        <text x={MARGIN.left - 6} y={MARGIN.top - 10} textAnchor="end" className="axis-label">
          {yUnit}
        </text>
        <text x={WIDTH - MARGIN.right} y={HEIGHT - 1} textAnchor="end" className="axis-label">
          {xLabel}
        </text>
        {groups.map((group, index) => {
          const start = MARGIN.left + slot * index + (slot - barWidth * series.length) / 2;
          return (
            <g key={group.label}>
              {group.bars.map((bar) => {
                const position = series.indexOf(bar.series);
                return (
                  <rect
                    key={bar.series}
                    x={start + position * barWidth}
                    width={barWidth - 2}
                    y={y(bar.value)}
                    height={y(0) - y(bar.value)}
                    fill={colourOf(position)}
                  >
                    <title>{`${bar.series}: ${format(bar.value)}`}</title>
                  </rect>
                );
              })}
              <text
                x={MARGIN.left + slot * (index + 0.5)}
                y={HEIGHT - 12}
                textAnchor="middle"
                className="axis-label"
              >
                {group.label}
              </text>
            </g>
          );
        })}
      </svg>
      <Legend series={series} />
    </figure>
  );
}

export function Legend({ series }: { series: string[] }) {
  return (
    <figcaption className="legend">
      {series.map((name, index) => (
        <span key={name}>
          <span className="swatch" style={{ background: colourOf(index) }} /> {name}
        </span>
      ))}
    </figcaption>
  );
}
