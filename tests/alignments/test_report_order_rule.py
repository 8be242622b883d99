"""One report-order rule: the engine's definition and the server's check pass the cases the
editor passes too (tests/fixtures/report_order_cases.json, read by
frontend/src/editor/state.test.ts)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from backend.alignments.services.annotations import check_order
from backend.core.errors import InvalidInput
from workers.align.report_order import first_order_break, keeps_report_order

CASES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "report_order_cases.json").read_text("utf-8")
)


@pytest.mark.parametrize("case", CASES["documents"], ids=lambda case: case["why"])
def test_the_engine_finds_the_first_break(case: dict) -> None:
    found = first_order_break(case["labels"])
    assert (asdict(found) if found else None) == case["first_break"]
    assert keeps_report_order(case["labels"]) == (case["first_break"] is None)


@pytest.mark.parametrize("case", CASES["documents"], ids=lambda case: case["why"])
def test_the_server_refuses_exactly_the_documents_out_of_order_naming_the_turn(
    case: dict,
) -> None:
    expected = case["first_break"]
    if expected is None:
        check_order(case["labels"])
        return
    with pytest.raises(InvalidInput) as refused:
        check_order(case["labels"])
    assert refused.value.extra == {"turn": expected["turn"]}
    assert refused.value.message.startswith(
        f"Turn {expected['turn']} would be assigned to segment {expected['segment']}, which "
        f"comes before segment {expected['earlier_segment']} of turn {expected['earlier_turn']}"
    )


@pytest.mark.parametrize("case", CASES["edits"], ids=lambda case: case["why"])
def test_an_edit_keeps_the_order_when_the_whole_document_does(case: dict) -> None:
    labels = list(case["labels"])
    labels[case["first"] : case["first"] + len(case["values"])] = case["values"]
    assert keeps_report_order(labels) == case["keeps_order"]
