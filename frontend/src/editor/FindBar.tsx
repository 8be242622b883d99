import { useMemo, useState, type FormEvent, type Ref } from "react";
import type { EditorModel } from "./model";
import { counted } from "../text/plural";

export interface SearchHit {
  pane: "turns" | "segments";
  index: number;
}

/** The shortest query searched: one letter would match nearly every turn. */
const MIN_QUERY = 2;

export function normaliseQuery(text: string): string {
  const query = text.trim().toLowerCase().replace(/\s+/g, " ");
  return query.length >= MIN_QUERY ? query : "";
}

/** Hits in reading order: the transcript's first, then the report's. */
export function searchHits(model: EditorModel, query: string): SearchHit[] {
  if (!query) return [];
  const hits: SearchHit[] = [];
  model.turns.forEach((turn) => {
    if (turn.searchText.includes(query)) hits.push({ pane: "turns", index: turn.index });
  });
  model.segments.forEach((segment) => {
    if (segment.searchText.includes(query)) hits.push({ pane: "segments", index: segment.index });
  });
  return hits;
}

interface FindBarProps {
  model: EditorModel;
  query: string;
  onQueryChange: (query: string) => void;
  /** `settle`: the annotator is done finding and goes back to the turns. */
  onJump: (hit: SearchHit, settle: boolean) => void;
  searchRef: Ref<HTMLInputElement>;
  goToRef: Ref<HTMLInputElement>;
  onReturnToTurns: () => void;
}

/** Search both texts and jump to a turn or segment by number. */
export function FindBar({
  model,
  query,
  onQueryChange,
  onJump,
  searchRef,
  goToRef,
  onReturnToTurns,
}: FindBarProps) {
  const [text, setText] = useState("");
  const [hitIndex, setHitIndex] = useState(-1);
  const [goTo, setGoTo] = useState("");
  const [goToError, setGoToError] = useState<string | null>(null);
  const hits = useMemo(() => searchHits(model, query), [model, query]);
  const turnHits = hits.filter((hit) => hit.pane === "turns").length;

  const step = (direction: 1 | -1) => {
    if (hits.length === 0) return;
    const next = (hitIndex + direction + hits.length) % hits.length;
    setHitIndex(next);
    onJump(hits[next]!, false);
  };

  const submitGoTo = (event: FormEvent) => {
    event.preventDefault();
    const match = /^\s*(§|s|t)?\s*(\d+)\s*$/i.exec(goTo);
    const number = match ? Number(match[2]) : NaN;
    const pane = match?.[1] && match[1].toLowerCase() !== "t" ? "segments" : "turns";
    const count = pane === "turns" ? model.turns.length : model.segments.length;
    if (!Number.isInteger(number) || number < 1 || number > count) {
      setGoToError(`Type a turn number (1–${model.turns.length}) or § and a segment number.`);
      return;
    }
    setGoToError(null);
    onJump({ pane, index: number - 1 }, true);
  };

  return (
    <div className="find-bar">
      <form role="search" onSubmit={(event) => event.preventDefault()} className="search">
        <label htmlFor="search-input">Search</label>
        <input
          id="search-input"
          ref={searchRef}
          type="search"
          value={text}
          placeholder="both texts"
          aria-describedby="search-count"
          onChange={(event) => {
            setText(event.target.value);
            setHitIndex(-1);
            onQueryChange(normaliseQuery(event.target.value));
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              step(event.shiftKey ? -1 : 1);
            } else if (event.key === "Escape") {
              onReturnToTurns();
            }
          }}
        />
        <span id="search-count" className="search-count" aria-live="polite">
          {query
            ? `${hitIndex >= 0 ? `${hitIndex + 1} of ` : ""}${counted(turnHits, "turn")}, ${counted(
                hits.length - turnHits,
                "segment",
              )}`
            : ""}
        </span>
        <button
          type="button"
          onClick={() => step(-1)}
          disabled={hits.length === 0}
          aria-label="Previous match"
        >
          ↑
        </button>
        <button
          type="button"
          onClick={() => step(1)}
          disabled={hits.length === 0}
          aria-label="Next match"
        >
          ↓
        </button>
      </form>
      <form onSubmit={submitGoTo} className="go-to">
        <label htmlFor="go-to-input">Go to</label>
        <input
          id="go-to-input"
          ref={goToRef}
          value={goTo}
          size={6}
          placeholder="12 or §5"
          aria-describedby={goToError ? "go-to-error" : undefined}
          aria-invalid={goToError ? true : undefined}
          onChange={(event) => setGoTo(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Escape") onReturnToTurns();
          }}
        />
        {goToError && (
          <span id="go-to-error" role="alert" className="error">
            {goToError}
          </span>
        )}
      </form>
    </div>
  );
}
