import { Link } from "../app/router";
import { useProject } from "../lead/ProjectContext";
import { leadProjectPath } from "../lead/routes";
import { useLoad } from "../components/useLoad";
import { fetchStudy } from "./api";
import { percent } from "./model";
import { RatingPanel } from "./RatingPanel";

/** One study as drawn (its settings and seed, for the record) and its results so far. */
export function StudyResultsPage({ studyId }: { studyId: number }) {
  const { project } = useProject();
  const [loaded] = useLoad(
    (signal) => fetchStudy(project.id, studyId, signal),
    [project.id, studyId],
  );
  return (
    <>
      <p className="breadcrumbs">
        <Link href={leadProjectPath(project.id, "ratings")}>Rating studies</Link> ›
      </p>
      {loaded.state === "loading" && <p aria-busy="true">Loading the study…</p>}
      {loaded.state === "failed" && (
        <p role="alert" className="error">
          {loaded.status === 404
            ? `This project has no rating study ${studyId}.`
            : `The study could not be loaded: ${loaded.message}`}
        </p>
      )}
      {loaded.state === "ready" && (
        <section className="lead-section" aria-labelledby="study-heading">
          <h2 id="study-heading">{loaded.data.name}</h2>
          <dl className="study-facts" data-testid="study-facts">
            <dt>Automatic pairs sampled</dt>
            <dd>
              {loaded.data.items - loaded.data.controls} of {loaded.data.sample_size} asked, in{" "}
              {loaded.data.bins.length} confidence bins
            </dd>
            <dt>Gold controls</dt>
            <dd>{loaded.data.controls}</dd>
            <dt>Raters per pair</dt>
            <dd>{loaded.data.raters_per_pair}</dd>
            <dt>Ratings</dt>
            <dd>
              {loaded.data.ratings} of {loaded.data.assignments}
            </dd>
            <dt>Target share of yes</dt>
            <dd>{percent(loaded.data.target_yes_share)}</dd>
            <dt>Seed</dt>
            <dd>{loaded.data.seed}</dd>
          </dl>
          <RatingPanel projectId={project.id} studyId={studyId} />
        </section>
      )}
    </>
  );
}
