import type { ReactNode } from "react";
import { canRedo, canUndo, type EditorAction, type EditorState } from "./state";

interface EditorToolbarProps {
  state: EditorState;
  editable: boolean;
  selectionLabel: string;
  onAction: (action: EditorAction) => void;
  /** More tools for the selection, shown after the buttons. */
  children?: ReactNode;
}

/** The edits, as buttons acting on the selected turns; each names its shortcut. */
export function EditorToolbar({
  state,
  editable,
  selectionLabel,
  onAction,
  children,
}: EditorToolbarProps) {
  return (
    <div className="toolbar" role="toolbar" aria-label="Edit the alignment">
      <div className="tool-group" role="group" aria-label="History">
        <button
          type="button"
          onClick={() => onAction({ type: "undo" })}
          disabled={!editable || !canUndo(state)}
          aria-keyshortcuts="Control+Z"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={() => onAction({ type: "redo" })}
          disabled={!editable || !canRedo(state)}
          aria-keyshortcuts="Control+Shift+Z"
        >
          Redo
        </button>
      </div>
      <div className="tool-group" role="group" aria-label={`Edit ${selectionLabel}`}>
        <span className="selection-label" aria-live="polite">
          {selectionLabel.charAt(0).toUpperCase() + selectionLabel.slice(1)}:
        </span>
        <button
          type="button"
          onClick={() => onAction({ type: "assignAdjacent", direction: -1 })}
          disabled={!editable}
          aria-keyshortcuts="Alt+ArrowUp"
        >
          ↑ Segment above
        </button>
        <button
          type="button"
          onClick={() => onAction({ type: "assignAdjacent", direction: 1 })}
          disabled={!editable}
          aria-keyshortcuts="Alt+ArrowDown"
        >
          ↓ Segment below
        </button>
        <button
          type="button"
          onClick={() => onAction({ type: "markUnaligned" })}
          disabled={!editable}
          aria-keyshortcuts="U"
        >
          Unaligned
        </button>
        <button
          type="button"
          onClick={() => onAction({ type: "resetToPreAlignment" })}
          disabled={!editable}
          aria-keyshortcuts="R"
        >
          Reset
        </button>
      </div>
      <div className="tool-group" role="group" aria-label="Boundary above the focused turn">
        <span className="selection-label">Boundary:</span>
        <button
          type="button"
          onClick={() => onAction({ type: "moveBoundary", direction: -1 })}
          disabled={!editable}
          aria-label="Move the boundary up"
          aria-keyshortcuts="Alt+Shift+ArrowUp"
        >
          ▲
        </button>
        <button
          type="button"
          onClick={() => onAction({ type: "moveBoundary", direction: 1 })}
          disabled={!editable}
          aria-label="Move the boundary down"
          aria-keyshortcuts="Alt+Shift+ArrowDown"
        >
          ▼
        </button>
      </div>
      {children}
    </div>
  );
}
