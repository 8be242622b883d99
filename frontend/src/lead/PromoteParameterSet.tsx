import { useState } from "react";
import { fetchParameterSets } from "./api";
import { useProject } from "./ProjectContext";
import { useLoad } from "../components/useLoad";

/** Any parameter set of the project may be promoted, tuned or not: the lead decides. */
export function PromoteParameterSet({
  promotedAfter,
  onPromote,
}: {
  promotedAfter: number | null;
  onPromote: (parameterSet: number) => void;
}) {
  const { project } = useProject();
  const [loaded] = useLoad(
    (signal) => fetchParameterSets(project.id, signal),
    [project.id, project.promoted_parameter_set],
  );
  const [choice, setChoice] = useState("");
  if (loaded.state !== "ready") return null;
  const nameOf = (id: number | null) =>
    id === null ? "none" : (loaded.data.find((set) => set.id === id)?.name ?? `set ${id}`);
  return (
    <div className="promote-any">
      <p>
        Promoted after this iteration: <strong>{nameOf(promotedAfter)}</strong>. The project
        pre-aligns with:{" "}
        <strong data-testid="project-promoted">{nameOf(project.promoted_parameter_set)}</strong>.
      </p>
      <label htmlFor="promote-set">Promote another parameter set</label>{" "}
      <select id="promote-set" value={choice} onChange={(event) => setChoice(event.target.value)}>
        <option value="">choose…</option>
        {loaded.data.map((set) => (
          <option key={set.id} value={set.id}>
            {set.name}
          </option>
        ))}
      </select>{" "}
      <button type="button" disabled={!choice} onClick={() => onPromote(Number(choice))}>
        Promote
      </button>
    </div>
  );
}
