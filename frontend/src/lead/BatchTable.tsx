import { useState } from "react";
import {
  assignDocument,
  removeFromIteration,
  type BatchDocument,
  type IterationDetail,
} from "./api";
import { AssigneePicker, DOCUMENT_STATUS_TEXT } from "./DocumentsSection";
import { duration, percent } from "./format";
import { usernameOf, useProject } from "./ProjectContext";
import { messageOf } from "./useLoad";

/** The batch as the lead follows it: who corrects what, how far along, and once closed, how
 * good the pre-alignment was. Until it closes, assignees change and a document nobody will
 * submit can be taken out (closing waits for every document). */
export function BatchTable({
  iteration,
  onChanged,
}: {
  iteration: IterationDetail;
  onChanged: () => void;
}) {
  const { project } = useProject();
  const [error, setError] = useState<string | null>(null);
  const closed = iteration.closed_at !== null;

  const change = async (document: BatchDocument, request: () => Promise<unknown>) => {
    setError(null);
    try {
      await request();
      onChanged();
    } catch (reason) {
      setError(`${document.name}: ${messageOf(reason)}`);
    }
  };

  return (
    <>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <table className="lead-table" aria-label={`Documents of iteration ${iteration.number}`}>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Status</th>
            <th scope="col">Assignees</th>
            <th scope="col">Corrections</th>
            {closed && <th scope="col">Turns kept</th>}
            {closed && <th scope="col">Segment %</th>}
            {closed && <th scope="col">Word %</th>}
            {closed && <th scope="col">WindowDiff</th>}
          </tr>
        </thead>
        <tbody>
          {iteration.documents.map((document) => (
            <tr key={document.id} data-testid="batch-document">
              <th scope="row">{document.name}</th>
              <td>{DOCUMENT_STATUS_TEXT[document.status]}</td>
              <td>
                {closed ? (
                  <Usernames users={document.assignees} />
                ) : (
                  <AssigneePicker
                    documentName={document.name}
                    assignees={document.assignees}
                    onChange={(assignees) =>
                      change(document, () => assignDocument(project.id, document.id, assignees))
                    }
                  />
                )}
              </td>
              <td>
                <Corrections document={document} />
                {!closed && (
                  <button
                    type="button"
                    className="link-button small"
                    onClick={() =>
                      change(document, () => removeFromIteration(project.id, document.id))
                    }
                  >
                    Take out of the iteration
                  </button>
                )}
              </td>
              {closed && (
                <td className="number">{percent(document.record?.human_turn_accuracy)}</td>
              )}
              {closed && <td className="number">{percent(document.record?.segment_accuracy)}</td>}
              {closed && <td className="number">{percent(document.record?.word_accuracy)}</td>}
              {closed && <td className="number">{percent(document.record?.windowdiff)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Usernames({ users }: { users: number[] }) {
  const { members } = useProject();
  return <>{users.map((user) => usernameOf(members, user)).join(", ") || "nobody"}</>;
}

function Corrections({ document }: { document: BatchDocument }) {
  const { members } = useProject();
  if (document.annotations.length === 0) return <span className="muted">not started</span>;
  return (
    <ul className="plain">
      {document.annotations.map((annotation) => (
        <li key={annotation.annotator}>
          {usernameOf(members, annotation.annotator)}: {annotation.turns_changed} of{" "}
          {document.turn_count} turns changed, {duration(annotation.seconds_spent)}
          {annotation.submitted_at ? ", submitted" : ", in progress"}
        </li>
      ))}
    </ul>
  );
}
