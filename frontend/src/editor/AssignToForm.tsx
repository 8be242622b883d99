import { useState, type FormEvent, type Ref } from "react";

interface AssignToFormProps {
  segmentCount: number;
  selectionLabel: string;
  editable: boolean;
  inputRef: Ref<HTMLInputElement>;
  onAssign: (segment: number) => void;
  onCancel: () => void;
}

/** Assigns the selection to any segment by its number, for keyboard work across the report. */
export function AssignToForm({
  segmentCount,
  selectionLabel,
  editable,
  inputRef,
  onAssign,
  onCancel,
}: AssignToFormProps) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = Number(text.replace(/^\s*§\s*/, "").trim());
    if (!Number.isInteger(number) || number < 1 || number > segmentCount) {
      setError(`Type a segment number from 1 to ${segmentCount}.`);
      return;
    }
    setError(null);
    setText("");
    onAssign(number - 1);
  };

  return (
    <form className="assign-to" onSubmit={submit}>
      <label htmlFor="assign-to-input">Assign {selectionLabel} to §</label>
      <input
        id="assign-to-input"
        ref={inputRef}
        value={text}
        size={4}
        inputMode="numeric"
        disabled={!editable}
        aria-keyshortcuts="A"
        aria-describedby={error ? "assign-to-error" : undefined}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") onCancel();
        }}
      />
      {error && (
        <span id="assign-to-error" role="alert" className="error">
          {error}
        </span>
      )}
    </form>
  );
}
