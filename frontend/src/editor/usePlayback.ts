import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import type { Span } from "./playback";

export interface Playback {
  audioRef: RefObject<HTMLAudioElement | null>;
  /** Where the playhead is while playing; null when stopped. */
  time: number | null;
  playing: boolean;
  /** Plays `span` and stops at its end. */
  play: (span: Span) => void;
  stop: () => void;
  /** A message when the browser refused to play (no audio device, a broken file). */
  error: string | null;
}

/** The playhead is reported in steps this long: fine enough for words, and the editor
 * renders at most this often while playing instead of on every frame. */
const STEP_SECONDS = 0.05;

/**
 * Drives the editor's audio element: plays a span, stops at its end, and reports the
 * playhead, checked once per frame (the element's own timeupdate comes only every 250 ms or
 * so, too coarse to follow words).
 */
export function usePlayback(): Playback {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const stopAt = useRef<number | null>(null);
  const [time, setTime] = useState<number | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const stop = useCallback(() => {
    audioRef.current?.pause();
    stopAt.current = null;
    setRunning(false);
    setTime(null);
  }, []);

  useEffect(() => {
    if (!running) return;
    let frame = 0;
    function follow() {
      const audio = audioRef.current;
      if (!audio || stopAt.current === null) return;
      if (audio.currentTime >= stopAt.current || audio.ended) {
        stop();
        return;
      }
      setTime(Math.floor(audio.currentTime / STEP_SECONDS) * STEP_SECONDS);
      frame = requestAnimationFrame(follow);
    }
    frame = requestAnimationFrame(follow);
    return () => cancelAnimationFrame(frame);
  }, [running, stop]);

  const play = useCallback(
    (span: Span) => {
      const audio = audioRef.current;
      if (!audio) return;
      setError(null);
      stopAt.current = span.end;
      audio.currentTime = span.start;
      setTime(span.start);
      audio.play().then(
        () => setRunning(true),
        (reason: unknown) => {
          // A newer play() or a stop() interrupts this one: not an error worth showing.
          if (reason instanceof DOMException && reason.name === "AbortError") return;
          stop();
          setError(
            `The recording could not be played: ${reason instanceof Error ? reason.message : String(reason)}`,
          );
        },
      );
    },
    [stop],
  );

  useEffect(() => () => audioRef.current?.pause(), []);

  return { audioRef, time, playing: time !== null, play, stop, error };
}
