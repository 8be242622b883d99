"""Cleaning a text for export and measuring it the way the length filters read it.

Texts are in the corpus form (lower-cased tokens separated by spaces; reports keep `<h>`,
`<nom>`, `<p>`, `<table>` markup; transcripts contain `<unk>`).

- A *word* is a token that is neither markup nor `<unk>`; punctuation marks are tokens of
  the corpus form, and count.
- A *sentence* is one of the reader's sentences (it ends at `.`, `?`, `!` or a closing tag,
  see `workers.align.text.split_sentences`) and counts when it still holds a word after
  cleaning: removing speaker names also removes the one-name sentence they formed, and
  removing tags does not merge sentences.
"""

from dataclasses import dataclass

from workers.align.text import SENTENCE_END_TOKENS, UNKNOWN_WORD, is_tag

_DROPPABLE_SPANS = {"<nom>": "</nom>", "<h>": "</h>"}


@dataclass(frozen=True)
class CleanText:
    text: str
    words: int
    sentences: int


@dataclass(frozen=True)
class Cleaning:
    remove_tags: bool = False
    remove_speaker_names: bool = False
    remove_headings: bool = False
    remove_unk: bool = False

    def drops_span(self, token: str) -> bool:
        return (token == "<nom>" and self.remove_speaker_names) or (
            token == "<h>" and self.remove_headings
        )

    def drops_token(self, token: str) -> bool:
        if token == UNKNOWN_WORD:
            return self.remove_unk
        return self.remove_tags and is_tag(token)


def clean(text: str, cleaning: Cleaning) -> CleanText:
    """A dropped span ends at its closing tag, or at the next opening tag when the closing
    one is missing, so one malformed name cannot swallow the rest of a segment.

    Exports clean every pair's texts, millions of tokens for a large project: a token that
    does not start with `<` is neither markup nor `<unk>`, so it takes a short path."""
    kept: list[str] = []
    words = sentences = 0
    sentence_has_word = after_end = False
    span_end: str | None = None
    for token in text.split():
        if token in SENTENCE_END_TOKENS:
            after_end = True
        elif after_end:
            sentences += sentence_has_word
            sentence_has_word = after_end = False
        if token[0] != "<":
            if span_end is None:
                kept.append(token)
                words += 1
                sentence_has_word = True
            continue
        if span_end is not None:
            if token == span_end:
                span_end = None
                continue
            if not _is_opening_tag(token):
                continue
            span_end = None
        if cleaning.drops_span(token):
            span_end = _DROPPABLE_SPANS[token]
            continue
        if cleaning.drops_token(token):
            continue
        kept.append(token)
        if token != UNKNOWN_WORD and not is_tag(token):
            words += 1
            sentence_has_word = True
    sentences += sentence_has_word
    return CleanText(text=" ".join(kept), words=words, sentences=sentences)


def _is_opening_tag(token: str) -> bool:
    return token != UNKNOWN_WORD and is_tag(token) and not token.startswith("</")
