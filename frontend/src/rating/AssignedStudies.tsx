import { fetchProjects } from "../api/documents";
import { Link } from "../app/router";
import { useLoad } from "../components/useLoad";
import { fetchAssigned } from "./api";
import { progressText, ratingPath } from "./model";

/** The rating studies the caller rates in, each a link to its rating page; nothing when none. */
export function AssignedStudies({ projectId }: { projectId?: number }) {
  const [loaded] = useLoad(
    async (signal) => {
      const projects = (await fetchProjects(signal)).filter(
        (project) => projectId === undefined || project.id === projectId,
      );
      const perProject = await Promise.all(
        projects.map(async (project) =>
          (await fetchAssigned(project.id, signal)).results.map((study) => ({ project, study })),
        ),
      );
      return perProject.flat();
    },
    [projectId],
  );
  if (loaded.state !== "ready" || loaded.data.length === 0) return null;
  return (
    <section aria-labelledby="rating-studies-heading">
      <h2 id="rating-studies-heading">Pairs to rate</h2>
      <ul>
        {loaded.data.map(({ project, study }) => (
          <li key={study.id}>
            <Link href={ratingPath(project.id, study.id)}>
              {study.name} ({project.name})
            </Link>{" "}
            <span data-testid="study-progress">
              <progress
                max={study.total}
                value={study.done}
                aria-label={`${study.name}: ${study.done} of ${study.total} rated`}
              />{" "}
              {progressText(study.done, study.total)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
