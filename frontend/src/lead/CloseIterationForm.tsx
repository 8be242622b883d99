import { useState, type FormEvent } from "react";
import type { Schema } from "../api/schema";

export type CloseOptions = Schema<"IterationCloseApiInput">;
type Grid = NonNullable<CloseOptions["grid"]>;
type GridValue = Grid[string][number];

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** A value the API's grid takes: a scalar, or a list of scalars for names joined by commas. */
function isGridValue(value: unknown): value is GridValue {
  return isScalar(value) || (Array.isArray(value) && value.every((v) => v !== null && isScalar(v)));
}

/** Parses the lead's grid: a JSON object of parameter name -> list of values, or nothing. */
export function parseGrid(text: string): { grid?: Grid; error?: string } {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "The grid is not valid JSON." };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { error: 'The grid is an object: {"turns.match_offset": [0.2, 0.3], …}.' };
  }
  const bad = Object.entries(value).find(([, values]) => !Array.isArray(values));
  if (bad) return { error: `The grid's ${bad[0]} needs a list of values.` };
  const nested = Object.entries(value as Record<string, unknown[]>).find(
    ([, values]) => !values.every(isGridValue),
  );
  if (nested) {
    return { error: `The grid's ${nested[0]} takes numbers, text, true/false or null.` };
  }
  return { grid: value as Grid };
}

/**
 * Closing records accuracy and tunes on all gold so far, over the engine's default grid
 * unless the lead names a smaller one (parameter names as the API takes them, e.g.
 * `scoring__method`); the server checks the names.
 */
export function CloseIterationForm({
  number,
  onClose,
}: {
  number: number;
  onClose: (options: CloseOptions) => void;
}) {
  const [tune, setTune] = useState(true);
  const [gridText, setGridText] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { grid, error: problem } = parseGrid(gridText);
    setError(problem ?? null);
    if (!problem) onClose(tune ? { tune, grid } : { tune });
  };

  return (
    <form onSubmit={submit} aria-label={`Close iteration ${number}`} className="close-form">
      <p>
        <button type="submit" className="primary">
          Close iteration {number}
        </button>{" "}
        <span className="muted">
          Records each document&apos;s accuracy and tunes the aligner on all gold so far.
        </span>
      </p>
      <details>
        <summary>Tuning options</summary>
        <label>
          <input
            type="checkbox"
            checked={tune}
            onChange={(event) => setTune(event.target.checked)}
          />{" "}
          Tune after closing
        </label>
        <label htmlFor="tuning-grid" className="block">
          Grid (JSON; empty for the engine&apos;s default grid)
        </label>
        <textarea
          id="tuning-grid"
          rows={3}
          cols={60}
          disabled={!tune}
          placeholder='{"aligner": ["turns"], "turns.match_offset": [0.2, 0.3], "turns.gap_open": [40, 80]}'
          value={gridText}
          onChange={(event) => setGridText(event.target.value)}
        />
      </details>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
