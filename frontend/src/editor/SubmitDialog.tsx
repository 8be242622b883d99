import { useState } from "react";
import { Dialog } from "../components/Dialog";
import { counted, noun } from "../text/plural";

interface SubmitDialogProps {
  open: boolean;
  documentName: string;
  /** "Submit", or "Complete" for an adjudication. */
  submitWord: string;
  changedCount: number;
  unalignedCount: number;
  onSubmit: () => Promise<void>;
  onClose: () => void;
}

export function SubmitDialog({
  open,
  documentName,
  submitWord,
  changedCount,
  unalignedCount,
  onSubmit,
  onClose,
}: SubmitDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSubmit();
      onClose();
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={`${submitWord} this document?`} onClose={onClose}>
      {submitWord === "Submit" ? (
        <p>
          <strong>{documentName}</strong>: {counted(changedCount, "turn")} changed from the
          pre-alignment, {unalignedCount} unaligned. Once submitted, it counts as finished: it is no
          longer edited unless you reopen it, which you can until its iteration is closed.
        </p>
      ) : (
        <p>
          <strong>{documentName}</strong>: {counted(changedCount, "turn")}{" "}
          {noun(changedCount, "differs", "differ")} from the first submission, {unalignedCount}{" "}
          unaligned. Once completed, this adjudication is the document&apos;s gold; you can reopen
          it to change it until its iteration is closed.
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={submit} disabled={busy} data-autofocus>
          {busy ? "Saving…" : submitWord}
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Keep working
        </button>
      </div>
    </Dialog>
  );
}
