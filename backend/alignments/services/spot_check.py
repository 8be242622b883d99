"""The spot check after review, on an annotation: once the annotator has reviewed the turns the
review mode shows, a share of the turns still unread is drawn at random for them to read too
(`workers.align.annotation.spot_check`). The server draws, so that no client chooses which
turns are checked, and keeps what the estimate needs: the pool drawn from, the turns drawn and
the labels at the draw; what the annotator changes in the pool afterwards is what they fixed.
A submission accepting the rest unread is refused while a drawn turn is unread
(`annotation_submit`)."""

from collections.abc import Sequence

import numpy as np
from django.contrib.auth.models import User
from django.db import transaction

from backend.alignments.models import Annotation
from backend.alignments.selectors import caller_annotation, turns_read
from backend.alignments.services.annotations import check_all_read, open_annotation_locked
from backend.audit.services import record_event
from backend.core.errors import Conflict
from backend.documents.models import Document
from workers.align.annotation.spot_check import draw_spot_checks


@transaction.atomic
def annotation_spot_check_draw(
    *,
    annotator: User,
    document: Document,
    share: float,
    shown_turns: Sequence[int],
    rng: np.random.Generator,
) -> Annotation:
    """Draw `share` of the turns neither reviewed nor changed in the caller's open annotation,
    once every turn of `shown_turns` (what the review mode shows) is reviewed; a check already
    drawn is returned as it is, even once submitted, so asking twice never draws a second,
    kinder sample."""
    annotation = open_annotation_locked(document=document, annotator=annotator)
    if annotation is None:
        submitted = caller_annotation(document=document, annotator=annotator)
        if submitted is not None and submitted.spot_check:
            return submitted
        raise Conflict(
            f"Your annotation of {document.name} is submitted: reopen it to spot-check it."
            if submitted is not None
            else f"You have no annotation of {document.name} yet: review the turns the review "
            "mode shows first, then ask for the spot check."
        )
    if annotation.spot_check:
        return annotation
    read = turns_read(annotation)
    check_all_read(
        shown_turns,
        read,
        "the review mode shows",
        "review them before the spot check, which draws from the turns left unread.",
    )
    unread = ~np.asarray(read, dtype=bool)
    drawn = draw_spot_checks(unread, share, rng)
    annotation.spot_check = {
        "share": share,
        "pool": np.flatnonzero(unread).tolist(),
        "drawn": np.flatnonzero(drawn).tolist(),
        "labels_before": list(annotation.assignments),
    }
    annotation.save(update_fields=["spot_check"])
    record_event(
        actor=annotator,
        action="annotation.spot_check",
        target=annotation,
        project=document.project,
        version=annotation.version,
        pool=len(annotation.spot_check["pool"]),
        drawn=len(annotation.spot_check["drawn"]),
    )
    return annotation
