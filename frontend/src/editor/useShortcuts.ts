import { useEffect, useLayoutEffect, useRef } from "react";
import { commandFor, type Command } from "./shortcuts";

/**
 * Runs the editor's shortcuts from anywhere on the page, except where keys mean something
 * else: in text fields (only save and submit apply there), in dialogs, which handle their
 * own keys, and Enter on a button or link.
 *
 * The listener reads the latest `run` through a ref updated before the browser paints: a key
 * pressed as soon as new data shows (the review bar, say) acts on that data, never on the
 * closure of the render before.
 */
export function useShortcuts(run: (command: Command) => void): void {
  const latestRun = useRef(run);
  useLayoutEffect(() => {
    latestRun.current = run;
  }, [run]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest("dialog")) return;
      const command = commandFor(event);
      if (!command) return;
      const typing = target?.closest("input, textarea, select, [contenteditable='true']");
      if (typing && command !== "save" && command !== "submit") return;
      // Enter on a button or link presses it; only elsewhere does it confirm a turn.
      if (command === "confirmTurn" && target?.closest("button, a, summary")) return;
      event.preventDefault();
      latestRun.current(command);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
