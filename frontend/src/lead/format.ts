/** The lead's values in words: file sizes, refused recordings, alignment parameters. */
import { ApiError } from "../api/client";
import type { Aligner } from "./api";

/** A file size in words: "840 KB", "12.5 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Why a recording was refused, in words, whether or not the server's answer said it. */
export function audioProblem(reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  if (reason instanceof ApiError && reason.status === 413) {
    return message.startsWith("The server answered")
      ? "The recording is too large for this server."
      : `Too large: ${message}`;
  }
  if (reason instanceof ApiError && reason.status === 415) {
    return `Not a recording Tandem plays: ${message}`;
  }
  return message;
}

function valueText(value: unknown): string {
  return value === null ? "none" : String(value);
}

/** Alignment parameters in one line, nested sections flattened: `scoring.method=tfidf`. */
export function describeParams(params: Record<string, unknown> | undefined, prefix = ""): string {
  if (!params) return "";
  return Object.entries(params)
    .flatMap(([key, value]) =>
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? [describeParams(value as Record<string, unknown>, `${prefix}${key}.`)]
        : [`${prefix}${key}=${Array.isArray(value) ? value.join(",") : valueText(value)}`],
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
  const flags = [scoring.idf_weighting === true && "idf", scoring.centre === true && "centred"];
  return [String(scoring.method ?? "?"), ...flags.filter(Boolean)].join(", ");
}

/** The settings that drive the candidate's aligner, and only those, as the API's schema
 * lists them: the aligner's own section, then abstention (a gapped set's turn costs would
 * only mislead). `shown` settings (`section.name`) are left out: another column has them. */
export function alignmentOf(params: Params, aligners: Aligner[], shown: string[] = []): string {
  const aligner = String(params.aligner ?? "?");
  const settings = aligners.find((known) => known.name === aligner)?.settings ?? [];
  const fields = settings
    .filter((setting) => setting.section === aligner || setting.section === "abstention")
    .filter((setting) => !shown.includes(`${setting.section}.${setting.name}`))
    .flatMap((setting) => {
      const value = section(params, setting.section)[setting.name];
      if (value === undefined) return [];
      return [`${setting.name.replaceAll("_", " ")} ${valueText(value)}`];
    });
  return [aligner, ...fields].join(", ");
}

/** The candidate's value of each setting the grid varies, `section.name value`, skipping
 * another aligner's settings (they do not apply to this candidate). */
export function variedOf(params: Params, varied: string[], aligners: Aligner[]): string {
  const aligner = String(params.aligner ?? "?");
  const alignerNames = new Set<string>(aligners.map((known) => known.name));
  const fields = varied.flatMap((key) => {
    if (key === "aligner") return [`aligner ${aligner}`];
    const [sectionName = "", name = ""] = key.split(".");
    if (alignerNames.has(sectionName) && sectionName !== aligner) return [];
    const value = section(params, sectionName)[name];
    return value === undefined ? [] : [`${key} ${valueText(value)}`];
  });
  return fields.join(", ") || "—";
}
