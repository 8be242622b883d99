import { useEffect, useState } from "react";
import type { DocumentStatus } from "../api/annotation";
import {
  fetchMyDocuments,
  fetchProjects,
  type DocumentSummary,
  type Project,
} from "../api/documents";
import { Link, editorPath } from "../app/router";
import { leftOff, loadPosition, type Position } from "../editor/draft";
import { LEAD_HOME } from "../lead/routes";
import { AssignedStudies } from "../rating/AssignedStudies";
import { listed } from "../text/plural";

const STATUS_LABELS: Record<DocumentStatus, string> = {
  importing: "Importing",
  import_failed: "Import failed",
  imported: "Imported",
  pre_aligned: "To do",
  in_annotation: "In progress",
  submitted: "Submitted",
};

const OPENABLE: ReadonlySet<DocumentStatus> = new Set([
  "pre_aligned",
  "in_annotation",
  "submitted",
  "imported",
]);

/** Where the caller is with a document: the document's status counts everyone's work (a
 * co-annotator's submission makes it "submitted"), theirs only counts their own. */
export function yourStatus(document: DocumentSummary): DocumentStatus {
  if (!["pre_aligned", "in_annotation", "submitted"].includes(document.status)) {
    return document.status;
  }
  const mine = document.my_annotation;
  if (mine?.submitted_at) return "submitted";
  return mine ? "in_annotation" : "pre_aligned";
}

interface Row {
  project: Project;
  document: DocumentSummary;
  position: Position | null;
}

type Load =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; rows: Row[]; leads: Project[] };

export function DocumentListPage({ userId, projectId }: { userId: number; projectId?: number }) {
  const [load, setLoad] = useState<Load>({ state: "loading" });

  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      const projects = (await fetchProjects(controller.signal)).filter(
        (project) => projectId === undefined || project.id === projectId,
      );
      const perProject = await Promise.all(
        projects.map(async (project) =>
          (await fetchMyDocuments(project.id, controller.signal)).map((document) => ({
            project,
            document,
            position: leftOff(
              loadPosition(document.id, userId),
              document.my_position,
              document.turn_count,
            ),
          })),
        ),
      );
      const leads = projects.filter((project) => project.role === "lead");
      setLoad({ state: "ready", rows: perProject.flat(), leads });
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) {
        setLoad({
          state: "failed",
          message: error instanceof Error ? error.message : String(error),
        });
      }
    });
    return () => controller.abort();
  }, [projectId, userId]);

  return (
    <main className="documents-page">
      <h1>Your documents</h1>
      {load.state === "loading" && (
        <p role="status" aria-busy="true">
          Loading your documents…
        </p>
      )}
      {load.state === "failed" && (
        <p role="alert">Your documents could not be loaded: {load.message}</p>
      )}
      {load.state === "ready" && <DocumentTable rows={load.rows} leads={load.leads} />}
      <AssignedStudies projectId={projectId} />
    </main>
  );
}

function DocumentTable({ rows, leads }: { rows: Row[]; leads: Project[] }) {
  if (rows.length === 0) {
    return leads.length > 0 ? (
      <p>
        No document is assigned to you. You lead {listed(leads.map((project) => project.name))}:
        upload documents and assign them from <Link href={LEAD_HOME}>their lead pages</Link>.
      </p>
    ) : (
      <p>No document is assigned to you yet. Your project lead assigns documents.</p>
    );
  }
  const resume = rows
    .filter((row) => row.position && yourStatus(row.document) !== "submitted")
    .sort((left, right) => right.position!.at - left.position!.at)[0];
  return (
    <>
      {resume && (
        <p className="resume">
          <Link href={editorPath(resume.project.id, resume.document.id)} className="button primary">
            Continue “{resume.document.name}” at turn {resume.position!.turn + 1}
          </Link>
        </p>
      )}
      <table className="documents">
        <caption className="visually-hidden">Documents assigned to you</caption>
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Project</th>
            <th scope="col">Status</th>
            <th scope="col">Size</th>
            <th scope="col">Where you left off</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ project, document, position }) => (
            <tr key={document.id} data-testid="document-row">
              <th scope="row">
                {OPENABLE.has(document.status) ? (
                  <Link href={editorPath(project.id, document.id)}>{document.name}</Link>
                ) : (
                  document.name
                )}
              </th>
              <td>{project.name}</td>
              <td>
                <span className={`status-badge status-${yourStatus(document)}`}>
                  {STATUS_LABELS[yourStatus(document)]}
                </span>
              </td>
              <td>
                {document.turn_count} turns, {document.segment_count} segments
              </td>
              <td>
                {position ? (
                  <>
                    <progress
                      max={position.turnCount}
                      value={position.turn + 1}
                      aria-label={`Turn ${position.turn + 1} of ${position.turnCount}`}
                    />{" "}
                    turn {position.turn + 1} of {position.turnCount}
                  </>
                ) : (
                  "not opened yet"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
