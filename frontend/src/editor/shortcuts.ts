import type { EditorAction } from "./state";

/**
 * Every keyboard shortcut of the editor, in one table: the key handler reads it to decide what
 * a key press does and the help overlay reads it to list them, so the two cannot disagree.
 */

export type Command =
  | "nextTurn"
  | "previousTurn"
  | "extendDown"
  | "extendUp"
  | "assignAbove"
  | "assignBelow"
  | "boundaryUp"
  | "boundaryDown"
  | "markUnaligned"
  | "resetToPreAlignment"
  | "undo"
  | "redo"
  | "save"
  | "submit"
  | "nextLowConfidence"
  | "previousLowConfidence"
  | "nextChanged"
  | "previousChanged"
  | "nextDisagreement"
  | "previousDisagreement"
  | "takeFirst"
  | "takeSecond"
  | "takeThird"
  | "toggleReview"
  | "confirmTurn"
  | "acceptRest"
  | "search"
  | "goTo"
  | "assignTo"
  | "playSelection"
  | "help"
  | "escape";

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

interface Binding {
  key: string;
  /** Ctrl on Linux and Windows, ⌘ on macOS. */
  primary?: boolean;
  alt?: boolean;
  shift?: boolean;
}

export interface Shortcut {
  command: Command;
  description: string;
  bindings: Binding[];
}

export const SHORTCUTS: readonly Shortcut[] = [
  { command: "nextTurn", description: "Next turn", bindings: [{ key: "ArrowDown" }, { key: "j" }] },
  {
    command: "previousTurn",
    description: "Previous turn",
    bindings: [{ key: "ArrowUp" }, { key: "k" }],
  },
  {
    command: "extendDown",
    description: "Extend the selection down",
    bindings: [
      { key: "ArrowDown", shift: true },
      { key: "J", shift: true },
    ],
  },
  {
    command: "extendUp",
    description: "Extend the selection up",
    bindings: [
      { key: "ArrowUp", shift: true },
      { key: "K", shift: true },
    ],
  },
  {
    command: "assignAbove",
    description: "Assign the selection to the segment above",
    bindings: [{ key: "ArrowUp", alt: true }],
  },
  {
    command: "assignBelow",
    description: "Assign the selection to the segment below",
    bindings: [{ key: "ArrowDown", alt: true }],
  },
  {
    command: "boundaryUp",
    description: "Move the boundary above this turn's segment up one turn",
    bindings: [{ key: "ArrowUp", alt: true, shift: true }],
  },
  {
    command: "boundaryDown",
    description: "Move the boundary above this turn's segment down one turn",
    bindings: [{ key: "ArrowDown", alt: true, shift: true }],
  },
  {
    command: "markUnaligned",
    description: "Mark the selection unaligned (irrelevant)",
    bindings: [{ key: "u" }, { key: "Delete" }],
  },
  {
    command: "resetToPreAlignment",
    description: "Reset the selection to the pre-alignment",
    bindings: [{ key: "r" }],
  },
  { command: "undo", description: "Undo", bindings: [{ key: "z", primary: true }] },
  {
    command: "redo",
    description: "Redo",
    bindings: [
      { key: "Z", primary: true, shift: true },
      { key: "y", primary: true },
    ],
  },
  { command: "save", description: "Save now", bindings: [{ key: "s", primary: true }] },
  {
    command: "submit",
    description: "Submit the document",
    bindings: [{ key: "Enter", primary: true }],
  },
  {
    command: "nextLowConfidence",
    description: "Next low-confidence turn",
    bindings: [{ key: "n" }],
  },
  {
    command: "previousLowConfidence",
    description: "Previous low-confidence turn",
    bindings: [{ key: "N", shift: true }],
  },
  { command: "nextChanged", description: "Next changed turn", bindings: [{ key: "c" }] },
  {
    command: "previousChanged",
    description: "Previous changed turn",
    bindings: [{ key: "C", shift: true }],
  },
  {
    command: "nextDisagreement",
    description: "Adjudicating: next turn the annotators disagree on",
    bindings: [{ key: "d" }],
  },
  {
    command: "previousDisagreement",
    description: "Adjudicating: previous disagreement",
    bindings: [{ key: "D", shift: true }],
  },
  {
    command: "takeFirst",
    description: "Adjudicating: the selection takes the first annotator's labels",
    bindings: [{ key: "1" }],
  },
  {
    command: "takeSecond",
    description: "Adjudicating: the selection takes the second annotator's labels",
    bindings: [{ key: "2" }],
  },
  {
    command: "takeThird",
    description: "Adjudicating: the selection takes the third annotator's labels",
    bindings: [{ key: "3" }],
  },
  {
    command: "toggleReview",
    description:
      "Review mode on or off: N and Shift + N then step through the turns the pre-alignment is least sure of",
    bindings: [{ key: "v" }],
  },
  {
    command: "confirmTurn",
    description: "Review mode: confirm the selected turns and go to the next turn to review",
    bindings: [{ key: "Enter" }],
  },
  {
    command: "acceptRest",
    description:
      "Review mode: accept the turns not reviewed as proposed, and submit (after the spot check, where the iteration asks for one)",
    bindings: [{ key: "A", shift: true }],
  },
  {
    command: "search",
    description: "Search both texts",
    bindings: [{ key: "/" }, { key: "f", primary: true }],
  },
  {
    command: "goTo",
    description: "Go to a turn or segment by number",
    bindings: [{ key: "g" }],
  },
  {
    command: "assignTo",
    description: "Assign the selection to a segment by number",
    bindings: [{ key: "a" }],
  },
  {
    command: "playSelection",
    description: "Play the selected turns from the recording, or stop",
    bindings: [{ key: "p" }],
  },
  { command: "help", description: "Show or hide this list", bindings: [{ key: "?" }] },
  {
    command: "escape",
    description: "Close a dialog, dismiss a message",
    bindings: [{ key: "Escape" }],
  },
];

