import { useEffect, useState } from "react";
import { apiRequest } from "../api/client";
import type { ProjectDetail } from "./api";
import { useProject } from "./ProjectContext";
import { useLoad } from "../components/useLoad";

type Settings = ProjectDetail["settings"];

/** Typing pauses this long before the server is asked again. */
const SETTLE_MS = 400;

export const previewSettings = (projectId: number, settings: Settings, signal?: AbortSignal) =>
  apiRequest("POST", "projects/{project_id}/settings-preview/", {
    path: { project_id: projectId },
    body: { settings },
    signal,
  });

/**
 * What saving `settings` would do to the documents already imported (the server counts them):
 * which must be imported or pre-aligned again, and what follows at once. Nothing while the
 * form holds the saved settings.
 */
export function SettingsPreview({ settings }: { settings: Settings }) {
  const { project } = useProject();
  const proposed = sortedJson(settings);
  const [settled, setSettled] = useState(proposed);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(proposed), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [proposed]);
  const unchanged = settled === sortedJson(project.settings);
  const [loaded] = useLoad(
    async (signal) =>
      unchanged ? null : previewSettings(project.id, JSON.parse(settled) as Settings, signal),
    [project.id, settled, unchanged],
  );

  return (
    <div className="settings-preview" aria-live="polite" data-testid="settings-preview">
      {loaded.state === "failed" && (
        <p className="error">These settings cannot be saved: {loaded.message}</p>
      )}
      {loaded.state === "ready" && loaded.data !== null && (
        <>
          <h3>If you save</h3>
          {loaded.data.effects.length === 0 ? (
            <p>No imported document is concerned.</p>
          ) : (
            <ul>
              {loaded.data.effects.map((effect) => (
                <li key={effect.setting} data-action={effect.action}>
                  {effect.summary}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** The settings as JSON with their keys in order, so that the same settings compare equal. */
function sortedJson(settings: Settings): string {
  return JSON.stringify(Object.fromEntries(Object.entries(settings).sort()));
}
