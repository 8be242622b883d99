import pytest

from tests.domain import build_world


@pytest.fixture
def world(db):
    return build_world()
