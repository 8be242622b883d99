"""Every tunable choice of the aligner in one frozen, JSON-serialisable value (a params file).

A params file names its aligner and carries that aligner's settings in a section of the same
name, beside the settings every aligner shares:

    {"aligner": "turns",
     "turns": {"match_offset": 0.2, "baseline_quantile": null, "unaligned_gain": 8.0, ...},
     "scoring": {...}, "vectors": {...}, "abstention": {"min_words": 0, "min_support": null}}

A section left out takes its defaults. Another aligner's section, or a setting no section
has, is an error that lists what is valid. A single setting is named by its section and its
name, `turns.unaligned_gain`, in tuning grids and in `with_changes`.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, get_args

from workers.align.baselines.diagonal import DiagonalSettings
from workers.align.confidence import Abstention
from workers.align.paths.dp import DpSettings
from workers.align.paths.gapped_dp import GapSettings
from workers.align.paths.turn_dp import TurnSettings
from workers.align.scoring.similarity import ScoringParams
from workers.align.scoring.vectors import TrainingSettings
from workers.align.setting_fields import (
    SettingInfo,
    SettingsError,
    build,
    closest,
    describe,
    in_words,
)
from workers.align.talks.hmm import HmmSettings

Aligner = Literal["turns", "gapped", "dp", "diagonal", "hmm"]
PathSettings = TurnSettings | GapSettings | DpSettings | DiagonalSettings | HmmSettings

ALIGNERS: dict[str, type] = {
    "turns": TurnSettings,
    "gapped": GapSettings,
    "dp": DpSettings,
    "diagonal": DiagonalSettings,
    "hmm": HmmSettings,
}
"""Each aligner's own settings, in the order users are offered them (the shipped one first)."""
assert list(ALIGNERS) == list(get_args(Aligner))

SHARED: dict[str, type] = {
    "scoring": ScoringParams,
    "vectors": TrainingSettings,
    "abstention": Abstention,
}
"""Settings every aligner reads (scoring and vectors only when it computes similarities)."""

_ALIGNER_OF = {kind: name for name, kind in ALIGNERS.items()}


@dataclass(frozen=True)
class AlignmentParams:
    """One aligner's path settings (`path`, whose type says which aligner) and the shared
    scoring, word-vector and abstention settings."""

    path: PathSettings = field(default_factory=DpSettings)
    scoring: ScoringParams = field(default_factory=ScoringParams)
    vectors: TrainingSettings = field(default_factory=TrainingSettings)
    abstention: Abstention = field(default_factory=Abstention)

    @classmethod
    def of(cls, aligner: str, **shared: Any) -> AlignmentParams:
        """The aligner with its default settings."""
        return cls(path=ALIGNERS[_checked_aligner(aligner)](), **shared)

    @property
    def aligner(self) -> Aligner:
        return _ALIGNER_OF[type(self.path)]  # type: ignore[return-value]

    @property
    def evidence_level(self) -> float | None:
        """The similarity a turn's support is judged against for confidence: the abstention
        threshold, or for the gapped and turn paths the offset a matched sentence has to
        clear."""
        if self.abstention.min_support is not None:
            return self.abstention.min_support
        if isinstance(self.path, TurnSettings | GapSettings):
            return self.path.match_offset
        return None

    def sections(self) -> dict[str, Any]:
        return {
            self.aligner: self.path,
            "scoring": self.scoring,
            "vectors": self.vectors,
            "abstention": self.abstention,
        }

    def to_dict(self) -> dict[str, Any]:
        """Every section with settings (the diagonal's own has none)."""
        return {
            "aligner": self.aligner,
            **{name: asdict(values) for name, values in self.sections().items() if asdict(values)},
        }

    @classmethod
    def from_dict(cls, data: Any) -> AlignmentParams:
        """Checked against the aligner it names ("dp" when it names none)."""
        if not isinstance(data, Mapping):
            raise SettingsError(f"Alignment parameters must be an object, got {data!r}.")
        aligner = _checked_aligner(data.get("aligner", "dp"))
        _check_sections(aligner, [name for name in data if name != "aligner"])
        return cls(
            path=build(ALIGNERS[aligner], data.get(aligner, {}), aligner),
            **{name: build(kind, data.get(name, {}), name) for name, kind in SHARED.items()},
        )

    def with_changes(self, changes: Mapping[str, Any]) -> AlignmentParams:
        """A copy with `aligner` and `section.name` settings changed; a new aligner starts
        from its defaults, so its settings are changed after it."""
        aligner = _checked_aligner(changes.get("aligner", self.aligner))
        by_section: dict[str, dict[str, Any]] = {}
        for key, value in changes.items():
            if key != "aligner":
                section, name = split_key(key)
                by_section.setdefault(section, {})[name] = value
        _check_sections(aligner, list(by_section))
        params = self if aligner == self.aligner else replace(self, path=ALIGNERS[aligner]())
        current = params.sections()
        updated = {
            section: build(type(current[section]), {**asdict(current[section]), **values}, section)
            for section, values in by_section.items()
        }
        path = updated.pop(aligner, params.path)
        return replace(params, path=path, **updated)


