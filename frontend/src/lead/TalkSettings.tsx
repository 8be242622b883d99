import { useState } from "react";
import { useProject } from "./ProjectContext";
import { SettingsPreview } from "./SettingsPreview";
import { useSettingsSave } from "./useSettingsSave";

const DEFAULT_EXCLUDED = "Abstract, Related Work and Acknowledgments";

/**
 * A talk project's paper settings (docs/talk-projects.md): the report unit, read when a paper
 * is imported, and the sections left out of the alignment, read when a paper is pre-aligned
 * and by the editor and the exports at once. What saving would change is shown first.
 */
export function TalkSettings() {
  const { project } = useProject();
  const [unit, setUnit] = useState(project.settings.report_unit ?? "sentences");
  const listed = project.settings.excluded_sections;
  const [ownList, setOwnList] = useState(listed !== undefined);
  const [excluded, setExcluded] = useState((listed ?? []).join("\n"));

  // Settings are replaced whole: keep the others; a default is saved as no value.
  const settings = { ...project.settings };
  delete settings.report_unit;
  delete settings.excluded_sections;
  if (unit !== "sentences") settings.report_unit = unit;
  if (ownList) {
    settings.excluded_sections = excluded
      .split("\n")
      .map((title) => title.trim())
      .filter(Boolean);
  }

  const { submit, said } = useSettingsSave(settings);

  return (
    <section className="lead-section" aria-labelledby="talk-heading">
      <h2 id="talk-heading">Papers: segments and excluded sections</h2>
      <form className="lead-form" onSubmit={submit} aria-label="Talk settings">
        <label htmlFor="report-unit">One report segment per (read when a paper is imported)</label>
        <select
          id="report-unit"
          value={unit}
          onChange={(event) => setUnit(event.target.value as typeof unit)}
        >
          <option value="sentences">sentence of the paper (TalkSumm)</option>
          <option value="sections">section of the paper</option>
        </select>
        <fieldset>
          <legend>
            Sections left out of the alignment (greyed in the editor, skipped by the aligner)
          </legend>
          <label>
            <input
              type="radio"
              name="excluded-sections"
              checked={!ownList}
              onChange={() => setOwnList(false)}
            />{" "}
            TalkSumm&apos;s: {DEFAULT_EXCLUDED}
          </label>
          <label>
            <input
              type="radio"
              name="excluded-sections"
              checked={ownList}
              onChange={() => setOwnList(true)}
            />{" "}
            These titles, one a line (none keeps every section)
          </label>
          <textarea
            aria-label="Excluded section titles, one a line"
            rows={4}
            value={excluded}
            disabled={!ownList}
            onChange={(event) => setExcluded(event.target.value)}
          />
        </fieldset>
        <SettingsPreview settings={settings} />
        <button type="submit" className="primary">
          Save paper settings
        </button>
        {said}
      </form>
    </section>
  );
}
