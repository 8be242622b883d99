/** Numbers as the pages print them: percentages with one decimal, durations in words. */

export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${value.toFixed(1)}%`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Alignment parameters in one line, nested sections flattened: `scoring.method=tfidf`. */
export function describeParams(params: Record<string, unknown> | undefined, prefix = ""): string {
  if (!params) return "";
  return Object.entries(params)
    .flatMap(([key, value]) =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? [describeParams(value as Record<string, unknown>, `${prefix}${key}.`)]
        : [`${prefix}${key}=${Array.isArray(value) ? value.join(",") : String(value)}`],
    )
    .filter(Boolean)
    .join(" ");
}

type Params = Record<string, unknown>;

function section(params: Params, name: string): Params {
  const value = params[name];
  return value !== null && typeof value === "object" ? (value as Params) : {};
}

/** The paper's Table 1 columns: the sliding window, the scoring, the aligner's settings. */
export function windowOf(params: Params): string {
  const scoring = section(params, "scoring");
  return `${String(scoring.window_size ?? "?")} / ${String(scoring.window_overlap ?? "?")}`;
}

export function scoringOf(params: Params): string {
  const scoring = section(params, "scoring");
  const flags = [
    scoring.idf_weighting === true && "idf",
    scoring.centre === true && "centred",
    typeof scoring.normalisation === "string" && scoring.normalisation !== "none"
      ? `${scoring.normalisation} norm`
      : false,
  ].filter(Boolean);
  return [String(scoring.method ?? "?"), ...flags].join(", ");
}

const ALIGNER_FIELDS: Record<string, [string, string][]> = {
  turns: [
    ["match_offset", "offset"],
    ["baseline_quantile", "baseline q"],
    ["unaligned_gain", "unaligned gain"],
    ["turn_gap_open", "gap"],
    ["min_words", "min words"],
  ],
  gapped: [
    ["match_offset", "offset"],
    ["skip_gain", "skip"],
    ["gap_open", "gap"],
    ["min_words", "min words"],
  ],
  dp: [
    ["power", "power"],
    ["transcript_decay", "hd"],
    ["report_decay", "vd"],
    ["min_words", "min words"],
    ["min_support", "min support"],
  ],
};

/** The settings that drive the parameter set's aligner, and only those: a gapped set's
 * turn costs or a turn set's skip gain would only mislead. */
export function alignmentOf(params: Params): string {
  const aligner = String(params.aligner ?? "?");
  const fields = (ALIGNER_FIELDS[aligner] ?? [])
    .filter(([key]) => params[key] !== undefined)
    .map(([key, label]) => `${label} ${String(params[key])}`);
  return [aligner, ...fields].join(", ");
}
