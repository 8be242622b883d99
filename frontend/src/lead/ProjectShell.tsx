import { useMemo, type ReactNode } from "react";
import { Link } from "../app/router";
import { fetchMembers, fetchProject } from "./api";
import { ProjectContext } from "./ProjectContext";
import { LEAD_HOME, leadProjectPath, type LeadSection } from "./routes";
import { useLoad } from "../components/useLoad";
import "./lead.css";

const SECTIONS: { section: LeadSection; label: string }[] = [
  { section: "overview", label: "Project and members" },
  { section: "documents", label: "Documents" },
  { section: "iterations", label: "Iterations" },
  { section: "dashboard", label: "Dashboard" },
  { section: "exports", label: "Exports" },
  { section: "ratings", label: "Rating studies" },
];

/**
 * Loads the project and its members once for every lead page of it, and stops annotators
 * at the door with a message (the API would refuse them anyway).
 */
export function ProjectShell({
  projectId,
  section,
  isAdmin,
  children,
}: {
  projectId: number;
  section: LeadSection | null;
  isAdmin: boolean;
  children: ReactNode;
}) {
  const [loaded, reload] = useLoad(
    async (signal) => {
      const project = await fetchProject(projectId, signal);
      if (project.role !== "lead" && !isAdmin) return { project, members: [] };
      return { project, members: await fetchMembers(projectId, signal) };
    },
    [projectId, isAdmin],
  );
  const context = useMemo(
    () => (loaded.state === "ready" ? { ...loaded.data, reload } : null),
    [loaded, reload],
  );

  if (loaded.state === "loading") {
    return (
      <main className="lead-page">
        <p role="status" aria-busy="true">
          Loading the project…
        </p>
      </main>
    );
  }
  if (loaded.state === "failed") {
    return (
      <main className="lead-page">
        <h1>Project {projectId}</h1>
        <p role="alert">
          {loaded.status === 403 || loaded.status === 404
            ? "This project does not exist or you are not one of its members."
            : `The project could not be loaded: ${loaded.message}`}
        </p>
        <p>
          <Link href="/">Go to your documents</Link>
        </p>
      </main>
    );
  }
  const { project } = loaded.data;
  if (project.role !== "lead" && !isAdmin) {
    return (
      <main className="lead-page">
        <h1>{project.name}</h1>
        <p role="alert" data-testid="leads-only">
          Only the project&apos;s leads manage it;{" "}
          {project.role ? `you are an ${project.role} here` : "you are not a member"}. Your assigned
          documents are on your document list.
        </p>
        <p>
          <Link href={`/projects/${project.id}`}>Go to your documents</Link>
        </p>
      </main>
    );
  }
  return (
    <ProjectContext.Provider value={context}>
      <main className="lead-page">
        <p className="breadcrumbs">
          <Link href={LEAD_HOME}>Projects you lead</Link> ›
        </p>
        <h1>{project.name}</h1>
        <nav className="lead-tabs" aria-label="Project pages">
          {SECTIONS.map(({ section: target, label }) => (
            <Link
              key={target}
              href={leadProjectPath(project.id, target)}
              aria-current={section === target ? "page" : undefined}
            >
              {label}
            </Link>
          ))}
        </nav>
        {children}
      </main>
    </ProjectContext.Provider>
  );
}
