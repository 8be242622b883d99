import { Link } from "../app/router";
import { counted } from "../text/plural";
import { StatusIndicator } from "./StatusIndicator";
import type { SaveStatus } from "./useAutosave";

interface EditorHeaderProps {
  name: string;
  save: { status: SaveStatus; error: string | null; submittedAt: string | null };
  counts: {
    changed: number;
    unaligned: number;
    lowConfidence: number;
    /** Turns put in a section the alignment leaves out: they count for no summary. */
    inExcluded: number;
    disagreements?: number;
  };
  editable: boolean;
  readOnly: boolean;
  submitWord: string;
  onHelp: () => void;
  onSubmit: () => void;
  onReopen: () => void;
  /** False once the iteration is closed: its gold is recorded, reopening is refused. */
  mayReopen: boolean;
  back?: { href: string; label: string };
}

/** The document, whether it is saved, how far along it is, help, and submit (or reopen a
 * submission). */
export function EditorHeader({
  name,
  save,
  counts,
  editable,
  readOnly,
  submitWord,
  onHelp,
  onSubmit,
  onReopen,
  mayReopen,
  back = { href: "/", label: "Documents" },
}: EditorHeaderProps) {
  return (
    <header className="editor-header">
      <Link href={back.href} className="back-link">
        ← {back.label}
      </Link>
      <h1>{name}</h1>
      <StatusIndicator
        status={save.status}
        error={save.error}
        submittedAt={save.submittedAt}
        submittedWord={submitWord === "Submit" ? "Submitted" : "Completed"}
        readOnly={readOnly}
      />
      <p className="progress" aria-label="Progress">
        {counts.disagreements !== undefined && `${counts.disagreements} disputed · `}
        {counts.changed} changed · {counts.unaligned} unaligned · {counts.lowConfidence} low
        confidence
        {counts.inExcluded > 0 && (
          <span className="warning" data-testid="excluded-warning">
            {" "}
            · {counted(counts.inExcluded, "turn")} in left-out sections
          </span>
        )}
      </p>
      <button type="button" onClick={onHelp} aria-keyshortcuts="?">
        Shortcuts
      </button>
      {readOnly ? null : save.submittedAt ? (
        mayReopen ? (
          <button type="button" onClick={onReopen}>
            Reopen
          </button>
        ) : (
          <span className="muted">Its iteration is closed</span>
        )
      ) : (
        <button
          type="button"
          className="primary"
          onClick={onSubmit}
          disabled={!editable}
          aria-keyshortcuts="Control+Enter"
        >
          {submitWord}
        </button>
      )}
    </header>
  );
}
