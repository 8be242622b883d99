import { useEffect, useRef, type ReactNode } from "react";

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/**
 * A modal built on <dialog>: the browser traps focus, closes on Escape and restores focus
 * afterwards, and screen readers announce it with its title. The button marked
 * `data-autofocus` takes the focus once the dialog shows: React's autoFocus fires at mount,
 * before showModal(), which then moves the focus to the first button, often the one that acts.
 */
export function Dialog({ open, title, onClose, children, className }: DialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className={["dialog", className].filter(Boolean).join(" ")}
      aria-labelledby="dialog-title"
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id="dialog-title">{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
