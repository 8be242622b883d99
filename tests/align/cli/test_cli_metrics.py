"""`evaluate --gold` on documents whose segments are too short for WindowDiff's window: the
figures are null in JSON and n/a in text, not a perfect 0."""

from __future__ import annotations

import json

from workers.align.cli.main import main

WORDS = ["budget library roof", "parking meters vote", "window cold close", "session closed"]


def short_segment_gold() -> dict:
    """Two documents of four turns, each turn its own segment (the window rounds to 0)."""
    return {
        f"meeting{number}": {
            "final": {
                "doc": [
                    {"id": f"0_{i}_0", "text": f"<p> {text} </p>"} for i, text in enumerate(WORDS)
                ],
                "ctm": [
                    {"id": f"0_{i}_0", "text": text, "aligned": f"0_{i}_0"}
                    for i, text in enumerate(WORDS)
                ],
            }
        }
        for number in range(2)
    }


def test_undefined_windowdiff_and_pk_are_null_and_na(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(short_segment_gold()), encoding="utf-8")
    params = tmp_path / "diagonal.json"
    params.write_text(json.dumps({"params": {"aligner": "diagonal"}}), encoding="utf-8")
    arguments = ["evaluate", "--gold", str(gold), "--params", str(params)]

    assert main([*arguments, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for figures in [report["micro_average"], *report["per_meeting"].values()]:
        assert (figures["windowdiff"], figures["pk"]) == (None, None)

    assert main(arguments) == 0
    text = capsys.readouterr().out
    (average,) = [line for line in text.splitlines() if line.startswith("micro-average")]
    assert average.split()[-2:] == ["n/a", "n/a"]
    assert "WindowDiff and Pk are undefined" in text
