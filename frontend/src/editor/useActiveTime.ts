import { useCallback, useEffect, useMemo, useRef } from "react";

/** After this long without a key, click or scroll, the annotator is taken to be away. */
const IDLE_AFTER_MS = 60_000;

/**
 * Counts the seconds the annotator actually works on the document (page visible, recent
 * activity), handed over to saves with `take` and returned with `giveBack` if a save fails.
 * The same object on every render: autosave's callbacks depend on it, and a new one each
 * render would re-run autosave's effect and send a refused save again and again.
 */
export function useActiveTime(): { take: () => number; giveBack: (seconds: number) => void } {
  const pending = useRef(0);

  useEffect(() => {
    let lastActivity = Date.now();
    const markActive = () => {
      lastActivity = Date.now();
    };
    const events = ["keydown", "pointerdown", "wheel", "scroll"] as const;
    events.forEach((name) =>
      window.addEventListener(name, markActive, { passive: true, capture: true }),
    );
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && Date.now() - lastActivity < IDLE_AFTER_MS) {
        pending.current += 1;
      }
    }, 1000);
    return () => {
      window.clearInterval(timer);
      events.forEach((name) => window.removeEventListener(name, markActive, { capture: true }));
    };
  }, []);

  const take = useCallback(() => {
    const seconds = pending.current;
    pending.current = 0;
    return seconds;
  }, []);
  const giveBack = useCallback((seconds: number) => {
    pending.current += seconds;
  }, []);
  return useMemo(() => ({ take, giveBack }), [take, giveBack]);
}
