import { useState, type FormEvent, type ReactNode } from "react";
import { fieldErrors, type FieldErrors } from "../api/fieldErrors";
import { Link, navigate } from "../app/router";
import { useProject } from "../lead/ProjectContext";
import { studyResultsPath } from "../lead/routes";
import { messageOf, useLoad } from "../components/useLoad";
import { createStudy, fetchStudies, type StudyCreateInput } from "./api";
import "./rating.css";

/** The lead's rating studies: the list, each a link to its results, and the form that draws a
 * new one (docs/ratings.md). */
export function StudiesSection() {
  const { project } = useProject();
  const [loaded] = useLoad((signal) => fetchStudies(project.id, signal), [project.id]);
  return (
    <>
      <section className="lead-section" aria-labelledby="studies-heading">
        <h2 id="studies-heading">Rating studies</h2>
        <p>
          A study asks raters whether automatic pairs are right, in bins of confidence, so that you
          can choose the export&apos;s confidence threshold from measured precision.
        </p>
        {loaded.state === "loading" && <p aria-busy="true">Loading the studies…</p>}
        {loaded.state === "failed" && (
          <p role="alert" className="error">
            The studies could not be loaded: {loaded.message}
          </p>
        )}
        {loaded.state === "ready" &&
          (loaded.data.results.length === 0 ? (
            <p>No rating study yet.</p>
          ) : (
            <table className="lead-table" aria-label="Rating studies">
              <thead>
                <tr>
                  <th scope="col">Study</th>
                  <th scope="col" className="number">
                    Pairs (controls)
                  </th>
                  <th scope="col" className="number">
                    Raters per pair
                  </th>
                  <th scope="col" className="number">
                    Ratings
                  </th>
                  <th scope="col" className="number">
                    Seed
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.results.map((study) => (
                  <tr key={study.id}>
                    <th scope="row">
                      <Link href={studyResultsPath(project.id, study.id)}>{study.name}</Link>
                    </th>
                    <td className="number">
                      {study.items} ({study.controls})
                    </td>
                    <td className="number">{study.raters_per_pair}</td>
                    <td className="number">
                      {study.ratings} of {study.assignments}
                    </td>
                    <td className="number">{study.seed}</td>
                    <td>{new Date(study.created_at).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
      </section>
      <StudyForm />
    </>
  );
}

/** Numbers as typed: an empty field is left out, so the server's default (or its 400) holds. */
function numberField(value: string): number | undefined {
  return value.trim() === "" ? undefined : Number(value);
}

function StudyForm() {
  const { project, members } = useProject();
  const [name, setName] = useState("");
  const [sampleSize, setSampleSize] = useState("100");
  const [bins, setBins] = useState("5");
  const [controls, setControls] = useState("0");
  const [raters, setRaters] = useState<Set<number>>(new Set());
  const [ratersPerPair, setRatersPerPair] = useState("1");
  const [targetPercent, setTargetPercent] = useState("90");
  const [seed, setSeed] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggleRater = (user: number) => {
    const next = new Set(raters);
    if (next.has(user)) next.delete(user);
    else next.add(user);
    setRaters(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(null);
    const target = numberField(targetPercent);
    const input: Partial<StudyCreateInput> = {
      name: name.trim(),
      sample_size: numberField(sampleSize),
      bins: numberField(bins),
      controls: numberField(controls),
      raters: [...raters],
      raters_per_pair: numberField(ratersPerPair),
      target_yes_share: target === undefined ? undefined : target / 100,
      seed: numberField(seed),
    };
    try {
      const study = await createStudy(project.id, input);
      navigate(studyResultsPath(project.id, study.id));
    } catch (reason) {
      const byField = fieldErrors(reason);
      if (Object.keys(byField).length > 0) setErrors(byField);
      else setFailure(messageOf(reason));
      setBusy(false);
    }
  };

  const fieldProps = (field: keyof StudyCreateInput) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `study-${field}-error` : undefined,
  });
  const unplaced = Object.entries(errors).filter(([field]) => !FIELDS.has(field));

  return (
    <form
      className="lead-section lead-form study-form"
      onSubmit={submit}
      aria-labelledby="new-study-heading"
      noValidate
    >
      <h2 id="new-study-heading">New rating study</h2>
      <label htmlFor="study-name">Name</label>
      <input
        id="study-name"
        value={name}
        maxLength={200}
        onChange={(event) => setName(event.target.value)}
        {...fieldProps("name")}
      />
      <FieldError field="name" errors={errors} />
      <label htmlFor="study-sample-size">Automatic pairs to sample</label>
      <input
        id="study-sample-size"
        type="number"
        min={1}
        value={sampleSize}
        onChange={(event) => setSampleSize(event.target.value)}
        {...fieldProps("sample_size")}
      />
      <FieldError field="sample_size" errors={errors} />
      <label htmlFor="study-bins">
        Confidence bins (the pairs sorted by confidence, cut into bins of equal counts, sampled
        evenly)
      </label>
      <input
        id="study-bins"
        type="number"
        min={1}
        max={20}
        value={bins}
        onChange={(event) => setBins(event.target.value)}
        {...fieldProps("bins")}
      />
      <FieldError field="bins" errors={errors} />
      <label htmlFor="study-controls">
        Gold pairs mixed in as controls (a rater who says yes to under 70 % of them is flagged)
      </label>
      <input
        id="study-controls"
        type="number"
        min={0}
        value={controls}
        onChange={(event) => setControls(event.target.value)}
        {...fieldProps("controls")}
      />
      <FieldError field="controls" errors={errors} />
      <fieldset aria-describedby={errors.raters ? "study-raters-error" : undefined}>
        <legend>Raters</legend>
        {members.map((member) => (
          <label key={member.user}>
            <input
              type="checkbox"
              checked={raters.has(member.user)}
              onChange={() => toggleRater(member.user)}
            />{" "}
            {member.username} <span className="muted">({member.role})</span>
          </label>
        ))}
      </fieldset>
      <FieldError field="raters" errors={errors} />
      <label htmlFor="study-raters-per-pair">Raters per pair</label>
      <input
        id="study-raters-per-pair"
        type="number"
        min={1}
        value={ratersPerPair}
        onChange={(event) => setRatersPerPair(event.target.value)}
        {...fieldProps("raters_per_pair")}
      />
      <FieldError field="raters_per_pair" errors={errors} />
      <label htmlFor="study-target">
        Target share of yes, in % (the results recommend the lowest confidence reaching it)
      </label>
      <input
        id="study-target"
        type="number"
        min={0}
        max={100}
        value={targetPercent}
        onChange={(event) => setTargetPercent(event.target.value)}
        {...fieldProps("target_yes_share")}
      />
      <FieldError field="target_yes_share" errors={errors} />
      <label htmlFor="study-seed">
        Seed (drawn when empty; the same seed draws the same study)
      </label>
      <input
        id="study-seed"
        type="number"
        min={0}
        value={seed}
        onChange={(event) => setSeed(event.target.value)}
        {...fieldProps("seed")}
      />
      <FieldError field="seed" errors={errors} />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? "Drawing the study…" : "Create the study"}
      </button>
      {(failure || unplaced.length > 0) && (
        <p role="alert" className="error">
          {failure ?? unplaced.map(([, message]) => message).join(" ")}
        </p>
      )}
    </form>
  );
}

const FIELDS: ReadonlySet<string> = new Set([
  "name",
  "sample_size",
  "bins",
  "controls",
  "raters",
  "raters_per_pair",
  "target_yes_share",
  "seed",
]);

function FieldError({ field, errors }: { field: string; errors: FieldErrors }): ReactNode {
  const message = errors[field];
  if (!message) return null;
  return (
    <p id={`study-${field}-error`} role="alert" className="error field-error">
      {message}
    </p>
  );
}
