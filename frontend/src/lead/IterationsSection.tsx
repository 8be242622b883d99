import { Link } from "../app/router";
import { fetchAccuracy } from "../api/dashboards";
import { fetchDocuments, fetchIterations, fetchParameterSets, type Iteration } from "./api";
import { percent } from "../text/format";
import { OpenIterationForm } from "./OpenIterationForm";
import { useProject } from "./ProjectContext";
import { iterationPath } from "./routes";
import { useLoad } from "../components/useLoad";

export const ITERATION_STATUS_TEXT = {
  open: "Pre-aligning",
  annotating: "Annotating",
  closing: "Closing: tuning",
  closed: "Closed",
  cancelled: "Cancelled",
} as const;

export function IterationsSection() {
  const { project } = useProject();
  const [loaded, reload] = useLoad(
    async (signal) => {
      const [iterations, accuracy, documents, parameterSets] = await Promise.all([
        fetchIterations(project.id, signal),
        fetchAccuracy(project.id, signal),
        fetchDocuments(project.id, signal),
        fetchParameterSets(project.id, signal),
      ]);
      const summaries = new Map(accuracy.iterations.map((row) => [row.iteration, row.summary]));
      return { iterations, summaries, documents, parameterSets };
    },
    [project.id, project.promoted_parameter_set],
  );

  if (loaded.state === "loading") return <p aria-busy="true">Loading iterations…</p>;
  if (loaded.state === "failed") {
    return <p role="alert">Iterations could not be loaded: {loaded.message}</p>;
  }
  const { iterations, summaries, documents, parameterSets } = loaded.data;
  // What the project really pre-aligns with, by name and aligner: a talk project starts with
  // TalkSumm's HMM promoted, not the shipped defaults.
  const promoted = parameterSets.find((set) => set.id === project.promoted_parameter_set);
  const promotedName =
    project.promoted_parameter_set === null
      ? null
      : promoted
        ? `the promoted parameter set “${promoted.name}” (${promoted.params.aligner} aligner)`
        : "the promoted parameter set";
  const unfinished = iterations.find((it) => it.status === "open" || it.status === "annotating");
  return (
    <>
      <section aria-labelledby="iterations-heading" className="lead-section">
        <h2 id="iterations-heading">Iterations</h2>
        {iterations.length === 0 ? (
          <p data-testid="first-iteration-parameters">
            {promotedName === null
              ? "No iteration yet. The first is pre-aligned with the shipped defaults, or the diagonal aligner if you choose it below."
              : `No iteration yet. The first is pre-aligned with the parameters in use: ${promotedName}.`}
          </p>
        ) : (
          <table className="lead-table" aria-label="Iterations">
            <thead>
              <tr>
                <th scope="col">Iteration</th>
                <th scope="col">Status</th>
                <th scope="col">Documents</th>
                <th scope="col">Pre-aligned with</th>
                <th scope="col">Mean accuracy (turns)</th>
                <th scope="col">Median</th>
              </tr>
            </thead>
            <tbody>
              {iterations.map((iteration) => {
                const summary = summaries.get(iteration.id)?.human_turn_accuracy;
                return (
                  <tr key={iteration.id}>
                    <th scope="row">
                      <Link href={iterationPath(project.id, iteration.id)}>
                        #{iteration.number}
                        {iteration.name && ` ${iteration.name}`}
                      </Link>
                    </th>
                    <td>{ITERATION_STATUS_TEXT[iteration.status]}</td>
                    <td className="number">{iteration.document_count}</td>
                    <td>{iteration.parameters.name ?? "—"}</td>
                    <td className="number">{percent(summary?.mean)}</td>
                    <td className="number">{percent(summary?.median)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      {unfinished ? (
        <p className="lead-section">
          Iteration {unfinished.number} is still{" "}
          {ITERATION_STATUS_TEXT[unfinished.status].toLowerCase()}:{" "}
          <Link href={iterationPath(project.id, unfinished.id)}>follow and close it</Link> before
          opening the next.
        </p>
      ) : (
        <OpenIterationForm
          nextNumber={(iterations.at(-1)?.number ?? 0) + 1}
          inUse={promotedName ?? lastUsed(iterations)}
          documents={documents}
          onOpened={reload}
        />
      )}
    </>
  );
}

/** The parameter set the latest iteration (not cancelled) was pre-aligned with. */
function lastUsed(iterations: Iteration[]): string | null {
  const used = iterations.filter((iteration) => iteration.status !== "cancelled");
  return used.at(-1)?.parameters.name ?? null;
}
