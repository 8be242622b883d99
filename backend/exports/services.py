"""Writes of the exports app: the audit event every export leaves, and importing a
public_meetings-layout file into a project.

An import writes everything in one transaction: a file that fails half-way leaves nothing.
Gold (`final`) becomes an annotation submitted by the importing user, so it is gold exactly
like an annotator's; the audit event says it was imported. It is not checked against the
editor's order rule: the corpus's own reference breaks that rule in 4 of its 22 meetings.
"""

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from backend.alignments.models import Annotation, PreAlignment
from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.audit.models import AuditEvent
from backend.audit.services import record_event
from backend.curation.public_meetings import INITIAL_PARAMETER_SET
from backend.curation.services import gold_refresh
from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from backend.projects.models import Project
from workers.align.document_model import UNALIGNED
from workers.align.pairs.options import ExportOptions
from workers.align.public_meetings_layout import ParsedMeeting


@transaction.atomic
def export_record(
    *, actor: User, project: Project, export_format: str, options: ExportOptions | None
) -> AuditEvent:
    """Recorded when the export starts streaming: what was asked for, by whom."""
    return record_event(
        actor=actor,
        action="export.download",
        target=project,
        project=project,
        format=export_format,
        options=options.as_dict() if options else None,
    )


@transaction.atomic
def public_meetings_import(
    *, actor: User, project: Project, meetings: list[ParsedMeeting]
) -> list[Document]:
    documents = [_import_meeting(actor, project, meeting) for meeting in meetings]
    record_event(
        actor=actor,
        action="document.import_public_meetings_file",
        target=project,
        project=project,
        meetings=[meeting.key for meeting in meetings],
        documents=[document.pk for document in documents],
        gold=sum(meeting.gold is not None for meeting in meetings),
    )
    return list(Document.objects.filter(pk__in=[d.pk for d in documents]).order_by("pk"))


def _import_meeting(actor: User, project: Project, meeting: ParsedMeeting) -> Document:
    document = Document.objects.create(
        project=project, name=meeting.name, source=meeting.source, created_by=actor
    )
    document_store_parsed(document=document, report=meeting.report, transcript=meeting.transcript)
    pre_alignment = None
    if meeting.initial is not None:
        provenance = meeting.provenance
        pre_alignment = pre_alignment_record(
            document=document,
            parameter_set=parameter_set_get_or_create(
                project=project,
                name=provenance.get("parameter_set") or INITIAL_PARAMETER_SET,
                params=provenance.get("params") or {},
                engine_version=provenance.get("engine_version") or "",
                actor=actor,
            ),
            labels=meeting.initial,
            confidences=meeting.confidences,
            params=provenance.get("params") or {},
            engine_version=provenance.get("engine_version") or "",
        )
    if meeting.gold is not None:
        _submit_gold(actor, document, pre_alignment, meeting.gold)
    return document


def _submit_gold(
    actor: User, document: Document, pre_alignment: PreAlignment | None, gold: list[int]
) -> None:
    baseline = pre_alignment.labels if pre_alignment else [UNALIGNED] * len(gold)
    annotation = Annotation.objects.create(
        document=document,
        annotator=actor,
        pre_alignment=pre_alignment,
        assignments=gold,
        changed=[now != before for now, before in zip(gold, baseline, strict=True)],
        submitted_at=timezone.now(),
        version=1,
    )
    Document.objects.filter(pk=document.pk).update(status=Document.Status.SUBMITTED)
    gold_refresh(document=document)
    record_event(
        actor=actor,
        action="annotation.import_gold",
        target=annotation,
        project=document.project,
    )
