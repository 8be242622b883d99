import { createContext, useContext } from "react";
import type { Member, ProjectDetail } from "./api";

export interface ProjectContextValue {
  project: ProjectDetail;
  members: Member[];
  /** Loads the project and its members again, after an edit on any page. */
  reload: () => void;
}

export const ProjectContext = createContext<ProjectContextValue | null>(null);

export function useProject(): ProjectContextValue {
  const value = useContext(ProjectContext);
  if (!value) throw new Error("useProject needs a ProjectShell above it");
  return value;
}

export function usernameOf(members: Member[], userId: number): string {
  return members.find((member) => member.user === userId)?.username ?? `user ${userId}`;
}

export function annotatorsOf(members: Member[]): Member[] {
  return members.filter((member) => member.role === "annotator");
}
