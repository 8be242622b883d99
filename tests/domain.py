"""Builders for the domain tests: projects with every role, and documents made from small
hand-built readers' output, so most tests need neither files nor a worker."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from backend.alignments.services.pre_alignments import (
    parameter_set_get_or_create,
    pre_alignment_record,
)
from backend.documents.models import Document
from backend.documents.services import document_store_parsed
from backend.iterations.models import Iteration
from backend.jobs.models import Job
from backend.projects.models import Membership, Project, Role
from backend.vectors.models import WordVectors
from workers.align.document_model import Report, Segment, Transcript, Turn


def make_user(username: str, **extra):
    """Without a password: tests sign in with force_login, and hashing is slow by design."""
    return get_user_model().objects.create_user(username, password=None, **extra)


def make_document(
    project: Project,
    *,
    name: str = "meeting",
    turns: int = 10,
    segments: int = 4,
    assignees=(),
    pre_alignment: list[int] | None = None,
) -> Document:
    document = Document.objects.create(project=project, name=name)
    report = Report(
        segments=tuple(
            Segment(f"s{i}", f"segment {i} text", (f"segment {i} text",), f"speaker {i}", i)
            for i in range(segments)
        ),
        source="report.txt",
    )
    transcript = Transcript(
        turns=tuple(
            Turn(f"t{i}", f"turn {i} words here", (f"turn {i} words here",), "S0", i, i + 1, i)
            for i in range(turns)
        ),
        source="transcript.srt",
    )
    document_store_parsed(document=document, report=report, transcript=transcript)
    document.assignees.set(assignees)
    if pre_alignment is not None:
        pre_alignment_record(
            document=document,
            parameter_set=parameter_set_get_or_create(
                project=project, name="engine", params={"dp": {"power": 1.0}}, engine_version="test"
            ),
            labels=pre_alignment,
            confidences=[0.5] * turns,
            engine_version="test",
        )
    return document


def evenly(turns: int, segments: int) -> list[int]:
    """An ordered pre-alignment: turns spread over the segments in order."""
    return [turn * segments // turns for turn in range(turns)]


@dataclass
class World:
    """Project A with a lead, an assigned annotator, a second annotator assigned nothing, a
    curator, documents and a closed (empty) first iteration; project B elsewhere."""

    lead: object
    annotator: object
    second_annotator: object
    curator: object
    outsider: object
    admin: object
    project: Project
    document: Document
    unassigned_document: Document
    annotator_membership: Membership
    job: Job
    iteration: Iteration
    other_project: Project
    other_document: Document
    other_membership: Membership
    other_job: Job
    other_iteration: Iteration

    def client(self, who: str) -> APIClient:
        client = APIClient()
        if who != "anonymous":
            client.force_login(getattr(self, who))
        return client


def build_world() -> World:
    lead, annotator = make_user("lead"), make_user("annotator")
    outsider = make_user("outsider")
    admin = get_user_model().objects.create_superuser("admin", password=None)
    other_lead = make_user("other-lead")
    project = Project.objects.create(name="A")
    Membership.objects.create(project=project, user=lead, role=Role.LEAD)
    annotator_membership = Membership.objects.create(
        project=project, user=annotator, role=Role.ANNOTATOR
    )
    second_annotator = make_user("second-annotator")
    Membership.objects.create(project=project, user=second_annotator, role=Role.ANNOTATOR)
    curator = make_user("curator")
    Membership.objects.create(project=project, user=curator, role=Role.CURATOR)
    other_project = Project.objects.create(name="B")
    other_membership = Membership.objects.create(
        project=other_project, user=other_lead, role=Role.LEAD
    )
    document = make_document(
        project, assignees=[annotator], pre_alignment=evenly(10, 4), name="assigned"
    )
    return World(
        lead=lead,
        annotator=annotator,
        second_annotator=second_annotator,
        curator=curator,
        outsider=outsider,
        admin=admin,
        project=project,
        document=document,
        unassigned_document=make_document(project, name="unassigned"),
        annotator_membership=annotator_membership,
        job=Job.objects.create(project=project, kind=Job.Kind.IMPORT_DOCUMENT),
        iteration=Iteration.objects.create(project=project, number=1, closed_at=timezone.now()),
        other_project=other_project,
        other_document=make_document(other_project, name="elsewhere"),
        other_membership=other_membership,
        other_job=Job.objects.create(project=other_project, kind=Job.Kind.IMPORT_DOCUMENT),
        other_iteration=Iteration.objects.create(project=other_project, number=1),
    )


def make_rating_study(project: Project, document: Document, rater, *, rated: bool = False):
    """A study of two of `document`'s segments for `rater`, made directly: the hand-built
    documents' pairs are too short for the export's filters a study samples through."""
    from backend.ratings.models import Origin, Rating, RatingAssignment, RatingItem, RatingStudy

    study = RatingStudy.objects.create(
        project=project,
        name="study",
        seed=1,
        sample_size=2,
        controls=0,
        raters_per_pair=1,
        bins=[{"index": 0, "low": 0.5, "high": 0.5, "population": 4}],
    )
    for position in (0, 1):
        item = RatingItem.objects.create(
            study=study,
            document=document,
            segment_position=position,
            turn_positions=[position * 3, position * 3 + 1],
            confidence=0.5,
            origin=Origin.AUTOMATIC,
            bin_index=0,
        )
        assignment = RatingAssignment.objects.create(item=item, rater=rater, order=position)
    if rated:
        Rating.objects.create(assignment=assignment, answer="yes")
    return study


def make_word_vectors(project: Project, origin: str = WordVectors.Origin.UPLOADED) -> WordVectors:
    """A stored set with no words: for who may see it, and for what its origin decides."""
    return WordVectors.objects.create(
        project=project,
        training_key=f"{origin}-{WordVectors.objects.count()}",
        origin=origin,
        settings={},
        document_count=0,
        sentence_count=0,
        vocabulary_size=0,
        dimensions=3,
        data=b"",
    )
