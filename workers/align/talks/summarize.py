"""A talk's transcript and its paper in, the paper's sentences ranked by the time the talk
spent on them and TalkSumm's extractive summaries out (`python -m workers.align summarize`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gensim.models import KeyedVectors

from workers.align.document_model import Paper, Transcript
from workers.align.params import AlignmentParams
from workers.align.scoring.vectors import EpochCallback, train_vectors
from workers.align.talks.hmm import HmmSettings
from workers.align.talks.hmm_alignment import decode_talk, spoken_words
from workers.align.talks.importance import (
    TALKSUMM_LENGTHS,
    SummaryLengths,
    importance,
    ranking,
    summaries,
)
from workers.align.talks.paper_states import DEFAULT_EXCLUDED, PaperStates, paper_states


@dataclass(frozen=True)
class TalkSummary:
    paper: Paper
    states: PaperStates
    scores: np.ndarray
    """Spoken words per paper sentence (all sentences, excluded ones at 0)."""
    lengths: SummaryLengths
    spoken_words: int
    log_probability: float

    def to_dict(self) -> dict[str, Any]:
        sentences = self.states.sentences
        titles = [self.paper.sections[i].title for i in self.states.section_of_sentence]
        words = [len(sentence.split()) for sentence in sentences]
        budgets = self.lengths.budgets(sum(words))
        chosen = summaries(self.scores, words, self.lengths)
        return {
            "paper": {
                "source": self.paper.source,
                "title": self.paper.title,
                "sentences": len(sentences),
                "states": int(self.states.is_state.sum()),
                "words": sum(words),
            },
            "spoken_words": self.spoken_words,
            "log_probability": self.log_probability,
            "ranked": [
                {
                    "rank": rank,
                    "index": index,
                    "section": titles[index],
                    "text": sentences[index],
                    "score": int(self.scores[index]),
                }
                for rank, index in enumerate(ranking(self.scores), start=1)
            ],
            "summaries": {
                name: {
                    "budget": budgets[name],
                    "words": sum(words[i] for i in indices),
                    "sentences": indices,
                    "text": " ".join(sentences[i] for i in indices),
                }
                for name, indices in chosen.items()
            },
        }


def talk_vectors(
    paper: Paper,
    transcript: Transcript,
    params: AlignmentParams,
    on_epoch: EpochCallback | None = None,
) -> KeyedVectors:
    """Vectors trained on the paper and the talk together, as the aligner trains them on a
    meeting's two sides."""
    sentences = [s for section in paper.sections for s in section.sentences] + [
        s for turn in transcript.turns for s in turn.sentences
    ]
    return train_vectors(sentences, params.vectors, on_epoch=on_epoch)


def summarize_talk(
    paper: Paper,
    transcript: Transcript,
    params: AlignmentParams,
    vectors: KeyedVectors | None,
    lengths: SummaryLengths = TALKSUMM_LENGTHS,
    excluded: tuple[str, ...] = DEFAULT_EXCLUDED,
) -> TalkSummary:
    """TalkSumm's path: the HMM over the paper's sentences outside `excluded`, starting in the
    Introduction, then count(s) per sentence. `vectors` are needed for embedding scoring."""
    settings = params.path
    if not isinstance(settings, HmmSettings):
        raise ValueError(
            f"summaries come from the hmm aligner; these parameters are the {params.aligner} "
            f"aligner's (give an hmm params file)"
        )
    if params.scoring.method == "embedding" and vectors is None:
        raise ValueError("the embedding method needs word vectors")
    states = paper_states(paper, excluded)
    state_indices = states.state_sentences
    turn_words = spoken_words([turn.sentences for turn in transcript.turns])
    decoding = decode_talk(
        turn_words,
        spoken_words([[states.sentences[i]] for i in state_indices]),
        states.is_start[state_indices],
        vectors if params.scoring.method == "embedding" else None,
        settings,
        params.scoring.centre,
    )
    assigned = decoding.word_state
    sentence_of_word = np.full(len(assigned), -1)
    if len(state_indices):
        sentence_of_word = np.where(assigned >= 0, state_indices[np.maximum(assigned, 0)], -1)
    return TalkSummary(
        paper=paper,
        states=states,
        scores=importance(sentence_of_word, len(states.sentences)),
        lengths=lengths,
        spoken_words=len(assigned),
        log_probability=decoding.log_probability,
    )
