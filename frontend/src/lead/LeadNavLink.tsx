import { fetchProjects } from "../api/documents";
import { Link } from "../app/router";
import { LEAD_HOME } from "./routes";
import { useLoad } from "../components/useLoad";

/** Shown to leads, administrators, and newcomers in no project (who may start one);
 * annotators never see a way into lead pages. */
export function LeadNavLink({ isAdmin }: { isAdmin: boolean }) {
  const [loaded] = useLoad(fetchProjects, []);
  const shown =
    loaded.state === "ready" &&
    (loaded.data.length === 0 || loaded.data.some((project) => project.role === "lead"));
  if (!isAdmin && !shown) return null;
  return (
    <Link href={LEAD_HOME} className="app-bar-link">
      Projects you lead
    </Link>
  );
}
