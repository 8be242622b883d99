import { useState, type FormEvent } from "react";

export interface CloseOptions {
  tune: boolean;
  grid?: Record<string, unknown[]>;
}

/** Parses the lead's grid: a JSON object of parameter name -> list of values, or nothing. */
export function parseGrid(text: string): { grid?: Record<string, unknown[]>; error?: string } {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "The grid is not valid JSON." };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { error: 'The grid is an object: {"match_offset": [0.3, 0.35], …}.' };
  }
  const bad = Object.entries(value).find(([, values]) => !Array.isArray(values));
  if (bad) return { error: `The grid's ${bad[0]} needs a list of values.` };
  return { grid: value as Record<string, unknown[]> };
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
          placeholder='{"match_offset": [0.3, 0.35, 0.4], "gap_open": [2.0, 3.0]}'
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
