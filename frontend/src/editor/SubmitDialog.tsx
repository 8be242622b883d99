import { useState } from "react";
import { Dialog } from "./Dialog";

interface SubmitDialogProps {
  open: boolean;
  documentName: string;
  changedCount: number;
  unalignedCount: number;
  onSubmit: () => Promise<void>;
  onClose: () => void;
}

export function SubmitDialog({
  open,
  documentName,
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
    <Dialog open={open} title="Submit this document?" onClose={onClose}>
      <p>
        <strong>{documentName}</strong>: {changedCount} turn{changedCount === 1 ? "" : "s"} changed
        from the pre-alignment, {unalignedCount} unaligned. Once submitted, the alignment can no
        longer be edited here.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={submit} disabled={busy} autoFocus>
          {busy ? "Submitting…" : "Submit"}
        </button>
        <button type="button" onClick={onClose} disabled={busy}>
          Keep working
        </button>
      </div>
    </Dialog>
  );
}
