"""How the bootstrap simulation chooses its batches (`simulate_bootstrap --select`), and the
held-out meetings it measures the result on (`--held-out`).

The first batch is the seed's random draw under every policy (with no gold and no tuned
parameters, no policy has anything to go on), so runs of one seed differ only by what the
policy chooses afterwards. Each later batch is what the app would propose to a lead
(`backend.iterations.proposals.batch_proposal`) among the meetings not yet annotated and not
held out; for uncertainty, the candidates are first pre-aligned with the parameters in use, as
a lead would before asking. `random` keeps the seed's shuffled order, as before `--select`.

Held-out meetings are drawn by the seed before any batch, never annotated, and pre-aligned
once the loop is over with the parameters it ended with: their accuracy against the corpus's
(reachable) alignment compares policies on the same meetings, which the iterations' own
figures, each on its own batch, cannot.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from django.contrib.auth.models import User

from backend.alignments.selectors import current_pre_alignments
from backend.alignments.services.pre_alignments import diagonal_parameter_set, pre_align_start
from backend.curation.public_meetings import source_of
from backend.documents.models import Document
from backend.iterations.accuracy import score_correction
from backend.iterations.models import Iteration
from backend.iterations.proposals import batch_proposal
from backend.projects.models import Project
from backend.simulation.annotator import reachable_gold
from backend.tuning.selectors import parameters_in_use
from workers.align.annotation.selection import SelectionPolicy
from workers.align.document_model import Meeting

Wait = Callable[[int, str], None]


@dataclass
class BatchPlan:
    """The batches of one run: drawn up front for `random`, chosen as the loop goes for the
    other policies."""

    shuffled: list[str]
    """The pool in the seed's order (`bootstrap.batches_of`): today's batches, then the
    held-out meetings, then the rest."""
    sizes: Sequence[int]
    policy: SelectionPolicy
    held_out: list[str]
    chosen: list[list[str]] = field(default_factory=list)
    reasons: list[dict[str, str]] = field(default_factory=list)

    @property
    def imported(self) -> list[str]:
        """The meetings the run's project holds: every meeting that may be chosen, and the
        whole pool whenever policies are compared (held-out meetings), since the project's
        word vectors are trained on its texts and must not differ by policy. Without either,
        only the batches, as before `--select`."""
        if self.policy == SelectionPolicy.RANDOM and not self.held_out:
            return self.shuffled[: sum(self.sizes)]
        return self.shuffled

    def next_batch(self, *, project: Project, lead: User, wait: Wait) -> list[str]:
        index = len(self.chosen)
        if index == 0 or self.policy == SelectionPolicy.RANDOM:
            batch = self._open_meetings()[: self.sizes[index]]
            reasons = {meeting: "the seed's draw" for meeting in batch}
        else:
            batch, reasons = self._proposed(project, lead, wait, self.sizes[index])
        self.chosen.append(batch)
        self.reasons.append(reasons)
        return batch

    def _proposed(
        self, project: Project, lead: User, wait: Wait, size: int
    ) -> tuple[list[str], dict[str, str]]:
        open_meetings = self._open_meetings()
        documents = _documents_of(project, open_meetings)
        if self.policy == SelectionPolicy.UNCERTAINTY:
            _pre_align(project, lead, documents, wait, f"batch {len(self.chosen) + 1}'s candidates")
        proposal = batch_proposal(
            project=project,
            policy=self.policy,
            size=size,
            document_ids=[document.pk for document in documents],
        )
        meeting_of = dict(zip((document.pk for document in documents), open_meetings, strict=True))
        batch = [meeting_of[document.id] for document in proposal.documents]
        reasons = {meeting_of[document.id]: document.reason for document in proposal.documents}
        if len(batch) < size:
            # Candidates the policy could not rank (a pre-alignment with equal confidences,
            # from the diagonal) fill the batch in the seed's order.
            for meeting in open_meetings:
                if len(batch) == size:
                    break
                if meeting not in batch:
                    batch.append(meeting)
                    reasons[meeting] = "unranked; the seed's order"
        return batch, reasons

    def _open_meetings(self) -> list[str]:
        """Meetings neither annotated yet nor held out, in the seed's order."""
        taken = {meeting for batch in self.chosen for meeting in batch} | set(self.held_out)
        return [meeting for meeting in self.shuffled if meeting not in taken]

    def iteration_figures(self, iteration: Iteration) -> dict[str, Any]:
        """What the batch cost: turns the annotators changed, of all its turns."""
        records = list(iteration.records.values_list("turns", "unchanged_turns"))
        turns = sum(total for total, _ in records)
        changed = sum(total - unchanged for total, unchanged in records)
        return {
            "policy": str(self.policy),
            "reasons": self.reasons[iteration.number - 1] if self.reasons else {},
            "turns": turns,
            "turns_changed": changed,
        }

    def held_out_accuracy(
        self, *, project: Project, lead: User, meetings: dict[str, Meeting], wait: Wait
    ) -> dict[str, Any]:
        """The held-out meetings pre-aligned with the parameters the loop ended with, scored
        against the corpus's reachable alignment (percent of turns right, per meeting)."""
        if not self.held_out:
            return {}
        documents = _documents_of(project, self.held_out)
        parameter_set = _pre_align(project, lead, documents, wait, "the held-out meetings")
        stored = current_pre_alignments(document_ids=[document.pk for document in documents])
        accuracy = {}
        for meeting_id, document in zip(self.held_out, documents, strict=True):
            meeting = meetings[meeting_id]
            if meeting.reference is None:
                raise ValueError(f"public_meetings' {meeting_id} has no reference alignment")
            accuracy[meeting_id] = score_correction(
                pre_alignment=stored[document.pk].labels,
                gold=reachable_gold(meeting.reference),
                word_counts=[turn.word_count for turn in meeting.transcript.turns],
                turn_keys=[turn.id for turn in meeting.transcript.turns],
            ).human_turn_accuracy
        return {
            "parameters": parameter_set,
            "meetings": self.held_out,
            "per_meeting_accuracy": accuracy,
            "mean_accuracy": mean(accuracy.values()),
        }


