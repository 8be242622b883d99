import { describe, expect, it } from "vitest";
import { iterationPath, leadProjectPath, parseLeadRoute, studyResultsPath } from "./routes";

describe("parseLeadRoute", () => {
  it("reads every lead page back from the path it builds", () => {
    expect(parseLeadRoute("/lead")).toEqual({ name: "leadProjects" });
    expect(parseLeadRoute(leadProjectPath(4))).toEqual({
      name: "leadProject",
      projectId: 4,
      section: "overview",
    });
    for (const section of ["documents", "iterations", "dashboard"] as const) {
      expect(parseLeadRoute(leadProjectPath(4, section))).toEqual({
        name: "leadProject",
        projectId: 4,
        section,
      });
    }
    expect(parseLeadRoute(iterationPath(4, 9) + "/")).toEqual({
      name: "leadIteration",
      projectId: 4,
      iterationId: 9,
    });
  });

  it("reads the rating studies and one study's results", () => {
    expect(parseLeadRoute(leadProjectPath(4, "ratings"))).toEqual({
      name: "leadProject",
      projectId: 4,
      section: "ratings",
    });
    expect(parseLeadRoute(studyResultsPath(4, 2))).toEqual({
      name: "leadStudy",
      projectId: 4,
      studyId: 2,
    });
  });

  it("leaves other paths to the annotator's router", () => {
    expect(parseLeadRoute("/projects/4")).toBeNull();
    expect(parseLeadRoute("/lead/projects/4/unknown")).toBeNull();
    expect(parseLeadRoute("/lead/projects/x")).toBeNull();
  });
});
