"""What an export keeps and how it shapes text: one frozen value, built by the API's input
serializer, read by every format, and written verbatim into the audit event and the
dataset card, so an export can be requested again and gives the same bytes."""

from dataclasses import asdict, dataclass
from typing import Any

from workers.align.pairs.split import Split, split_of

DEFAULT_MIN_WORDS, DEFAULT_MAX_WORDS = 10, 1000
DEFAULT_MIN_SENTENCES, DEFAULT_MAX_SENTENCES = 3, 50
DEFAULT_SPLIT_SEED = "tandem"
DEFAULT_VALID_RATIO = DEFAULT_TEST_RATIO = 0.1


@dataclass(frozen=True)
class ExportOptions:
    """The length bounds are the paper's (`10 <= words <= 1000`, `3 <= sentences <= 50`),
    applied to both sides of a pair after the text is cleaned."""

    include_automatic: bool = False
    min_agreement: float = 0.0
    min_confidence: float = 0.0
    min_words: int = DEFAULT_MIN_WORDS
    max_words: int = DEFAULT_MAX_WORDS
    min_sentences: int = DEFAULT_MIN_SENTENCES
    max_sentences: int = DEFAULT_MAX_SENTENCES
    remove_tags: bool = False
    remove_speaker_names: bool = False
    remove_headings: bool = False
    remove_unk: bool = False
    split_seed: str = DEFAULT_SPLIT_SEED
    valid_ratio: float = DEFAULT_VALID_RATIO
    test_ratio: float = DEFAULT_TEST_RATIO
    annotator_labels: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def split_of(self, meeting: str) -> Split:
        """The split of a meeting's pairs under these options' seed and ratios."""
        return split_of(
            meeting, seed=self.split_seed, valid_ratio=self.valid_ratio, test_ratio=self.test_ratio
        )