def batch_plan(
    shuffled: list[str], sizes: Sequence[int], policy: SelectionPolicy, held_out: int
) -> BatchPlan:
    """`shuffled`: the pool in the seed's order. The held-out meetings follow the first
    `sum(sizes)`, so that `random` annotates the batches it did before held-out meetings."""
    if any(size < 1 for size in sizes):
        raise ValueError(f"Every batch needs at least one meeting, got {list(sizes)}.")
    annotated = sum(sizes)
    if annotated + held_out > len(shuffled):
        raise ValueError(
            f"The batches and held-out meetings need {annotated + held_out} meetings; the pool "
            f"has {len(shuffled)}."
        )
    return BatchPlan(
        shuffled=shuffled,
        sizes=sizes,
        policy=policy,
        held_out=shuffled[annotated : annotated + held_out],
    )


def _documents_of(project: Project, meeting_ids: list[str]) -> list[Document]:
    by_source = {
        document.source: document
        for document in Document.objects.filter(
            project=project, source__in=[source_of(meeting) for meeting in meeting_ids]
        )
    }
    return [by_source[source_of(meeting)] for meeting in meeting_ids]


def _pre_align(
    project: Project, lead: User, documents: list[Document], wait: Wait, what: str
) -> str:
    """Pre-aligns `documents` with the parameters in use (the diagonal before any) and waits;
    answers the parameter set's name."""
    project.refresh_from_db(fields=["promoted_parameter_set"])
    parameter_set = parameters_in_use(project=project) or diagonal_parameter_set(project)
    job = pre_align_start(
        actor=lead, project=project, documents=documents, parameter_set=parameter_set
    )
    wait(job.pk, f"the pre-alignment of {what}")
    return parameter_set.name
