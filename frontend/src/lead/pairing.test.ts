import { describe, expect, it } from "vitest";
import cases from "../../../tests/fixtures/pairing-cases.json";
import type { ProjectKind } from "./api";
import {
  AUDIO_EXTENSIONS,
  REPORTS,
  TRANSCRIPT_EXTENSIONS,
  describeFiles,
  documentNameOf,
  fileRole,
  planUploads,
  stemOf,
} from "./pairing";

const files = (...names: string[]) => names.map((name) => ({ name }));

describe("stemOf", () => {
  it("drops the extension, a .ctm part number and a trailing role word", () => {
    expect(stemOf("Council-2019.docx")).toBe("council-2019");
    expect(stemOf("council-2019.12.ctm")).toBe("council-2019");
    expect(stemOf("talk_report.md")).toBe("talk");
    expect(stemOf("talk-transcript.srt")).toBe("talk");
    expect(stemOf("v1.2.srt")).toBe("v1.2");
    expect(stemOf("report.txt")).toBe("report");
    expect(stemOf("Talk_Transcript.SRT")).toBe("talk");
  });

  it("keeps the report's own spelling as the document's name", () => {
    const [upload] = planUploads(
      describeFiles(files("Council-2019_Report.docx", "council-2019.1.ctm")),
    );
    expect(upload!.key).toBe("council-2019");
    expect(upload!.name).toBe("Council-2019");
  });
});

describe("fileRole", () => {
  it("knows the formats the engine reads", () => {
    expect(fileRole("a.DOCX")).toBe("report");
    expect(fileRole("a.vtt")).toBe("transcript");
    expect(fileRole("a.pdf")).toBe("unreadable");
    expect(fileRole("a.pdf", "talk")).toBe("report");
    expect(fileRole("a.xml", "talk")).toBe("report");
    expect(fileRole("a.docx", "talk")).toBe("unreadable");
    expect(fileRole("noextension")).toBe("unreadable");
    expect(fileRole("a.md", "podcast")).toBe("report");
    expect(fileRole("a.docx", "podcast")).toBe("unreadable");
  });
});

describe("planUploads", () => {
  it("pairs reports with their transcripts, .ctm parts in part order", () => {
    const plan = planUploads(
      describeFiles(files("b.10.ctm", "a.docx", "b.docx", "b.2.ctm", "a.srt", "notes.pdf")),
    );
    expect(plan.map((upload) => upload.key)).toEqual(["b", "a"]);
    expect(plan[0]!.report).toEqual({ name: "b.docx" });
    expect(plan[0]!.transcripts.map((file) => file.name)).toEqual(["b.2.ctm", "b.10.ctm"]);
    expect(plan.every((upload) => upload.problem === null)).toBe(true);
  });

  it("says what is wrong with a pair it cannot send", () => {
    const plan = planUploads(
      describeFiles(files("lonely.docx", "orphan.srt", "twice.srt", "twice.vtt", "twice.md")),
    );
    const problems = Object.fromEntries(plan.map((upload) => [upload.key, upload.problem]));
    expect(problems.lonely).toMatch(/^No transcript/);
    expect(problems.orphan).toMatch(/^No report/);
    expect(problems.twice).toMatch(/^Several transcripts/);
  });

  it("follows the lead's corrections of the pairing", () => {
    const dropped = describeFiles(files("minutes.docx", "recording.srt", "extra.md"));
    dropped[1]!.key = "minutes";
    const plan = planUploads(dropped);
    expect(plan.map((upload) => [upload.key, upload.problem])).toEqual([
      ["minutes", null],
      ["extra", expect.stringMatching(/^No transcript/)],
    ]);
    dropped[2]!.key = "minutes";
    expect(planUploads(dropped)[0]!.problem).toMatch(/^Two reports/);
  });
});

describe("the cases the engine's pairing passes too", () => {
  it.each(cases.stems)("stem of %s is %s", (name, stem) => {
    expect(stemOf(name)).toBe(stem);
  });

  it.each(cases.names)("document name of %s is %s", (name, documentName) => {
    expect(documentNameOf(name)).toBe(documentName);
  });

  it.each(cases.roles)("role of %s is %s (%s)", (name, role, kind) => {
    expect(fileRole(name, kind as ProjectKind | undefined)).toBe(role);
  });

  it("takes the extensions the engine reads", () => {
    const sorted = (listed: readonly string[]) => [...listed].sort();
    for (const [kind, listed] of Object.entries(cases.extensions.reports)) {
      expect(sorted(REPORTS[kind as ProjectKind].extensions)).toEqual(sorted(listed));
    }
    expect(Object.keys(REPORTS).sort()).toEqual(Object.keys(cases.extensions.reports).sort());
    expect(sorted(TRANSCRIPT_EXTENSIONS)).toEqual(sorted(cases.extensions.transcripts));
    expect(sorted(AUDIO_EXTENSIONS)).toEqual(sorted(cases.extensions.recordings));
  });

  it.each(cases.plans)("plans $files", ({ files: names, pairs }) => {
    const plan = planUploads(describeFiles(files(...names)));
    expect(
      plan.map((upload) => ({
        key: upload.key,
        name: upload.name,
        report: upload.report?.name ?? null,
        transcripts: upload.transcripts.map((file) => file.name),
        audio: upload.audio?.name ?? null,
      })),
    ).toEqual(
      pairs.map(({ key, name, report, transcripts, audio }) => ({
        key,
        name,
        report,
        transcripts,
        audio,
      })),
    );
    plan.forEach((upload, index) => {
      const expected = pairs[index]!.problem;
      if (expected === null) expect(upload.problem).toBeNull();
      else expect(upload.problem?.startsWith(expected)).toBe(true);
    });
  });
});

describe("recordings", () => {
  it("join their pair by name, and a pair takes one", () => {
    expect(fileRole("a.MP3")).toBe("audio");
    expect(fileRole("a.opus")).toBe("audio");
    const [upload, twice] = planUploads(
      describeFiles(files("a.docx", "a.srt", "a.wav", "b.md", "b.vtt", "b.ogg", "b.flac")),
    );
    expect(upload!.audio).toEqual({ name: "a.wav" });
    expect(upload!.problem).toBeNull();
    expect(twice!.problem).toMatch(/^Two recordings/);
  });

  it("are optional", () => {
    const [upload] = planUploads(describeFiles(files("a.docx", "a.srt")));
    expect(upload!.audio).toBeNull();
    expect(upload!.problem).toBeNull();
  });
});
