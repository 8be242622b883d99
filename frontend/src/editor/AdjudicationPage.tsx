import { useCallback, useMemo, useState } from "react";
import {
  adjudicationTarget,
  asAnnotation,
  fetchAdjudicationPayload,
  type AdjudicationPayload,
} from "../api/adjudication";
import type { EditorPayload } from "../api/annotation";
import { Link, editorPath } from "../app/router";
import { buildComparison } from "./comparison";
import { loadDraft } from "./draft";
import { leadProjectPath } from "../lead/routes";
import { Editor } from "./Editor";
import { PayloadLoader } from "./PayloadLoader";

interface AdjudicationPageProps {
  projectId: number;
  documentId: number;
  userId: number;
}

const NO_PRE_ALIGNMENT = {
  id: 0,
  parameter_set: null,
  engine_version: "",
  computed_at: "",
  params: {},
  confidences: [],
  low_confidence_below: 0,
  warnings: [],
};

const GOLD_STATES = {
  gold: "has gold",
  unsubmitted: "waits for an assignee's submission",
  needs_adjudication: "needs adjudication: the submissions disagree",
} as const;

/**
 * The editor on a document's adjudication: the annotators' labels beside every turn, the
 * disagreements marked and stepped through with D and Shift+D, a side taken with 1, 2, 3 for
 * the selected turn or run. Starts from the first submission; completing it makes it the gold.
 */
export function AdjudicationPage({ projectId, documentId, userId }: AdjudicationPageProps) {
  const target = useMemo(() => adjudicationTarget(projectId, documentId), [documentId, projectId]);
  return (
    <PayloadLoader
      load={(signal) =>
        fetchAdjudicationPayload(projectId, documentId, signal).then((payload) => ({
          payload,
          draft: loadDraft(target.draftScope, userId),
        }))
      }
      deps={[documentId, projectId, userId]}
      refusal="This document does not exist, or only the project's leads and curators adjudicate it."
    >
      {({ payload, draft }) =>
        payload.annotations.length === 0 ? (
          <main className="page-message">
            <h1>Nothing to adjudicate yet</h1>
            <p>
              No assignee of <strong>{payload.document.name}</strong> has submitted: adjudication
              compares what they submitted.
            </p>
            <p>
              <Link href={editorPath(projectId, documentId)}>Read their work so far</Link>
            </p>
          </main>
        ) : (
          <Adjudication payload={payload} userId={userId} draft={draft} target={target} />
        )
      }
    </PayloadLoader>
  );
}

function Adjudication({
  payload,
  userId,
  draft,
  target,
}: {
  payload: AdjudicationPayload;
  userId: number;
  draft: ReturnType<typeof loadDraft>;
  target: ReturnType<typeof adjudicationTarget>;
}) {
  const comparison = useMemo(() => buildComparison(payload.annotations), [payload.annotations]);
  // Completing or reopening changes the gold: the banner shows the server's verdict after it.
  const [gold, setGold] = useState(payload.gold);
  const { project: projectId, id: documentId } = payload.document;
  const refreshGold = useCallback(() => {
    fetchAdjudicationPayload(projectId, documentId).then(
      (fresh) => setGold(fresh.gold),
      () => undefined,
    );
  }, [documentId, projectId]);
  const editorPayload = useMemo(
    (): EditorPayload => ({
      document: payload.document,
      segments: payload.segments,
      turns: payload.turns,
      // "Changed" and reset refer to what the adjudication started from; confidences stay.
      pre_alignment: {
        ...(payload.pre_alignment ?? NO_PRE_ALIGNMENT),
        labels: payload.adjudication.baseline,
      },
      annotation: asAnnotation(payload.adjudication),
      may_annotate: true,
      may_reopen: payload.may_reopen,
      position: null,
      assignees: [],
      annotations: [],
      excluded_sections: [],
      audio_url: payload.audio_url,
      turn_words: payload.turn_words,
    }),
    [payload],
  );
  const names = payload.annotations.map((annotation) => annotation.username).join(", ");
  const banner = (
    <div className="review-banner" role="region" aria-label="Adjudication">
      <strong>Adjudicating</strong>
      <span>
        {names}: {comparison.disagreementCount} disputed turn
        {comparison.disagreementCount === 1 ? "" : "s"}; the document{" "}
        <span data-testid="gold-state">
          {GOLD_STATES[gold.state]}
          {gold.rule ? ` (${gold.rule.replaceAll("_", " ")})` : ""}
        </span>
        .{!payload.may_reopen && " Its iteration is closed: the gold is recorded and stays."}
      </span>
      <span>
        <kbd>D</kbd> next disagreement, <kbd>Shift</kbd>+<kbd>D</kbd> previous, <kbd>1</kbd>–
        <kbd>{payload.annotations.length}</kbd> take a side for the selected turns (<kbd>Shift</kbd>
        +<kbd>↓</kbd> selects a run), or correct by hand; <strong>Complete</strong> makes it the
        gold.
      </span>
    </div>
  );
  return (
    <Editor
      payload={editorPayload}
      userId={userId}
      draft={draft}
      target={target}
      comparison={comparison}
      banner={banner}
      submitWord="Complete"
      onSubmittedChange={refreshGold}
      back={{ href: leadProjectPath(projectId, "documents"), label: "Project documents" }}
    />
  );
}
