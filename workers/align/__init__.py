"""Alignment of meeting transcripts with their written reports, free of any web framework.

`from workers.align import align_texts` is the one-call entry point (see `api.py`); it is
imported on first use so that importing the package's light modules stays light.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "align_texts":
        from workers.align.api import align_texts

        return align_texts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
