import type { Schema } from "../api/schema";

type PreAlignmentWarning = Schema<"PreAlignmentWarning">;

/**
 * What the engine found degenerate in this document's pre-alignment (every turn on one
 * segment, none aligned, confidences all alike, worse than the diagonal), each with what
 * happened, its likely cause and what to do. The server sends warnings to leads and curators
 * only: adding documents, uploading word vectors, changing the language and pre-aligning
 * again are theirs to do, so an annotator's editor shows nothing here.
 */
export function PreAlignmentWarnings({ warnings }: { warnings: PreAlignmentWarning[] }) {
  if (warnings.length === 0) {
    return null;
  }
  return (
    <section className="pre-alignment-warnings" aria-label="Pre-alignment warnings">
      <h2>This pre-alignment looks degenerate</h2>
      {warnings.map((warning) => (
        <div key={warning.code} className="pre-alignment-warning" data-code={warning.code}>
          <p className="warning-message">{warning.message}</p>
          <p>
            <strong>Likely cause:</strong> {warning.cause}
          </p>
          <p>
            <strong>What to do:</strong> {warning.do}
          </p>
        </div>
      ))}
    </section>
  );
}
