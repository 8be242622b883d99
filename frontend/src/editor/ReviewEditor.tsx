import { useState } from "react";
import type { EditorPayload, SaveTarget } from "../api/annotation";
import { adjudicationPath, Link } from "../app/router";
import { leadProjectPath } from "../lead/routes";
import { Editor } from "./Editor";

interface ReviewEditorProps {
  payload: EditorPayload;
  userId: number;
  target: SaveTarget;
}

/**
 * A lead or curator opening a document assigned to others reads the assignees' work, one
 * annotation at a time, in the editor made read-only: their own edits would not count, and
 * correcting the assignees is what an adjudication is for.
 */
export function ReviewEditor({ payload, userId, target }: ReviewEditorProps) {
  const annotations = payload.annotations;
  const firstSubmitted = annotations.find((annotation) => annotation.submitted_at);
  const [chosenId, setChosenId] = useState(firstSubmitted?.id ?? annotations[0]?.id ?? null);
  const chosen = annotations.find((annotation) => annotation.id === chosenId) ?? null;
  const submitted = annotations.filter((annotation) => annotation.submitted_at).length;
  const { project, id } = payload.document;
  const banner = (
    <div className="review-banner" role="region" aria-label="Reading the assignees' work">
      <span>
        Assigned to others: you are reading their work, read-only. Corrections go through an
        adjudication, never into their copies.
      </span>
      {annotations.length > 0 ? (
        <label>
          Showing{" "}
          <select
            value={chosenId ?? ""}
            onChange={(event) => setChosenId(Number(event.target.value))}
          >
            {annotations.map((annotation) => (
              <option key={annotation.id} value={annotation.id ?? ""}>
                {annotation.username}
                {annotation.submitted_at
                  ? " (submitted)"
                  : ` (in progress, version ${annotation.version})`}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <span>No assignee has saved anything yet: this is the pre-alignment.</span>
      )}
      {submitted > 0 ? (
        <Link className="button primary" href={adjudicationPath(project, id)}>
          Adjudicate ({submitted} submitted)
        </Link>
      ) : (
        <span>Adjudication opens once an assignee has submitted.</span>
      )}
    </div>
  );
  return (
    <Editor
      key={chosenId ?? "pre-alignment"}
      payload={chosen ? { ...payload, annotation: chosen } : payload}
      userId={userId}
      draft={null}
      target={target}
      readOnly
      banner={banner}
      back={{ href: leadProjectPath(project, "documents"), label: "Project documents" }}
    />
  );
}
