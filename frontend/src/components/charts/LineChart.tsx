import { Legend } from "./BarChart";
import { colourOf } from "./palette";
import { countDomain, linearScale } from "./scale";
import { YGrid } from "./YGrid";
import "./charts.css";

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 16, bottom: 34, left: 52 };

export interface LineSeries {
  name: string;
  values: number[];
}

/** Series over shared x labels (iterations, then "now"), markers on every point. */
export function LineChart({
  labels,
  series,
  title,
}: {
  labels: string[];
  series: LineSeries[];
  title: string;
}) {
  const y = linearScale(
    countDomain(series.flatMap((line) => line.values)),
    [HEIGHT - MARGIN.bottom, MARGIN.top],
    4,
  );
  const step = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, labels.length - 1);
  const x = (index: number) =>
    labels.length === 1 ? (MARGIN.left + WIDTH - MARGIN.right) / 2 : MARGIN.left + step * index;
  const label = series
    .map(
      (line) =>
        `${line.name}: ${line.values.map((value, index) => `${labels[index]} ${value}`).join(", ")}`,
    )
    .join("; ");

  return (
    <figure className="chart-figure">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="chart"
        role="img"
        aria-label={`${title}. ${label}.`}
      >
        <YGrid y={y} left={MARGIN.left} right={WIDTH - MARGIN.right} />
        {labels.map((name, index) => (
          <text key={name} x={x(index)} y={HEIGHT - 12} textAnchor="middle" className="axis-label">
            {name}
          </text>
        ))}
        {series.map((line, position) => {
          const colour = colourOf(position);
          return (
            <g key={line.name}>
              <polyline
                fill="none"
                stroke={colour}
                strokeWidth={2}
                points={line.values.map((value, index) => `${x(index)},${y(value)}`).join(" ")}
              />
              {line.values.map((value, index) => (
                <circle key={index} cx={x(index)} cy={y(value)} r={3.5} fill={colour}>
                  <title>{`${line.name}, ${labels[index]}: ${value}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <Legend series={series.map((line) => line.name)} />
    </figure>
  );
}
