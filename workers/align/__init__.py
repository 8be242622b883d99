"""Alignment of meeting transcripts with their written reports, free of any web framework.

`from workers.align import align_texts` is the one-call entry point (see `api.py`); it is
imported on first use so that importing the package's light modules stays light.

A walk through the package, from input to output (docs/align-engine.md says more):

- `readers/` turn report and transcript files into the data model of `document_model.py`;
  `text.py` and `tokenizers.py` put text in the corpus form; `file_pairing.py` pairs files by
  name as the web upload does.
- `scoring/` scores sentence pairs (tf-idf + LSA, ROUGE, word vectors over sliding windows);
  `layout.py` is the sentence grid they work on.
- `paths/` finds the path through the scores (the paper's dynamic programme, its gapped and
  turn-level variants) and gives each turn a segment; `baselines/` holds what it is measured
  against; `talks/` TalkSumm's HMM (also a meetings aligner), its importance and summaries.
- `pipeline.py` aligns one meeting with the parameters of `params.py` (every field described
  by `setting_fields.py`); `confidence.py`, `diagnosis.py` and `report_order.py` judge the
  result; `metrics.py` scores it against gold.
- `tuning/` chooses parameters from gold, `learning/` fits the per-turn decision and holds the
  generic statistics, `folds.py` the shipped, cross-fitted defaults in `defaults/`.
- `annotation/` serves the people who make the gold; `podcasts/` builds the podcast paper's
  corpora; `pairs/` writes aligned pairs as the exports do.
- `corpus.py`, `public_meetings_layout.py`, `gold_files.py`, `own_files.py` and `excerpts.py`
  read the benchmark and a researcher's own files; `cli/` is the command line on all of it
  (nothing else in the engine imports it) and `performance.py` the `bench` command's figures.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "align_texts":
        from workers.align.api import align_texts

        return align_texts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
