import type { Schema } from "../../api/schema";
import { linearScale, percentDomain } from "./scale";
import { YGrid } from "./YGrid";
import { counted } from "../../text/plural";
import "./charts.css";

export interface BoxGroup {
  label: string;
  values: number[];
  summary: Schema<"Distribution">;
}

const WIDTH = 640;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 34, left: 44 };
const BOX_WIDTH = 36;

/**
 * One box per group (the paper's Figure 3): quartiles, median line, whiskers to the extremes,
 * a diamond at the mean and every document as a dot. Empty groups keep their slot, labelled.
 */
export function BoxPlot({
  groups,
  title,
  unit = "%",
  domain = percentDomain,
  digits = 1,
}: {
  groups: BoxGroup[];
  title: string;
  unit?: string;
  /** The value axis from the values shown: percentages by default. */
  domain?: (values: number[]) => [number, number];
  /** Decimals of the means and medians in the accessible name. */
  digits?: number;
}) {
  const y = linearScale(domain(groups.flatMap(({ values }) => values)), [
    HEIGHT - MARGIN.bottom,
    MARGIN.top,
  ]);
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, groups.length);
  const centre = (index: number) => MARGIN.left + slot * (index + 0.5);
  const summaryText = groups
    .map(({ label, summary }) =>
      summary.count === 0
        ? `${label}: no documents scored`
        : `${label}: mean ${summary.mean!.toFixed(digits)}${unit}, median ${summary.median!.toFixed(digits)}${unit}, ${counted(summary.count, "document")}`,
    )
    .join("; ");

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="chart"
      role="img"
      aria-label={`${title}. ${summaryText}.`}
      data-testid="box-plot"
    >
      <YGrid
        y={y}
        left={MARGIN.left}
        right={WIDTH - MARGIN.right}
        label={(tick) => `${tick}${unit}`}
      />
      {groups.map(({ label, values, summary }, index) => {
        const x = centre(index);
        return (
          <g key={label} className="box">
            <text x={x} y={HEIGHT - 12} textAnchor="middle" className="axis-label">
              {label}
            </text>
            {summary.count === 0 ? (
              <text x={x} y={(HEIGHT - MARGIN.bottom + MARGIN.top) / 2} textAnchor="middle">
                open
              </text>
            ) : (
              <>
                <line className="whisker" x1={x} x2={x} y1={y(summary.min!)} y2={y(summary.max!)} />
                <line
                  className="whisker"
                  x1={x - 8}
                  x2={x + 8}
                  y1={y(summary.min!)}
                  y2={y(summary.min!)}
                />
                <line
                  className="whisker"
                  x1={x - 8}
                  x2={x + 8}
                  y1={y(summary.max!)}
                  y2={y(summary.max!)}
                />
                <rect
                  x={x - BOX_WIDTH / 2}
                  width={BOX_WIDTH}
                  y={y(summary.q3!)}
                  height={Math.max(1, y(summary.q1!) - y(summary.q3!))}
                />
                <line
                  className="median"
                  x1={x - BOX_WIDTH / 2}
                  x2={x + BOX_WIDTH / 2}
                  y1={y(summary.median!)}
                  y2={y(summary.median!)}
                />
                <path
                  className="mean"
                  d={`M ${x} ${y(summary.mean!) - 5} l 5 5 l -5 5 l -5 -5 z`}
                />
                {values.map((value, position) => (
                  <circle
                    key={position}
                    className="dot"
                    cx={x + BOX_WIDTH / 2 + 8 + (position % 4) * 4}
                    cy={y(value)}
                    r={2.5}
                  />
                ))}
              </>
            )}
          </g>
        );
      })}
    </svg>
  );
}
