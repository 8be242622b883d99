import { Link } from "../app/router";
import { StatusIndicator } from "./StatusIndicator";
import type { SaveStatus } from "./useAutosave";

interface EditorHeaderProps {
  name: string;
  save: { status: SaveStatus; error: string | null; submittedAt: string | null };
  counts: { changed: number; unaligned: number; lowConfidence: number };
  editable: boolean;
  onHelp: () => void;
  onSubmit: () => void;
  onReopen: () => void;
}

/** The document, whether it is saved, how far along it is, help, and submit (or reopen a
 * submission). */
export function EditorHeader({
  name,
  save,
  counts,
  editable,
  onHelp,
  onSubmit,
  onReopen,
}: EditorHeaderProps) {
  return (
    <header className="editor-header">
      <Link href="/" className="back-link">
        ← Documents
      </Link>
      <h1>{name}</h1>
      <StatusIndicator status={save.status} error={save.error} submittedAt={save.submittedAt} />
      <p className="progress" aria-label="Progress">
        {counts.changed} changed · {counts.unaligned} unaligned · {counts.lowConfidence} low
        confidence
      </p>
      <button type="button" onClick={onHelp} aria-keyshortcuts="?">
        Shortcuts
      </button>
      {save.submittedAt ? (
        <button type="button" onClick={onReopen}>
          Reopen
        </button>
      ) : (
        <button
          type="button"
          className="primary"
          onClick={onSubmit}
          disabled={!editable}
          aria-keyshortcuts="Control+Enter"
        >
          Submit
        </button>
      )}
    </header>
  );
}
