"""What changing a project's settings would do to the documents it already holds, so that a
lead sees it before saving: some settings are read when a file is imported (the report unit,
the transcript's windows), one when a document is pre-aligned (the excluded sections, which
the editor and the exports also read at once), others on every read (the salience labels).
Nothing here writes."""

from copy import copy
from dataclasses import dataclass
from typing import Literal

from django.db.models import QuerySet

from backend.documents.models import Document, ReportSegment
from backend.projects.models import Project
from backend.projects.podcasts import (
    cleans_descriptions,
    is_podcast,
    salience_config,
    window_config,
)
from backend.projects.talks import excluded_sections, is_talk, report_unit, section_is_excluded

Action = Literal["reimport", "pre_align", "none"]

IMPORTED = (
    Document.Status.IMPORTED,
    Document.Status.PRE_ALIGNED,
    Document.Status.IN_ANNOTATION,
    Document.Status.SUBMITTED,
)


@dataclass(frozen=True)
class SettingEffect:
    setting: str
    documents: int
    """Imported documents the change concerns."""
    action: Action
    """What the lead would do to apply it to them: import again, pre-align again, nothing."""
    summary: str


@dataclass(frozen=True)
class SettingsPreview:
    imported_documents: int
    effects: list[SettingEffect]


def _count(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _report_unit_effect(proposed: Project, documents: QuerySet[Document]) -> SettingEffect:
    """A talk paper's unit shows in its segments' keys: `s3.2` for a sentence, `s3` for a
    section (backend/documents/services.py)."""
    unit = report_unit(proposed)
    in_sentences = set(
        ReportSegment.objects.filter(document__in=documents, key__contains=".").values_list(
            "document", flat=True
        )
    )
    other = sum(
        1
        for pk in documents.values_list("pk", flat=True)
        if (pk in in_sentences) != (unit == "sentences")
    )
    per = "sentence" if unit == "sentences" else "section"
    if other == 0:
        summary = (
            f"Papers uploaded from now on are cut per {per}; no imported paper is cut otherwise."
        )
        return SettingEffect("report_unit", 0, "none", summary)
    summary = (
        f"Papers uploaded from now on are cut per {per}. "
        f"{_count(other, 'imported paper is', 'imported papers are')} cut otherwise and "
        "keep their segments: delete and upload them again to cut them anew."
    )
    return SettingEffect("report_unit", other, "reimport", summary)


def _excluded_sections_effect(
    project: Project, proposed: Project, documents: QuerySet[Document]
) -> SettingEffect:
    changed_documents: set[int] = set()
    changed_segments = 0
    for document_id, section in ReportSegment.objects.filter(document__in=documents).values_list(
        "document", "section"
    ):
        if section_is_excluded(project, section) != section_is_excluded(proposed, section):
            changed_documents.add(document_id)
            changed_segments += 1
    pre_aligned = (
        Document.objects.filter(pk__in=changed_documents, pre_alignments__isnull=False)
        .distinct()
        .count()
    )
    if not changed_documents:
        summary = "No imported paper has a section this change concerns."
        return SettingEffect("excluded_sections", 0, "none", summary)
    summary = (
        f"In {_count(len(changed_documents), 'paper', 'papers')}, "
        f"{_count(changed_segments, 'segment changes', 'segments change')} sides: the editor "
        "and the exports read the new list at once. "
    )
    if pre_aligned:
        summary += (
            f"{_count(pre_aligned, 'paper was', 'papers were')} pre-aligned with the old list: "
            f"pre-align {'it' if pre_aligned == 1 else 'them'} again for the aligner to follow "
            "the new one."
        )
        return SettingEffect("excluded_sections", len(changed_documents), "pre_align", summary)
    summary += "None is pre-aligned yet: their first pre-alignment will follow the new list."
    return SettingEffect("excluded_sections", len(changed_documents), "none", summary)


def _windows_effect(proposed: Project, imported: int) -> SettingEffect:
    windows = window_config(proposed)
    cut = (
        f"cut into {windows.seconds:g}-second windows"
        if windows is not None
        else "kept as the reader's turns"
    )
    summary = f"Transcripts uploaded from now on are {cut}. "
    if imported == 0:
        return SettingEffect("transcript_unit", 0, "none", summary + "No document is imported yet.")
    one = imported == 1
    summary += (
        f"The {_count(imported, 'imported document keeps', 'imported documents keep')} "
        f"{'its' if one else 'their'} units: delete and upload {'it' if one else 'them'} again "
        f"to cut {'it' if one else 'them'} anew."
    )
    return SettingEffect("transcript_unit", imported, "reimport", summary)


def _salience_effect(imported: int) -> SettingEffect:
    summary = (
        "Salience labels are computed whenever they are read: those of the "
        f"{_count(imported, 'imported document', 'imported documents')} change at once, "
        "with nothing to redo."
    )
    return SettingEffect("salience", imported, "none", summary)


def settings_change_preview(*, project: Project, settings: dict) -> SettingsPreview:
    """The effects on the imported documents of replacing `project`'s settings with
    `settings` (checked by the caller as a PATCH's are); settings that change nothing stored
    and read everything at once (thresholds of the editor and dashboards) have no effect."""
    proposed = copy(project)
    proposed.settings = settings
    documents = Document.objects.filter(project=project, status__in=IMPORTED)
    imported = documents.count()
    effects: list[SettingEffect] = []
    if is_talk(project):
        if report_unit(project) != report_unit(proposed):
            effects.append(_report_unit_effect(proposed, documents))
        if excluded_sections(project) != excluded_sections(proposed):
            effects.append(_excluded_sections_effect(project, proposed, documents))
    if window_config(project) != window_config(proposed):
        effects.append(_windows_effect(proposed, imported))
    salience_changes = (salience_config(project), cleans_descriptions(project)) != (
        salience_config(proposed),
        cleans_descriptions(proposed),
    )
    if is_podcast(project) and salience_changes:
        effects.append(_salience_effect(imported))
    return SettingsPreview(imported_documents=imported, effects=effects)
