import { useState, type FormEvent } from "react";
import { fetchProjects } from "../api/documents";
import { Link, navigate } from "../app/router";
import { HealthPanel } from "../components/HealthPanel";
import { createProject, type ProjectKind } from "./api";
import { leadProjectPath } from "./routes";
import { messageOf, useLoad } from "../components/useLoad";
import "./lead.css";

/** The projects the caller leads (all of them for an administrator), and a new one. */
export function ProjectsPage({
  isAdmin,
  mayCreateProjects,
}: {
  isAdmin: boolean;
  /** TANDEM_PROJECT_CREATORS: everyone, or staff only. */
  mayCreateProjects: boolean;
}) {
  const [loaded] = useLoad(fetchProjects, []);
  const led =
    loaded.state === "ready"
      ? loaded.data.filter((project) => isAdmin || project.role === "lead")
      : [];

  return (
    <main className="lead-page">
      <h1>Projects you lead</h1>
      {loaded.state === "loading" && (
        <p role="status" aria-busy="true">
          Loading projects…
        </p>
      )}
      {loaded.state === "failed" && (
        <p role="alert">Projects could not be loaded: {loaded.message}</p>
      )}
      {loaded.state === "ready" &&
        (led.length === 0 ? (
          <p>
            You lead no project yet.{" "}
            {mayCreateProjects
              ? "Create one below; you become its lead."
              : "On this instance staff create projects: ask an administrator to make you a lead."}
          </p>
        ) : (
          <ul className="project-list">
            {led.map((project) => (
              <li key={project.id}>
                <Link href={leadProjectPath(project.id)}>{project.name}</Link>
                {project.description && <span className="muted"> — {project.description}</span>}
              </li>
            ))}
          </ul>
        ))}
      {mayCreateProjects && <NewProjectForm />}
      <HealthPanel />
    </main>
  );
}

function NewProjectForm() {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [kind, setKind] = useState<ProjectKind>("meeting");
  const [language, setLanguage] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const project = await createProject({
        name: name.trim(),
        description,
        kind,
        ...(language.trim() ? { language: language.trim() } : {}),
      });
      navigate(leadProjectPath(project.id));
    } catch (reason) {
      setError(messageOf(reason));
      setBusy(false);
    }
  };

  return (
    <form className="lead-form" onSubmit={submit} aria-labelledby="new-project-heading">
      <h2 id="new-project-heading">New project</h2>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <label htmlFor="new-project-name">Name</label>
      <input
        id="new-project-name"
        required
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <label htmlFor="new-project-description">Description</label>
      <textarea
        id="new-project-description"
        rows={2}
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
      <label htmlFor="new-project-kind">Kind</label>
      <select
        id="new-project-kind"
        value={kind}
        onChange={(event) => setKind(event.target.value as ProjectKind)}
      >
        <option value="meeting">Meeting and report</option>
        <option value="talk">Talk and paper (TalkSumm: paper sentences, HMM aligner)</option>
        <option value="podcast">
          Podcast and description (30-second windows, salience labels)
        </option>
      </select>
      <label htmlFor="new-project-language">Language (e.g. fr, en; chooses the tokenizer)</label>
      <input
        id="new-project-language"
        maxLength={16}
        placeholder="fr"
        value={language}
        onChange={(event) => setLanguage(event.target.value)}
      />
      <button type="submit" className="primary" disabled={busy || !name.trim()}>
        Create project
      </button>
    </form>
  );
}
