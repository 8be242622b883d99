"""The spot check's draw for a document of an iteration that asks for one: the iteration says
the share, the review mode's turns at its threshold are the review that must come first, and
the annotation keeps the draw (`backend.alignments.services.spot_check`)."""

from dataclasses import replace

import numpy as np
from django.contrib.auth.models import User

from backend.alignments.services.spot_check import annotation_spot_check_draw
from backend.core.errors import Conflict
from backend.documents.models import Document
from backend.iterations.review import DocumentReview, document_review


def document_spot_check_draw(*, annotator: User, document: Document) -> DocumentReview:
    """Draws the caller's spot check of `document` from fresh OS entropy, so that neither the
    client nor a replayed seed decides which turns are checked; the document's review with
    the turns drawn."""
    review = document_review(document=document, annotator=annotator)
    if review.threshold is None or review.spot_check is None:
        raise Conflict(
            f"{document.name} has no spot check to draw: "
            + (
                "it has no review mode (no iteration, or a pre-alignment without confidences)."
                if review.threshold is None
                else "its iteration asks for none. A lead sets one on the iteration's review panel."
            )
        )
    annotation = annotation_spot_check_draw(
        annotator=annotator,
        document=document,
        share=review.spot_check,
        shown_turns=review.turns,
        rng=np.random.default_rng(),
    )
    return replace(review, spot_check_turns=list(annotation.spot_check["drawn"]))
