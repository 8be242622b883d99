import { CandidateTable } from "../lead/CandidateTable";
import { useProject } from "../lead/ProjectContext";
import { useLoad } from "../components/useLoad";
import { RatingPanel } from "../rating/RatingPanel";
import { AccuracyPanel } from "./AccuracyPanel";
import { AgreementPanel } from "./AgreementPanel";
import {
  fetchAccuracy,
  fetchAgreement,
  fetchAnnotatorQuality,
  fetchCorpus,
  fetchEffort,
} from "../api/dashboards";
import { CorpusPanel } from "./CorpusPanel";
import { EffortPanel } from "./EffortPanel";
import { JobsPanel } from "./JobsPanel";
import { LoopStatusPanel } from "./LoopStatusPanel";
import { ReliabilityPanel } from "./ReliabilityPanel";
import { SaliencePanel } from "./SaliencePanel";
import "./dashboard.css";

/** The lead's view of the loop: is each iteration's pre-alignment better, at what cost, and
 * how large the corpus has grown. */
export function DashboardPage() {
  const { project } = useProject();
  const [loaded] = useLoad(
    async (signal) => {
      const [accuracy, agreement, annotators, effort, corpus] = await Promise.all([
        fetchAccuracy(project.id, signal),
        fetchAgreement(project.id, signal),
        fetchAnnotatorQuality(project.id, signal),
        fetchEffort(project.id, signal),
        fetchCorpus(project.id, signal),
      ]);
      return { accuracy, agreement, annotators, effort, corpus };
    },
    [project.id],
  );
  return (
    <div className="dashboard" data-testid="dashboard">
      <LoopStatusPanel />
      {loaded.state === "loading" && <p aria-busy="true">Loading the dashboard…</p>}
      {loaded.state === "failed" && (
        <p role="alert">The dashboard could not be loaded: {loaded.message}</p>
      )}
      {loaded.state === "ready" && (
        <>
          <AccuracyPanel
            metrics={loaded.data.accuracy.metrics}
            iterations={loaded.data.accuracy.iterations}
          />
          <ReliabilityPanel iterations={loaded.data.accuracy.iterations} />
          <section aria-labelledby="candidates-heading" className="dashboard-panel">
            <h2 id="candidates-heading">Candidate models of the latest tuning</h2>
            <CandidateTable projectId={project.id} />
          </section>
          <AgreementPanel
            measures={loaded.data.agreement.measures}
            iterations={loaded.data.agreement.iterations}
            annotators={loaded.data.annotators.rows}
          />
          <EffortPanel
            projectId={project.id}
            rows={loaded.data.effort.rows}
            accuracy={loaded.data.accuracy.iterations}
          />
          <CorpusPanel growth={loaded.data.corpus} />
          {project.kind === "podcast" && <SaliencePanel projectId={project.id} />}
          <RatingPanel projectId={project.id} />
        </>
      )}
      <JobsPanel projectId={project.id} />
    </div>
  );
}
