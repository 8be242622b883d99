import type { Span } from "./playback";

interface PlaybackControlProps {
  playing: boolean;
  /** What the selection plays; null when its turns have no times. */
  span: Span | null;
  selectionLabel: string;
  onPlay: () => void;
  onStop: () => void;
}

/** Plays the selected turns from the document's recording, or stops (key P). */
export function PlaybackControl({
  playing,
  span,
  selectionLabel,
  onPlay,
  onStop,
}: PlaybackControlProps) {
  const title = playing
    ? "Stop (P)"
    : span
      ? `Play ${selectionLabel} from the recording (P)`
      : `Nothing to play: ${selectionLabel} has no times in the transcript`;
  return (
    <div className="tool-group" role="group" aria-label="Listen">
      <button
        type="button"
        className="play-button"
        onClick={playing ? onStop : onPlay}
        disabled={!playing && span === null}
        title={title}
        aria-keyshortcuts="P"
        aria-pressed={playing}
      >
        {playing ? "■ Stop" : "▶ Play"}
      </button>
    </div>
  );
}
