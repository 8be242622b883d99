import { useState, type FormEvent } from "react";
import { updateProject, type ProjectDetail } from "./api";
import { useProject } from "./ProjectContext";
import { messageOf } from "../components/useLoad";

interface Notice {
  error: boolean;
  text: string;
}

/**
 * Saving a project's settings from one of its kind's forms: the settings are replaced whole
 * (the caller keeps the ones it does not edit), and the outcome is said under the form.
 */
export function useSettingsSave(settings: ProjectDetail["settings"]) {
  const { project, reload } = useProject();
  const [notice, setNotice] = useState<Notice | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await updateProject(project.id, {
        name: project.name,
        description: project.description,
        settings,
      });
      setNotice({ error: false, text: "Saved." });
      reload();
    } catch (reason) {
      setNotice({ error: true, text: messageOf(reason) });
    }
  };

  const said = notice && (
    <p role={notice.error ? "alert" : "status"} className={notice.error ? "error" : ""}>
      {notice.text}
    </p>
  );
  return { submit, said };
}