function matches(binding: Binding, press: KeyPress): boolean {
  const primary = press.ctrlKey || press.metaKey;
  // Punctuation such as "?" or "/" needs Shift on some layouts and not on others.
  const isLetter = binding.key.toLowerCase() !== binding.key.toUpperCase();
  const shiftMatters = binding.key.length > 1 || isLetter;
  return (
    binding.key === press.key &&
    Boolean(binding.primary) === primary &&
    Boolean(binding.alt) === press.altKey &&
    (!shiftMatters || Boolean(binding.shift) === press.shiftKey)
  );
}

export function commandFor(press: KeyPress): Command | null {
  for (const shortcut of SHORTCUTS) {
    if (shortcut.bindings.some((binding) => matches(binding, press))) return shortcut.command;
  }
  return null;
}

const KEY_NAMES: Record<string, string> = {
  ArrowUp: "↑",
  ArrowDown: "↓",
  Escape: "Esc",
  Delete: "Del",
};

/** How a binding reads in the help overlay, e.g. "Ctrl + Shift + Z". */
export function describeBinding(binding: Binding, isMac: boolean): string {
  const parts: string[] = [];
  if (binding.primary) parts.push(isMac ? "⌘" : "Ctrl");
  if (binding.alt) parts.push(isMac ? "⌥" : "Alt");
  if (binding.shift) parts.push("Shift");
  parts.push(
    KEY_NAMES[binding.key] ?? (binding.key.length === 1 ? binding.key.toUpperCase() : binding.key),
  );
  return parts.join(" + ");
}

/** The state change a command makes, for the commands that act on the turns. */
export function editorActionFor(command: Command): EditorAction | null {
  switch (command) {
    case "nextTurn":
      return { type: "moveFocus", delta: 1 };
    case "previousTurn":
      return { type: "moveFocus", delta: -1 };
    case "extendDown":
      return { type: "moveFocus", delta: 1, extend: true };
    case "extendUp":
      return { type: "moveFocus", delta: -1, extend: true };
    case "assignAbove":
      return { type: "assignAdjacent", direction: -1 };
    case "assignBelow":
      return { type: "assignAdjacent", direction: 1 };
    case "boundaryUp":
      return { type: "moveBoundary", direction: -1 };
    case "boundaryDown":
      return { type: "moveBoundary", direction: 1 };
    case "markUnaligned":
      return { type: "markUnaligned" };
    case "resetToPreAlignment":
      return { type: "resetToPreAlignment" };
    case "undo":
      return { type: "undo" };
    case "redo":
      return { type: "redo" };
    default:
      return null;
  }
}
