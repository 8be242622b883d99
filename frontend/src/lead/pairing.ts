/**
 * Dropped files become (report, transcript) uploads by name stem, so a lead can drop a whole
 * folder at once: `council-2019.docx` goes with `council-2019.1.ctm` and `council-2019.2.ctm`,
 * `talk_report.md` with `talk_transcript.srt`, and a recording (`council-2019.mp3`) joins its
 * pair the same way. The lead corrects what the names get wrong before anything is sent. The engine's command line pairs a folder the same way
 * (workers/align/file_pairing.py); both pass tests/fixtures/pairing-cases.json.
 */

import type { ProjectKind } from "./api";

export const REPORT_EXTENSIONS = [".docx", ".txt", ".md"] as const;
export const TRANSCRIPT_EXTENSIONS = [".ctm", ".srt", ".vtt", ".json"] as const;
/** A talk project's reports are papers: Markdown, plain text, GROBID's TEI XML, a PDF or
 * science-parse JSON (workers/align/readers: PAPER_EXTENSIONS). */
export const PAPER_EXTENSIONS = [".md", ".txt", ".xml", ".tei", ".pdf", ".json"] as const;
/** A podcast project's reports are descriptions: plain text or Markdown. */
export const DESCRIPTION_EXTENSIONS = [".txt", ".md"] as const;

/** What a project's reports are, by its kind, and the files its upload takes as reports. */
export const REPORTS: Record<ProjectKind, { noun: string; extensions: readonly string[] }> = {
  meeting: { noun: "report", extensions: REPORT_EXTENSIONS },
  talk: { noun: "paper", extensions: PAPER_EXTENSIONS },
  podcast: { noun: "description", extensions: DESCRIPTION_EXTENSIONS },
};
/** The document's recording, optional, for listening in the editor (backend/documents/uploads.py). */
export const AUDIO_EXTENSIONS = [
  ".wav",
  ".mp3",
  ".ogg",
  ".oga",
  ".opus",
  ".m4a",
  ".mp4",
  ".aac",
  ".flac",
] as const;

const PART_NUMBER = /\.\d+$/;
const REPORT_WORD_ANY_CASE = /[\s._-]+(report|minutes)$/i;

export type FileRole = "report" | "transcript" | "audio" | "unreadable";

export interface NamedFile {
  name: string;
}

export interface DroppedFile<F extends NamedFile = File> {
  file: F;
  role: FileRole;
  /** The upload it belongs to; starts as the name's stem. */
  key: string;
}

export interface PlannedUpload<F extends NamedFile = File> {
  key: string;
  /** The report's name without extension, as the document's name. */
  name: string;
  report: F | null;
  reports: number;
  transcripts: F[];
  /** The recording, when one was dropped with the pair. */
  audio: F | null;
  /** Why it cannot be sent as it is, or null when it can. */
  problem: string | null;
}

function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot).toLowerCase();
}

/**
 * A file's role by its extension. An extension both a report and a transcript may have (a
 * talk's `.json`: a science-parse paper or a Whisper transcript) is a transcript unless the
 * name ends in a report word (`talk_report.json`).
 */
export function fileRole(name: string, kind: ProjectKind = "meeting"): FileRole {
  const ext = extension(name);
  const isReport = REPORTS[kind].extensions.includes(ext);
  const isTranscript = (TRANSCRIPT_EXTENSIONS as readonly string[]).includes(ext);
  if (isReport && isTranscript) {
    return REPORT_WORD_ANY_CASE.test(name.slice(0, name.length - ext.length))
      ? "report"
      : "transcript";
  }
  if (isReport) return "report";
  if (isTranscript) return "transcript";
  if ((AUDIO_EXTENSIONS as readonly string[]).includes(ext)) return "audio";
  return "unreadable";
}

const ROLE_WORD_ANY_CASE =
  /[\s._-]+(report|minutes|transcript|transcription|asr|captions|subtitles)$/i;

/** The name without its extension, a .ctm part number or a trailing role word: the
 * document's name as the lead wrote it. */
export function documentNameOf(name: string): string {
  const ext = extension(name);
  let stem = name.slice(0, name.length - ext.length);
  if (ext === ".ctm") stem = stem.replace(PART_NUMBER, "");
  return stem.replace(ROLE_WORD_ANY_CASE, "") || stem;
}

/** What pairs files: their document name, whatever its case. */
export function stemOf(name: string): string {
  return documentNameOf(name).toLowerCase();
}

/** `kind`: the project's, which says what its reports are. */
export function describeFiles<F extends NamedFile>(
  files: F[],
  kind: ProjectKind = "meeting",
): DroppedFile<F>[] {
  return files.map((file) => ({
    file,
    role: fileRole(file.name, kind),
    key: stemOf(file.name),
  }));
}

const byNaturalName = (left: NamedFile, right: NamedFile) =>
  left.name.localeCompare(right.name, undefined, { numeric: true });

/** Uploads in the order their keys first appear; unreadable files are left out. */
export function planUploads<F extends NamedFile>(dropped: DroppedFile<F>[]): PlannedUpload<F>[] {
  const groups = new Map<string, DroppedFile<F>[]>();
  for (const item of dropped) {
    if (item.role === "unreadable") continue;
    groups.set(item.key, [...(groups.get(item.key) ?? []), item]);
  }
  return [...groups].map(([key, items]) => {
    const reports = items.filter((item) => item.role === "report").map((item) => item.file);
    const transcripts = items
      .filter((item) => item.role === "transcript")
      .map((item) => item.file)
      .sort(byNaturalName);
    const recordings = items.filter((item) => item.role === "audio").map((item) => item.file);
    return {
      key,
      name: reports[0] ? documentNameOf(reports[0].name) : key,
      report: reports[0] ?? null,
      reports: reports.length,
      transcripts,
      audio: recordings[0] ?? null,
      problem:
        problemOf(reports.length, transcripts) ??
        (recordings.length > 1
          ? "Two recordings: a pair takes one; move the other to its own pair."
          : null),
    };
  });
}

function problemOf(reports: number, transcripts: NamedFile[]): string | null {
  if (reports === 0) return "No report: add a .docx, .txt or .md file, or pair one here.";
  if (reports > 1) return "Two reports: a pair takes one; move the other to its own pair.";
  if (transcripts.length === 0) return "No transcript: add .ctm parts, or a .srt, .vtt or .json.";
  const formats = new Set(transcripts.map((file) => extension(file.name)));
  if (formats.size > 1 || (transcripts.length > 1 && !formats.has(".ctm"))) {
    return "Several transcripts: only .ctm recordings come in parts; keep one file otherwise.";
  }
  return null;
}
