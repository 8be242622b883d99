import { Link } from "../app/router";
import { fetchIteration, fetchIterations, fetchParameterSets, type Iteration } from "../lead/api";
import { usernameOf, useProject } from "../lead/ProjectContext";
import { iterationPath } from "../lead/routes";
import { useLoad } from "../components/useLoad";
import { submissionsByAnnotator } from "./progress";
import { counted } from "../text/plural";

const OPEN_STATUSES: ReadonlySet<Iteration["status"]> = new Set(["open", "annotating"]);

/** Where the loop stands: the parameters that pre-align the next batch, and how far the open
 * iteration's annotators are. */
export function LoopStatusPanel() {
  const { project, members } = useProject();
  const [loaded] = useLoad(
    async (signal) => {
      const [iterations, parameterSets] = await Promise.all([
        fetchIterations(project.id, signal),
        fetchParameterSets(project.id, signal),
      ]);
      const open = iterations.find((iteration) => OPEN_STATUSES.has(iteration.status));
      const detail = open ? await fetchIteration(project.id, open.id, signal) : null;
      return { iterations, parameterSets, detail };
    },
    [project.id, project.promoted_parameter_set],
  );
  if (loaded.state !== "ready") return null;
  const { iterations, parameterSets, detail } = loaded.data;
  const promoted = parameterSets.find((set) => set.id === project.promoted_parameter_set);
  const latest = iterations.filter((iteration) => iteration.status !== "cancelled").at(-1);
  const inUse = promoted?.name ?? latest?.parameters.name ?? null;
  return (
    <section aria-labelledby="loop-status-heading" className="dashboard-panel">
      <h2 id="loop-status-heading">Now</h2>
      <p data-testid="parameters-in-use">
        {inUse ? (
          <>
            Pre-aligning with <strong>{inUse}</strong>
            {promoted ? " (promoted)" : " (what the latest iteration used)"}.
          </>
        ) : (
          "No parameters in use yet: the first iteration chooses the shipped defaults or the diagonal."
        )}
      </p>
      {detail ? (
        <div data-testid="open-iteration-progress">
          <p>
            <Link href={iterationPath(project.id, detail.id)}>Iteration {detail.number}</Link>:{" "}
            {detail.documents.filter((document) => document.gold.state !== "unsubmitted").length} of{" "}
            {counted(detail.documents.length, "document")} submitted.
          </p>
          <ul className="plain-list">
            {submissionsByAnnotator(detail).map((row) => (
              <li key={row.annotator}>
                {usernameOf(members, row.annotator)}: {row.submitted} of {row.assigned} submitted
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">No iteration is open.</p>
      )}
    </section>
  );
}