def split_key(key: str) -> tuple[str, str]:
    """`turns.unaligned_gain` -> ("turns", "unaligned_gain"), with the valid keys when the
    name has no section."""
    section, dot, name = key.partition(".")
    if not dot or not name:
        raise SettingsError(
            f"There is no setting {key!r}{_hint(key)}; a setting is named "
            f"section.name, as in turns.unaligned_gain or scoring.window_size."
        )
    return section, name


def aligner_settings(aligner: str) -> list[tuple[str, SettingInfo]]:
    """(section, setting) for every setting an aligner takes, its own first."""
    return [
        (section, info)
        for section, kind in {aligner: ALIGNERS[aligner], **SHARED}.items()
        for info in describe(kind)
    ]


def aligner_description(aligner: str) -> str:
    """The first paragraph of the aligner's settings docstring, on one line."""
    return " ".join((inspect.getdoc(ALIGNERS[aligner]) or "").split("\n\n")[0].split())


def setting_keys(aligner: str) -> list[str]:
    """Every `section.name` an aligner takes, its own settings first."""
    return [f"{section}.{info.name}" for section, info in aligner_settings(aligner)]


def _checked_aligner(aligner: Any) -> str:
    if aligner not in ALIGNERS:
        raise SettingsError(f"There is no aligner {aligner!r}; choose {in_words(ALIGNERS, 'or')}.")
    return aligner


def _check_sections(aligner: str, sections: list[str]) -> None:
    valid = [aligner, *SHARED]
    for section in sections:
        if section in valid:
            continue
        if section in ALIGNERS:
            problem = f"has no {section!r} settings: those are the {section} aligner's"
        else:
            problem = f"has no section {section!r}{_hint(section)}"
        raise SettingsError(
            f"A {aligner} parameter set {problem}; it takes aligner, {in_words(valid)}."
        )


def _hint(name: str) -> str:
    """Where a bare or misspelt name probably belongs, as `section.name`."""
    keys = {key for aligner in ALIGNERS for key in setting_keys(aligner)}
    owners = sorted(key for key in keys if key.endswith(f".{name}"))
    if owners:
        return f" (did you mean {in_words(owners, 'or')}?)"
    match = closest(name, keys | set(ALIGNERS) | set(SHARED))
    return f" (did you mean {match}?)" if match else ""


def save_params(params: AlignmentParams, path: str | Path, **metadata: Any) -> None:
    """Write a params file; `metadata` (how it was tuned, on what) is kept beside the values."""
    document = {"params": params.to_dict(), "metadata": metadata}
    Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def load_params(path: str | Path) -> AlignmentParams:
    """A params file as `save_params` writes it (or its bare `params` object); anything else,
    a gold file given by mistake among them, is a SettingsError that names the file and says
    what a params file is."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SettingsError(f"{path}: not a params file (not UTF-8 JSON: {error})") from error
    if not isinstance(document, dict):
        raise SettingsError(f"{path}: not a params file (a JSON object is expected)")
    if any(
        isinstance(value, dict) and ("final" in value or "initial" in value)
        for value in document.values()
    ):
        raise SettingsError(
            f'{path}: this is a gold file (documents with "initial"/"final" sides), not a '
            "params file; give it to --gold, and to --params a file written by tune --out"
        )
    try:
        return AlignmentParams.from_dict(document.get("params", document))
    except SettingsError as error:
        raise SettingsError(f"{path}: {error}") from error
