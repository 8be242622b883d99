import { useCallback, useEffect, useRef, type RefObject } from "react";
import { buildAnchors, follow, type Anchor } from "./linkedScroll";
import type { VirtualListHandle } from "./VirtualList";

type Pane = keyof Anchor;

/** Where the eye reads, as a share of the pane's height: the lines near the top. */
const READING_LINE = 0.25;

/**
 * Keeps the two panes side by side. The pane the annotator is using (wheel, pointer, keys,
 * focus) leads; the other follows. Scroll events the follower fires because it was moved are
 * ignored, which is what keeps the two from chasing each other.
 */
export function useLinkedScroll(
  turnList: RefObject<VirtualListHandle | null>,
  segmentList: RefObject<VirtualListHandle | null>,
  assignments: readonly number[],
  enabled: boolean,
) {
  const leader = useRef<Pane>("turns");

  useEffect(() => {
    const handles = { turns: turnList.current, segments: segmentList.current };
    const elements = { turns: handles.turns?.element(), segments: handles.segments?.element() };
    if (!enabled || !handles.turns || !handles.segments || !elements.turns || !elements.segments) {
      return;
    }
    const { turns, segments } = handles;
    const sync = () => {
      const from = leader.current;
      const to: Pane = from === "turns" ? "segments" : "turns";
      const fromElement = elements[from]!;
      const toElement = elements[to]!;
      const anchors = buildAnchors(assignments, turns.offsetOf, segments.offsetOf, {
        turns: turns.totalSize(),
        segments: segments.totalSize(),
      });
      const reading = fromElement.scrollTop + fromElement.clientHeight * READING_LINE;
      const target = follow(anchors, reading, from, to);
      toElement.scrollTop = Math.max(0, target - toElement.clientHeight * READING_LINE);
    };
    const cleanups = (["turns", "segments"] as const).map((pane) => {
      const element = elements[pane]!;
      const lead = () => {
        leader.current = pane;
      };
      const onScroll = () => {
        if (leader.current === pane) sync();
      };
      const leadEvents = ["wheel", "pointerdown", "touchstart", "keydown", "focusin"] as const;
      leadEvents.forEach((name) => element.addEventListener(name, lead, { passive: true }));
      element.addEventListener("scroll", onScroll, { passive: true });
      return () => {
        leadEvents.forEach((name) => element.removeEventListener(name, lead));
        element.removeEventListener("scroll", onScroll);
      };
    });
    // Edits move runs, so the report is realigned on the turns after each one: the turns
    // are what the annotator is working on, even when the edit was a click in the report.
    leader.current = "turns";
    sync();
    return () => cleanups.forEach((cleanup) => cleanup());
  }, [assignments, enabled, segmentList, turnList]);

  /** Makes a pane lead, for jumps the program makes (search results, go to). */
  const lead = useCallback((pane: Pane) => {
    leader.current = pane;
  }, []);

  return { lead };
}
