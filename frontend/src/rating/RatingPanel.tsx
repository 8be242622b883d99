import { LineChart } from "../components/charts/LineChart";
import { useLoad } from "../components/useLoad";
import { fetchResults, fetchStudies, fetchStudy, type StudyResults } from "./api";
import { counted } from "../text/plural";
import { percent } from "./model";

/** A rating study's precision per confidence bin (docs/ratings.md): the share of "yes" in
 * each bin and the estimated share from each bin's lower edge up, with the counts. The
 * dashboard shows the latest study; a study's own page names it by `studyId`. */
export function RatingPanel({ projectId, studyId }: { projectId: number; studyId?: number }) {
  const [loaded] = useLoad(
    async (signal) => {
      const study =
        studyId === undefined
          ? (await fetchStudies(projectId, signal)).results[0]
          : await fetchStudy(projectId, studyId, signal);
      if (!study) return null;
      return { study, results: await fetchResults(projectId, study.id, signal) };
    },
    [projectId, studyId],
  );
  return (
    <section
      aria-labelledby="rating-heading"
      className="dashboard-panel"
      data-testid="rating-panel"
    >
      <h2 id="rating-heading">Rating study: precision against confidence</h2>
      {loaded.state === "loading" && <p aria-busy="true">Loading…</p>}
      {loaded.state === "failed" && <p role="alert">{loaded.message}</p>}
      {loaded.state === "ready" && loaded.data === null && <p>No rating study yet.</p>}
      {loaded.state === "ready" && loaded.data !== null && (
        <>
          <p>
            {loaded.data.study.name}: {loaded.data.results.ratings} of{" "}
            {loaded.data.results.assignments} ratings, ordinal alpha{" "}
            {loaded.data.results.alpha === null
              ? "undefined"
              : loaded.data.results.alpha.toFixed(3)}
            .
          </p>
          <Recommendation results={loaded.data.results} />
          <LineChart
            title="Share of yes per confidence bin, and estimated from each bin's lower edge up (%)"
            labels={loaded.data.results.bins.map((bin) => bin.low.toFixed(2))}
            series={[
              {
                name: "yes in the bin (%)",
                values: loaded.data.results.bins.map((bin) => 100 * (bin.yes.share ?? 0)),
              },
              {
                name: "estimated at this threshold (%)",
                values: loaded.data.results.curve.map(
                  (point) => 100 * (point.estimated_yes_share ?? 0),
                ),
              },
            ]}
          />
          <table className="lead-table compact" aria-label="Rating study per confidence bin">
            <thead>
              <tr>
                <th scope="col">Confidence</th>
                <th scope="col">Pairs in corpus</th>
                <th scope="col">Sampled</th>
                <th scope="col">Ratings</th>
                <th scope="col">Yes (95 % interval)</th>
                <th scope="col">Partly</th>
                <th scope="col">No</th>
              </tr>
            </thead>
            <tbody>
              {loaded.data.results.bins.map((bin) => (
                <tr key={bin.index}>
                  <th scope="row">
                    {bin.low.toFixed(3)} to {bin.high.toFixed(3)}
                  </th>
                  <td className="number">{bin.population}</td>
                  <td className="number">{bin.items}</td>
                  <td className="number">{bin.ratings}</td>
                  <td className="number">
                    {percent(bin.yes.share)}
                    {bin.yes.interval &&
                      ` (${percent(bin.yes.interval[0])} to ${percent(bin.yes.interval[1])})`}
                  </td>
                  <td className="number">{percent(bin.partly.share)}</td>
                  <td className="number">{percent(bin.no.share)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {loaded.data.results.controls.some((row) => row.flagged) && (
            <p role="status">
              Flagged (said yes to under 70 % of gold controls):{" "}
              {loaded.data.results.controls
                .filter((row) => row.flagged)
                .map((row) => row.rater)
                .join(", ")}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** The export threshold the study recommends, with what it rests on: the estimated share of
 * yes from it up and the rated pairs behind that estimate. It is a rated pair's confidence,
 * usually inside a bin, so the chart (drawn at the bins' lower edges) does not show it. */
function Recommendation({ results }: { results: StudyResults }) {
  const threshold = results.recommended_min_confidence;
  const target = percent(results.target_yes_share);
  if (threshold === null) {
    return (
      <p data-testid="recommendation">
        No rated confidence reaches the target of {target} yes: no threshold is recommended.
      </p>
    );
  }
  const bin = results.bins.find((row) => row.low <= threshold && threshold <= row.high);
  return (
    <p data-testid="recommendation">
      Recommended export threshold: confidence ≥{" "}
      <strong data-testid="recommended-confidence">{threshold}</strong>, the lowest at which the
      estimated share of yes reaches the target of {target}. From it up, an estimated{" "}
      {percent(results.recommended_yes_share)} of pairs are good, resting on{" "}
      {counted(results.recommended_rated_pairs, "rated pair")}
      {bin &&
        ` (it lies in the bin ${bin.low.toFixed(3)} to ${bin.high.toFixed(3)}; the chart's points are at the bins' lower edges)`}
      .
    </p>
  );
}
