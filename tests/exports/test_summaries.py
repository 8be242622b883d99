"""summaries.jsonl on real public_meetings documents: importance from gold where there is
gold, else from the pre-alignment; TalkSumm's summaries; leads only; lengths by query."""

import pytest

from backend.curation.selectors import document_gold
from backend.documents.models import Document, ReportSegment, TranscriptTurn
from backend.projects.models import Membership, Role
from tests.domain import make_user
from tests.exports.conftest import records

SUMMARIES = "/exports/summaries.jsonl"


def expected_scores(document: Document, labels: list[int]) -> list[int]:
    """Spoken words per segment: every word of a turn counts for the turn's segment."""
    words = TranscriptTurn.objects.filter(document=document).order_by("position")
    scores = [0] * document.segment_count
    for label, turn_words in zip(labels, words.values_list("word_count", flat=True), strict=True):
        if label >= 0:
            scores[label] += turn_words
    return scores


def test_each_document_ranks_its_segments_by_the_words_its_gold_or_pre_alignment_gives_them(
    corpus,
):
    lines = records(corpus.client().get(f"{corpus.url}{SUMMARIES}"))

    assert [line["document_id"] for line in lines] == sorted(
        document.pk for document in [*corpus.gold, corpus.pre_aligned]
    )
    for line in lines:
        document = Document.objects.get(pk=line["document_id"])
        gold = document_gold(document_id=document.pk)
        if document in corpus.gold:
            assert line["scores_from"] == "gold"
            labels = gold.labels
        else:
            assert line["scores_from"] == "automatic"
            labels = document.pre_alignments.get().labels
        scores = expected_scores(document, labels)
        assert [unit["score"] for unit in line["units"]] == scores
        assert [unit["position"] for unit in line["units"]] == list(range(len(scores)))
        assert sum(scores) == line["spoken_words"] - sum(
            words
            for label, words in zip(
                labels,
                TranscriptTurn.objects.filter(document=document)
                .order_by("position")
                .values_list("word_count", flat=True),
                strict=True,
            )
            if label < 0
        )
        ranked = [scores[position] for position in line["ranking"]]
        assert ranked == sorted(ranked, reverse=True)
        assert all(score > 0 for score in ranked)
        assert [line["units"][p]["rank"] for p in line["ranking"]] == list(
            range(1, len(ranked) + 1)
        )
        report_words = sum(unit["words"] for unit in line["units"])
        assert set(line["summaries"]) == {"150_words", "250_words", "ratio_0.3", "ratio_0.4"}
        assert line["summaries"]["ratio_0.3"]["budget"] == int(0.3 * report_words)
        for summary in line["summaries"].values():
            assert summary["positions"] == sorted(summary["positions"])
            assert summary["words"] <= summary["budget"]
            chosen = set(summary["positions"])
            assert chosen == set(line["ranking"][: len(chosen)])
        assert len(line["summaries"]["250_words"]["positions"]) >= len(
            line["summaries"]["150_words"]["positions"]
        )


def test_query_parameters_choose_the_lengths(corpus):
    lines = records(
        corpus.client().get(f"{corpus.url}{SUMMARIES}", {"words": "40", "ratios": "0.5,1"})
    )

    line = lines[0]
    assert set(line["summaries"]) == {"40_words", "ratio_0.5", "ratio_1"}
    assert line["summaries"]["ratio_1"]["positions"] == sorted(line["ranking"])
    segments = ReportSegment.objects.filter(document_id=line["document_id"]).order_by("position")
    assert line["summaries"]["40_words"]["text"] == " ".join(
        segments[position].text for position in line["summaries"]["40_words"]["positions"]
    )


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ({"ratios": "1.5"}, "summary ratios must be in (0, 1]"),
        ({"words": "-5"}, "summary lengths must be >= 0 words"),
        ({"words": "many"}, "invalid literal for int()"),
        ({"length": "150"}, "Unknown query parameter"),
    ],
)
def test_bad_lengths_are_refused_by_name(corpus, query, problem):
    response = corpus.client().get(f"{corpus.url}{SUMMARIES}", query)

    assert response.status_code == 400
    assert problem in str(response.json())


def test_only_leads_download_summaries(corpus):
    curator = make_user("summaries-curator")
    Membership.objects.create(project=corpus.project, user=curator, role=Role.CURATOR)
    outsider = make_user("summaries-outsider")
    for user, status in ((corpus.annotator, 403), (curator, 403), (outsider, 403)):
        client = corpus.client()
        client.force_login(user)
        assert client.get(f"{corpus.url}{SUMMARIES}").status_code == status
    client = corpus.client()
    client.logout()
    assert client.get(f"{corpus.url}{SUMMARIES}").status_code in (401, 403)
