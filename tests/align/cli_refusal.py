"""A command refused in-process: its exit status and what it said on stderr."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from workers.align.cli.main import main


def refusal(capsys: pytest.CaptureFixture[str], arguments: Sequence[str]) -> tuple[int, str]:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exit_info:
        main(list(arguments))
    said = capsys.readouterr().err
    assert "Traceback" not in said
    assert isinstance(exit_info.value.code, int)
    return exit_info.value.code, said
