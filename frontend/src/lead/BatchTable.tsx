import { useState } from "react";
import { ConfirmDialog } from "../components/ConfirmDialog";
import {
  assignDocument,
  removeFromIteration,
  type BatchDocument,
  type IterationDetail,
} from "./api";
import { adjudicationPath, Link, editorPath } from "../app/router";
import { AssigneePicker, DOCUMENT_STATUS_TEXT } from "./DocumentsSection";
import { duration, percent } from "../text/format";
import { usernameOf, useProject } from "./ProjectContext";
import { messageOf } from "../components/useLoad";
import { counted, transcriptUnit } from "../text/plural";

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
  const [emptying, setEmptying] = useState<BatchDocument | null>(null);
  const closed = iteration.closed_at !== null;
  const takeOut = (document: BatchDocument) =>
    change(document, () => removeFromIteration(project.id, document.id));

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
      <div className="table-fit">
        <table className="lead-table" aria-label={`Documents of iteration ${iteration.number}`}>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Status</th>
              <th scope="col">Assignees</th>
              <th scope="col">Corrections</th>
              <th scope="col">Gold</th>
              {closed && <th scope="col">Turns kept</th>}
              {closed && <th scope="col">Segment %</th>}
              {closed && <th scope="col">Word %</th>}
              {closed && <th scope="col">WindowDiff</th>}
            </tr>
          </thead>
          <tbody>
            {iteration.documents.map((document) => (
              <tr key={document.id} data-testid="batch-document">
                <th scope="row">
                  <Link href={editorPath(project.id, document.id)}>{document.name}</Link>
                </th>
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
                      className="link-button small block"
                      onClick={() =>
                        iteration.documents.length === 1 ? setEmptying(document) : takeOut(document)
                      }
                    >
                      Take out of the iteration
                    </button>
                  )}
                </td>
                <td>
                  <GoldCell document={document} closed={closed} />
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
      </div>
      <ConfirmDialog
        open={emptying !== null}
        title="Take out the last document?"
        confirmLabel="Take it out"
        keepLabel="Keep it"
        onClose={() => setEmptying(null)}
        onConfirm={() => emptying && takeOut(emptying)}
      >
        <p>
          <strong>{emptying?.name}</strong> is the last document of iteration {iteration.number}.
          Without documents the iteration cannot close: add others to it, or cancel it.
        </p>
      </ConfirmDialog>
    </>
  );
}

const GOLD_TEXT = {
  single_annotator: "the annotator's submission",
  agreed: "agreed submissions",
  adjudicated: "adjudicated",
} as const;

/** Which rule made the gold, or why there is none; the way to adjudicate while open. */
function GoldCell({ document, closed }: { document: BatchDocument; closed: boolean }) {
  const { project } = useProject();
  const submitted = document.annotations.some((annotation) => annotation.submitted_at);
  const text =
    document.gold.state === "gold" && document.gold.rule
      ? GOLD_TEXT[document.gold.rule]
      : document.gold.state === "needs_adjudication"
        ? "needs adjudication"
        : "waiting for submissions";
  return (
    <>
      <span className={document.gold.state === "needs_adjudication" ? "error" : undefined}>
        {text}
      </span>
      {!closed && submitted && (
        <>
          {" "}
          <Link className="link-button small" href={adjudicationPath(project.id, document.id)}>
            Adjudicate
          </Link>
        </>
      )}
    </>
  );
}

function Usernames({ users }: { users: number[] }) {
  const { members } = useProject();
  return <>{users.map((user) => usernameOf(members, user)).join(", ") || "nobody"}</>;
}

function Corrections({ document }: { document: BatchDocument }) {
  const { members, project } = useProject();
  if (document.annotations.length === 0) return <span className="muted">not started</span>;
  return (
    <ul className="plain">
      {document.annotations.map((annotation) => (
        <li key={annotation.annotator}>
          {usernameOf(members, annotation.annotator)}: {annotation.turns_changed} of{" "}
          {counted(document.turn_count, transcriptUnit(project))} changed,{" "}
          {duration(annotation.seconds_spent)}
          {annotation.submitted_at ? ", submitted" : ", in progress"}
        </li>
      ))}
    </ul>
  );
}
