import { useMemo } from "react";
import { annotationTarget, fetchEditorPayload } from "../api/annotation";
import { Editor } from "./Editor";
import { loadDraft } from "./draft";
import { PayloadLoader } from "./PayloadLoader";
import { ReviewEditor } from "./ReviewEditor";

interface EditorPageProps {
  projectId: number;
  documentId: number;
  userId: number;
}

export function EditorPage({ projectId, documentId, userId }: EditorPageProps) {
  const target = useMemo(() => annotationTarget(projectId, documentId), [documentId, projectId]);
  return (
    <PayloadLoader
      load={(signal) =>
        fetchEditorPayload(projectId, documentId, signal).then((payload) => ({
          payload,
          draft: loadDraft(target.draftScope, userId),
        }))
      }
      deps={[documentId, projectId, userId]}
      refusal="This document does not exist or is not assigned to you."
    >
      {({ payload, draft }) =>
        payload.may_annotate ? (
          <Editor payload={payload} userId={userId} draft={draft} target={target} />
        ) : (
          <ReviewEditor payload={payload} userId={userId} target={target} />
        )
      }
    </PayloadLoader>
  );
}
