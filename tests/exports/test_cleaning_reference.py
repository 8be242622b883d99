"""`clean` takes a short path for plain words; a token-by-token reference that asks every
question of every token must give the same text and counts on any mix of words, markup,
`<unk>`, sentence ends and malformed tags, with every cleaning option."""

from hypothesis import given, settings
from hypothesis import strategies as st

from workers.align.corpus import load_public_meetings
from workers.align.pairs.cleaning import Cleaning, CleanText, clean
from workers.align.text import SENTENCE_END_TOKENS, UNKNOWN_WORD, is_tag

DROPPABLE_SPANS = {"<nom>": "</nom>", "<h>": "</h>"}
TOKENS = [
    "le", "conseil", "vote", ".", "?", "!", ",", "<nom>", "</nom>", "<h>", "</h>", "<p>",
    "</p>", "<table>", "</table>", UNKNOWN_WORD, "<", "<3", "a<b", "<x", "x>",
]  # fmt: skip


def reference_clean(text: str, cleaning: Cleaning) -> CleanText:
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
        if span_end is not None:
            if token == span_end:
                span_end = None
                continue
            if not (token != UNKNOWN_WORD and is_tag(token) and not token.startswith("</")):
                continue
            span_end = None
        if cleaning.drops_span(token):
            span_end = DROPPABLE_SPANS[token]
            continue
        if cleaning.drops_token(token):
            continue
        kept.append(token)
        if token != UNKNOWN_WORD and not is_tag(token):
            words += 1
            sentence_has_word = True
    sentences += sentence_has_word
    return CleanText(text=" ".join(kept), words=words, sentences=sentences)


cleanings = st.builds(Cleaning, st.booleans(), st.booleans(), st.booleans(), st.booleans())


@settings(max_examples=500, deadline=None)
@given(tokens=st.lists(st.sampled_from(TOKENS), max_size=40), cleaning=cleanings)
def test_clean_equals_the_reference_on_any_token_mix(tokens, cleaning):
    text = " ".join(tokens)
    assert clean(text, cleaning) == reference_clean(text, cleaning)


def test_clean_equals_the_reference_on_a_real_meeting():
    (meeting,) = load_public_meetings(["0b9ec6f049e68d4a35fae75792e2a84e"])
    texts = [segment.text for segment in meeting.report.segments]
    texts += [turn.text for turn in meeting.transcript.turns]
    for options in range(16):
        cleaning = Cleaning(*(bool(options >> bit & 1) for bit in range(4)))
        for text in texts:
            assert clean(text, cleaning) == reference_clean(text, cleaning)
