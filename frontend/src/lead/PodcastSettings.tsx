import { useState } from "react";
import { apiRequest } from "../api/client";
import { useProject } from "./ProjectContext";
import { SettingsPreview } from "./SettingsPreview";
import { useSettingsSave } from "./useSettingsSave";
import { useLoad } from "../components/useLoad";

/** Documents whose cleaning the page shows: enough to judge the rule, few enough to read. */
const PREVIEWED_DOCUMENTS = 20;

/**
 * A podcast project's units and labels: the window length (read at import), the ROUGE
 * threshold, and the description cleaning, shown sentence by sentence before it is used.
 */
export function PodcastSettings() {
  const { project } = useProject();
  const [windowSeconds, setWindowSeconds] = useState(
    project.settings.window_seconds?.toString() ?? "",
  );
  const [tau, setTau] = useState(project.settings.salience_tau?.toString() ?? "");
  const [clean, setClean] = useState(project.settings.clean_descriptions ?? false);

  // Settings are replaced whole: keep the others; an empty field means the default.
  const settings = { ...project.settings, clean_descriptions: clean };
  delete settings.window_seconds;
  delete settings.salience_tau;
  if (windowSeconds.trim()) settings.window_seconds = Number(windowSeconds);
  if (tau.trim()) settings.salience_tau = Number(tau);

  const { submit, said } = useSettingsSave(settings);

  return (
    <section className="lead-section" aria-labelledby="podcast-heading">
      <h2 id="podcast-heading">Windows and salience labels</h2>
      <form className="lead-form" onSubmit={submit} aria-label="Podcast settings">
        <label htmlFor="window-seconds">
          Window length in seconds (30 when empty; read when a transcript is imported)
        </label>
        <input
          id="window-seconds"
          type="number"
          min={5}
          max={600}
          step={1}
          placeholder="30"
          value={windowSeconds}
          onChange={(event) => setWindowSeconds(event.target.value)}
        />
        <label htmlFor="salience-tau">
          A window is salient when its ROUGE-2 recall against a description sentence is above (0.2
          when empty)
        </label>
        <input
          id="salience-tau"
          type="number"
          min={0}
          max={1}
          step={0.05}
          placeholder="0.2"
          value={tau}
          onChange={(event) => setTau(event.target.value)}
        />
        <label>
          <input
            type="checkbox"
            checked={clean}
            onChange={(event) => setClean(event.target.checked)}
          />{" "}
          Clean the descriptions: label windows against the kept sentences only
        </label>
        <SettingsPreview settings={settings} />
        <button type="submit" className="primary">
          Save labelling settings
        </button>
        {said}
      </form>
      <CleaningPreview projectId={project.id} />
    </section>
  );
}

function CleaningPreview({ projectId }: { projectId: number }) {
  const [loaded] = useLoad(
    (signal) =>
      apiRequest("GET", "projects/{project_id}/description-cleaning/", {
        path: { project_id: projectId },
        query: { page_size: PREVIEWED_DOCUMENTS },
        signal,
      }),
    [projectId],
  );
  if (loaded.state === "loading") return <p aria-busy="true">Scoring the descriptions…</p>;
  if (loaded.state === "failed")
    return (
      <p role="alert" className="error">
        {loaded.message}
      </p>
    );
  const page = loaded.data;
  const sentences = page.results.flatMap((document) => document.sentences);
  const kept = sentences.filter((sentence) => sentence.kept).length;
  return (
    <>
      <h3>Description cleaning</h3>
      <p data-testid="cleaning-summary">
        Cleaning keeps {kept} of {sentences.length} sentences in the first {page.results.length} of{" "}
        {page.count} descriptions: a sentence stays when the IDFs of its words sum to 10 or more,
        counting only words seen at least 5 times in the project&apos;s descriptions with an IDF
        above 1.5 (URLs, e-mail addresses, @names, #tags and numbers count as one word each). With
        few descriptions almost every word is rare or too common, so most sentences are dropped.
      </p>
      {page.results.map((document) => (
        <table
          key={document.document_id}
          className="lead-table compact"
          aria-label={`Cleaning of ${document.document_name}`}
        >
          <caption>{document.document_name}</caption>
          <thead>
            <tr>
              <th scope="col">Sentence</th>
              <th scope="col">Salience</th>
              <th scope="col">Cleaning</th>
            </tr>
          </thead>
          <tbody>
            {document.sentences.map((sentence, index) => (
              <tr key={index} className={sentence.kept ? "" : "muted"}>
                <td>{sentence.text}</td>
                <td className="number">{sentence.salience.toFixed(1)}</td>
                <td>{sentence.kept ? "kept" : "dropped"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </>
  );
}
