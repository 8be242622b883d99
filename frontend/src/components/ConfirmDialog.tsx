import type { ReactNode } from "react";
import { Dialog } from "./Dialog";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The button that acts, named for what it does ("Cancel the iteration", not "OK"). */
  confirmLabel: string;
  /** The button that leaves things as they are. */
  keepLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}

/** Asks before an action that changes what others are working on; Escape, or Enter on the
 * button focused first, keeps things. */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  keepLabel,
  onConfirm,
  onClose,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      {children}
      <div className="dialog-actions">
        <button
          type="button"
          className="primary"
          onClick={() => {
            onClose();
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" onClick={onClose} data-autofocus>
          {keepLabel}
        </button>
      </div>
    </Dialog>
  );
}
