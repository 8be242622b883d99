"""The export quotes the latest rating study: the preview's estimate at the chosen
min_confidence and the dataset card's section."""

import io
import zipfile

import pytest

from backend.ratings.models import RatingItem
from tests.exports.conftest import body
from tests.ratings.test_rating_studies import rate_all


def confident_only(item) -> str:
    if item.origin == "control":
        return "yes"
    return "yes" if item.bin_index >= 3 else "no"


def test_the_preview_says_nothing_before_any_rating(study):
    preview = study.corpus.client().get(f"{study.corpus.url}/exports/preview/").json()
    assert preview["rating"] is None


def test_the_preview_quotes_the_estimate_at_the_chosen_threshold(study):
    rate_all(study, "first_rater", confident_only)
    rate_all(study, "second_rater", confident_only)
    url = f"{study.corpus.url}/exports/preview/"
    top_bin_start = min(
        RatingItem.objects.filter(study_id=study.id, bin_index=3).values_list(
            "confidence", flat=True
        )
    )

    everything = study.corpus.client().get(url, {"include_automatic": True}).json()["rating"]
    confident = study.corpus.client().get(
        url, {"include_automatic": True, "min_confidence": top_bin_start}
    )

    populations = [
        b["population"] for b in study.client("lead").get(study.url + "/").json()["bins"]
    ]
    assert everything["study"] == study.id
    assert everything["rated_pairs"] == 10
    assert everything["estimated_yes_share"] == pytest.approx(
        sum(populations[3:]) / sum(populations)
    )
    assert confident.json()["rating"]["estimated_yes_share"] == 1.0


def test_the_dataset_card_states_the_study(study):
    rate_all(study, "first_rater", confident_only)
    rate_all(study, "second_rater", confident_only)

    archive = zipfile.ZipFile(
        io.BytesIO(
            body(
                study.corpus.client().get(
                    f"{study.corpus.url}/exports/huggingface.zip", {"include_automatic": True}
                )
            )
        )
    )
    card = archive.read("README.md").decode()
    section = card.split("## Rating study")[1].split("## Filters")[0]

    assert "Study 'first look' (seed 7): 10 automatic pairs" in section
    assert "4 gold pairs" in section
    assert "2 raters per pair, 28 ratings" in section
    assert "Krippendorff's alpha (ordinal): 1.000" in section
    assert section.count("| 0.0 % |") >= 3
    assert "| 100.0 % |" in section
