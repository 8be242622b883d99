import { DashboardPage } from "../dashboard/DashboardPage";
import { StudiesSection } from "../rating/StudiesSection";
import { StudyResultsPage } from "../rating/StudyResultsPage";
import { DocumentsSection } from "../lead/DocumentsSection";
import { ExportsSection } from "../lead/ExportsSection";
import { IterationPage } from "../lead/IterationPage";
import { IterationsSection } from "../lead/IterationsSection";
import { OverviewSection } from "../lead/OverviewSection";
import { ProjectShell } from "../lead/ProjectShell";
import { ProjectsPage } from "../lead/ProjectsPage";
import type { LeadRoute } from "../lead/routes";

export function LeadPages({
  route,
  isAdmin,
  mayCreateProjects,
}: {
  route: LeadRoute;
  isAdmin: boolean;
  mayCreateProjects: boolean;
}) {
  if (route.name === "leadProjects") {
    return <ProjectsPage isAdmin={isAdmin} mayCreateProjects={mayCreateProjects} />;
  }
  const section =
    route.name === "leadIteration"
      ? "iterations"
      : route.name === "leadStudy"
        ? "ratings"
        : route.section;
  return (
    <ProjectShell projectId={route.projectId} section={section} isAdmin={isAdmin}>
      {route.name === "leadIteration" ? (
        <IterationPage key={route.iterationId} iterationId={route.iterationId} />
      ) : route.name === "leadStudy" ? (
        <StudyResultsPage key={route.studyId} studyId={route.studyId} />
      ) : route.section === "ratings" ? (
        <StudiesSection />
      ) : route.section === "documents" ? (
        <DocumentsSection />
      ) : route.section === "iterations" ? (
        <IterationsSection />
      ) : route.section === "dashboard" ? (
        <DashboardPage />
      ) : route.section === "exports" ? (
        <ExportsSection />
      ) : (
        <OverviewSection />
      )}
    </ProjectShell>
  );
}
