"""A study on real meetings: the exports' corpus (two gold meetings, one pre-aligned meeting
whose turn j has confidence j / turns), two raters and an annotator who rates nothing."""

from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from backend.projects.models import Membership, Role
from tests.domain import make_user
from tests.exports.conftest import Corpus, build_corpus
from tests.exports.test_filters import give_confidences


@dataclass
class Study:
    corpus: Corpus
    first_rater: object
    second_rater: object
    bystander: object
    id: int

    def client(self, who: str) -> APIClient:
        client = APIClient()
        client.force_login(getattr(self, who) if who != "lead" else self.corpus.lead)
        return client

    @property
    def url(self) -> str:
        return f"{self.corpus.url}/rating-studies/{self.id}"


def add_member(corpus: Corpus, name: str, role: str = Role.ANNOTATOR):
    user = make_user(name)
    Membership.objects.create(project=corpus.project, user=user, role=role)
    return user


def create_study(corpus: Corpus, raters: list, **overrides) -> dict:
    response = corpus.client().post(
        f"{corpus.url}/rating-studies/",
        {
            "name": "first look",
            "sample_size": 10,
            "controls": 4,
            "raters": [rater.pk for rater in raters],
            "raters_per_pair": 2,
            "seed": 7,
            **overrides,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


@pytest.fixture
def study(db) -> Study:
    corpus = build_corpus()
    give_confidences(corpus)
    first = add_member(corpus, "first-rater")
    second = add_member(corpus, "second-rater", Role.CURATOR)
    bystander = add_member(corpus, "bystander")
    created = create_study(corpus, [first, second])
    return Study(corpus, first, second, bystander, created["id"])
