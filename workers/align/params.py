"""Every tunable choice of the aligner in one frozen, JSON-serialisable value (a params file)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal

from workers.align.assign import PathWeight
from workers.align.gapped_dp import GapSettings
from workers.align.scoring.similarity import ScoringParams
from workers.align.scoring.vectors import TrainingSettings
from workers.align.turn_dp import TurnSettings

Aligner = Literal["turns", "gapped", "dp", "diagonal"]


@dataclass(frozen=True)
class AlignmentParams:
    """Scoring, path search and abstention settings.

    `aligner` "turns" aligns whole turns to whole segments (turn_dp.py): a sentence earns
    its best similarity within a segment less `match_offset` (and less its
    `baseline_quantile` of similarities to the whole report, if set), weighted by its words;
    a turn left unaligned earns `unaligned_gain`, and opening a run of unaligned turns costs
    `turn_gap_open`. "dp" is the paper's path (dp.py): `transcript_decay` is its hd (moves to the
    next transcript sentence), `report_decay` its vd (moves to the next report sentence),
    `power` is p and `path_weight` the weight of equation 6. "gapped" is the path with gaps
    (gapped_dp.py), driven by `match_offset`, `skip_gain` and `gap_open` on the raw
    (preferably centred) similarity. "diagonal" is the paper's first-iteration baseline. After
    the path, a turn is left unaligned when it has fewer than `min_words` words or its support
    is below `min_support`.
    """

    scoring: ScoringParams = field(default_factory=ScoringParams)
    vectors: TrainingSettings = field(default_factory=TrainingSettings)
    aligner: Aligner = "dp"
    power: float = 1.0
    transcript_decay: float = 0.0
    report_decay: float = 0.0
    path_weight: PathWeight = "gain"
    min_support: float | None = None
    min_words: int = 0
    match_offset: float = 0.35
    skip_gain: float = 0.0
    gap_open: float = 3.0
    baseline_quantile: float | None = None
    unaligned_gain: float = 4.0
    turn_gap_open: float = 40.0

    @property
    def gaps(self) -> GapSettings:
        return GapSettings(self.match_offset, self.skip_gain, self.gap_open)

    @property
    def turn_costs(self) -> TurnSettings:
        return TurnSettings(self.unaligned_gain, self.turn_gap_open)

    @property
    def evidence_level(self) -> float | None:
        """The similarity a turn's support is judged against for confidence: the abstention
        threshold, or for the gapped and turn paths the offset a matched sentence has to
        clear."""
        if self.min_support is not None or self.aligner not in ("gapped", "turns"):
            return self.min_support
        return self.match_offset

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AlignmentParams:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown alignment parameters: {sorted(unknown)}")
        values = dict(data)
        if "scoring" in values:
            values["scoring"] = _build(ScoringParams, values["scoring"])
        if "vectors" in values:
            values["vectors"] = _build(TrainingSettings, values["vectors"])
        return cls(**values)

    def with_changes(self, **changes: Any) -> AlignmentParams:
        """Copy with top-level fields and `scoring__<name>` / `vectors__<name>` fields changed."""
        scoring = {k.split("__", 1)[1]: v for k, v in changes.items() if k.startswith("scoring__")}
        vectors = {k.split("__", 1)[1]: v for k, v in changes.items() if k.startswith("vectors__")}
        top = {k: v for k, v in changes.items() if "__" not in k}
        return replace(
            self,
            scoring=replace(self.scoring, **scoring),
            vectors=replace(self.vectors, **vectors),
            **top,
        )


def _build(kind: type, data: dict[str, Any]) -> Any:
    known = {f.name for f in fields(kind)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown {kind.__name__} fields: {sorted(unknown)}")
    return kind(**data)


def save_params(params: AlignmentParams, path: str | Path, **metadata: Any) -> None:
    """Write a params file; `metadata` (how it was tuned, on what) is kept beside the values."""
    document = {"params": params.to_dict(), "metadata": metadata}
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def load_params(path: str | Path) -> AlignmentParams:
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    return AlignmentParams.from_dict(document.get("params", document))
