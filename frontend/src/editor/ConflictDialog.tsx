import { Dialog } from "../components/Dialog";
import { UNALIGNED } from "./state";
import { changedTurns } from "./sync";
import type { Conflict } from "./useAutosave";
import { counted } from "../text/plural";

/** The differing turns listed in the dialog; the rest are counted. */
const LISTED_DIFFERENCES = 40;

function describe(segment: number | undefined): string {
  return segment === undefined || segment === UNALIGNED ? "unaligned" : `§ ${segment + 1}`;
}

/** One side's value of a turn, or that it kept the common version (both sides started from
 * `base`: a turn only the other side changed is not yours to keep). */
function sideOf(segment: number | undefined, base: number | undefined, unchanged: string): string {
  return segment === base ? `${unchanged} (${describe(base)})` : describe(segment);
}

interface ConflictDialogProps {
  conflict: Conflict | null;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}

/**
 * Someone (often the same annotator in another tab) saved this document first. Both versions
 * are shown turn by turn; keeping mine re-applies my edits on top of theirs, so that neither
 * is lost unless the annotator chooses so.
 */
export function ConflictDialog({ conflict, onKeepMine, onTakeTheirs }: ConflictDialogProps) {
  return (
    <Dialog
      open={conflict !== null}
      title="This document was changed elsewhere"
      // Closing without choosing would leave saving paused, so Escape does nothing here.
      onClose={() => undefined}
      className="conflict-dialog"
    >
      {conflict && (
        <ConflictChoice conflict={conflict} onKeepMine={onKeepMine} onTakeTheirs={onTakeTheirs} />
      )}
    </Dialog>
  );
}

function ConflictChoice({
  conflict,
  onKeepMine,
  onTakeTheirs,
}: ConflictDialogProps & { conflict: Conflict }) {
  const { theirs, mine, base } = conflict;
  const mineChanged = changedTurns(base, mine);
  const theirsChanged = changedTurns(base, theirs.assignments);
  const differences = changedTurns(theirs.assignments, mine);
  const submitted = theirs.submitted_at !== null;
  return (
    <>
      <p>
        While you were working, another window or device saved this document (now version{" "}
        {theirs.version}
        {submitted ? ", submitted" : ""}). It changed {counted(theirsChanged.length, "turn")}; you
        have {counted(mineChanged.length, "unsaved change")}. Nothing has been overwritten.
      </p>
      {differences.length > 0 && (
        <table className="differences">
          <caption>Turns where the two versions differ</caption>
          <thead>
            <tr>
              <th scope="col">Turn</th>
              <th scope="col">Other version</th>
              <th scope="col">Yours</th>
            </tr>
          </thead>
          <tbody>
            {differences.slice(0, LISTED_DIFFERENCES).map((turn) => (
              <tr key={turn}>
                <td>{turn + 1}</td>
                <td>{sideOf(theirs.assignments[turn], base[turn], "not changed there")}</td>
                <td>{sideOf(mine[turn], base[turn], "not changed by you")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {differences.length > LISTED_DIFFERENCES && (
        <p>…and {differences.length - LISTED_DIFFERENCES} more.</p>
      )}
      {submitted ? (
        <p>The other version is submitted, so it can no longer be changed.</p>
      ) : (
        <p>
          <em>Keep mine</em> applies your changes on top of the other version and saves;{" "}
          <em>Take theirs</em> drops your unsaved changes.
        </p>
      )}
      <div className="dialog-actions">
        {!submitted && (
          <button type="button" className="primary" onClick={onKeepMine} data-autofocus>
            Keep mine
          </button>
        )}
        <button type="button" onClick={onTakeTheirs} data-autofocus={submitted || undefined}>
          {submitted ? "Show the submitted version" : "Take theirs"}
        </button>
      </div>
    </>
  );
}
