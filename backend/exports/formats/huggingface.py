"""A Hugging Face `datasets` folder: `train.jsonl`, `validation.jsonl`, `test.jsonl` (each
record also names its split) and a dataset card, `README.md`, whose YAML header tells
`datasets.load_dataset(<folder>)` the files, the splits and the features.

The card is written last, so it states the pair counts the files actually hold; a split
with no pair is left out of the card's configuration (its file stays, empty).
"""

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from backend.core.errors import Conflict
from backend.exports.formats.salience import salience_records
from backend.exports.formats.summaries import summary_records
from backend.exports.selectors import CorpusAgreement, corpus_agreement, export_records
from backend.projects.models import Project
from backend.ratings.selectors import latest_rated_study, study_estimate, study_results
from workers.align.pairs.options import ExportOptions
from workers.align.pairs.split import SPLITS, Split
from workers.align.pairs.writers import json_line
from workers.align.talks.importance import TALKSUMM_LENGTHS

FEATURES = (
    ("id", "string"),
    ("split", "string"),
    ("meeting", "string"),
    ("document_id", "int64"),
    ("document_name", "string"),
    ("iteration", "int64"),
    ("origin", "string"),
    ("gold_rule", "string"),
    ("confidence", "float64"),
    ("agreement", "float64"),
    ("segment_position", "int64"),
    ("segment_key", "string"),
    ("segment_speaker", "string"),
    ("turn_positions", ["int64"]),
    ("turn_keys", ["string"]),
    ("turn_speakers", ["string"]),
    ("turns_accepted_without_review", ["bool"]),
    ("start", "float64"),
    ("end", "float64"),
    ("source", "string"),
    ("target", "string"),
    ("source_words", "int64"),
    ("source_sentences", "int64"),
    ("target_words", "int64"),
    ("target_sentences", "int64"),
)

FIELD_MEANINGS = (
    ("id", "`<document id>-<segment position>`, unique in the export"),
    ("split", "`train`, `validation` or `test`; every pair of a meeting has the same"),
    ("meeting", "the meeting's stable key (the document's source, else `document-<id>`)"),
    ("document_id, document_name", "the Tandem document"),
    ("iteration", "number of the bootstrap iteration the document is in, or null"),
    ("origin", "`gold` (human-corrected) or `automatic` (the aligner's pre-alignment)"),
    (
        "gold_rule",
        "which rule made the gold: `single_annotator` (the only annotator's submission), "
        "`agreed` (identical submissions of every annotator) or `adjudicated`; null for automatic",
    ),
    ("confidence", "1.0 for gold; for automatic, the lowest confidence among its turns"),
    (
        "agreement",
        "percent of turns on which the gold's annotators agreed; null with one annotator",
    ),
    ("segment_position, segment_key, segment_speaker", "the report segment"),
    ("turn_positions, turn_keys, turn_speakers", "its transcript turns, in order"),
    (
        "turns_accepted_without_review",
        "per turn, true when its annotators accepted it unread in the editor's review mode",
    ),
    ("start, end", "seconds: first turn's start, last turn's end (null when unknown)"),
    ("source", "the turns' texts, cleaned, joined by a space: the summarizer's input"),
    ("target", "the report segment's text, cleaned: the summary"),
    ("source_words ... target_sentences", "the lengths the filters read"),
)
ANNOTATOR_LABELS_FEATURE = (
    "  - name: annotator_labels\n"
    "    list:\n"
    "    - name: annotator\n"
    "      dtype: string\n"
    "    - name: labels\n"
    "      sequence: int64"
)
ANNOTATOR_LABELS_MEANING = (
    "annotator_labels",
    "per annotator of the gold, their label of each of the pair's turns (segment position, "
    "-1 unaligned)",
)


def require_loadable(
    *,
    project_id: int,
    options: ExportOptions,
    summaries_of: Project | None = None,
    salience_of: Project | None = None,
) -> None:
    """Conflict (409) unless the dataset would hold a record in some configuration (pairs,
    summaries or salience units; reading up to the first one): `datasets` cannot load a
    dataset of no split, so such an export is refused before any byte is streamed."""
    if next(export_records(project_id=project_id, options=options), None) is not None:
        return
    salience = salience_records(project=salience_of, options=options) if salience_of else None
    if salience is not None and next(salience, None) is not None:
        return
    if summaries_of is not None:
        summaries = summary_records(project=summaries_of, lengths=TALKSUMM_LENGTHS, options=options)
        if next(summaries, None) is not None:
            return
    raise Conflict(
        "Nothing to export: no pair passes these options (the project has no gold document "
        "yet, or the filters leave none), and a dataset without a record cannot be loaded. "
        "Add gold, pass include_automatic=true for pre-aligned pairs, or loosen the filters."
    )


def huggingface_members(
    *,
    project_id: int,
    options: ExportOptions,
    title: str,
    language: str,
    license_id: str | None = None,
    summaries_of: Project | None = None,
    salience_of: Project | None = None,
) -> Iterator[tuple[str, Iterable[bytes]]]:
    """`license_id`: the project's license setting, for the card (`unknown` when None). The
    caller refuses an export with no record first (`require_loadable`).
    `summaries_of`, a talk project, adds the `summaries` configuration: summaries.jsonl's
    records under `summaries/`, each document in its pairs' split; `salience_of`, a podcast
    project, adds `salience`: salience.jsonl's unit records under `salience/`, likewise."""
    counts: dict[Split, int] = {}
    for split in SPLITS:
        yield f"{split}.jsonl", _records(project_id, options, split, counts)
    summary_counts: dict[Split, int] = {}
    if summaries_of is not None:
        for split in SPLITS:
            yield (
                f"summaries/{split}.jsonl",
                _summaries(summaries_of, options, split, summary_counts),
            )
    salience_counts: dict[Split, Counter[str]] = {}
    if salience_of is not None:
        for split in SPLITS:
            yield f"salience/{split}.jsonl", _salience(salience_of, options, split, salience_counts)
    yield (
        "README.md",
        _card(
            project_id,
            _Card(title, language, license_id),
            options,
            counts,
            summary_counts,
            salience_counts,
        ),
    )


def _salience(
    project: Project, options: ExportOptions, split: Split, counts: dict
) -> Iterator[bytes]:
    counts[split] = Counter()
    for record in salience_records(project=project, options=options, split=split):
        counts[split]["units"] += 1
        counts[split]["positive"] += record["automatic_label"]
        yield json_line(record)


def _summaries(
    project: Project, options: ExportOptions, split: Split, counts: dict
) -> Iterator[bytes]:
    counts[split] = 0
    records = summary_records(
        project=project, lengths=TALKSUMM_LENGTHS, options=options, split=split
    )
    for record in records:
        counts[split] += 1
        yield json_line(record)


def _records(
    project_id: int, options: ExportOptions, split: Split, counts: dict
) -> Iterator[bytes]:
    counts[split] = 0
    for record in export_records(project_id=project_id, options=options, splits=[split]):
        counts[split] += 1
        yield json_line(record)


@dataclass(frozen=True)
class _Card:
    title: str
    language: str
    license_id: str | None


def _card(
    project_id: int,
    card: _Card,
    options: ExportOptions,
    counts: dict,
    summary_counts: dict,
    salience_counts: dict,
) -> Iterator[bytes]:
    filled = [split for split in SPLITS if counts.get(split)]
    summarised = [split for split in SPLITS if summary_counts.get(split)]
    labelled = [split for split in SPLITS if salience_counts.get(split)]
    # Without pairs the first configuration that has records is the default one, so that
    # `datasets.load_dataset(<folder>)` loads it; an empty default would not load.
    default_config = "" if filled else ("summaries" if summarised else "salience")
    salience_config = [
        "- config_name: salience",
        *(["  default: true"] if default_config == "salience" else []),
        "  data_files:",
        *(f"  - split: {split}\n    path: salience/{split}.jsonl" for split in labelled),
    ]
    summaries_config = [
        "- config_name: summaries",
        *(["  default: true"] if default_config == "summaries" else []),
        "  data_files:",
        *(f"  - split: {split}\n    path: summaries/{split}.jsonl" for split in summarised),
    ]
    title = card.title
    header = [
        "---",
        f"pretty_name: {json.dumps(title, ensure_ascii=False)}",
        f"license: {card.license_id or 'unknown'}",
        "language:",
        f"- {json.dumps(card.language)}",
        "task_categories:",
        "- summarization",
        "configs:",
        *(["- config_name: default", "  data_files:"] if filled else []),
        *(f"  - split: {split}\n    path: {split}.jsonl" for split in filled),
        *(summaries_config if summarised else []),
        *(salience_config if labelled else []),
        "dataset_info:",
        "  features:",
        *(_feature(name, dtype) for name, dtype in FEATURES),
        *([ANNOTATOR_LABELS_FEATURE] if options.annotator_labels else []),
        "---",
    ]
    body = [
        f"# {title}",
        "",
        "Pairs of a meeting's automatic transcript (source) and the part of its written report",
        "that covers the same speaker intervention (target), aligned with Tandem.",
        "",
        "| split | pairs |",
        "|---|---|",
        *(f"| {split} | {counts.get(split, 0)} |" for split in SPLITS),
        "",
        "## License",
        "",
        f"`{card.license_id}`, as the project's lead set it."
        if card.license_id
        else "Not stated (`unknown`): the project's lead sets it in the project's settings "
        "(`license`).",
        "",
        "## Fields",
        "",
        *(f"- `{name}`: {meaning}" for name, meaning in _meanings(options)),
        "",
        *(_summaries_prose(summary_counts) if summarised else []),
        *(_salience_prose(salience_counts) if labelled else []),
        "## Agreement",
        "",
        *_agreement_prose(corpus_agreement(project_id=project_id, options=options)),
        "",
        "## Rating study",
        "",
        *_rating_prose(project_id, options),
        "",
        "## Filters",
        "",
        _filters_prose(options),
        "",
        "The export's options, to request the same bytes again:",
        "",
        "```json",
        json.dumps(options.as_dict(), indent=2, sort_keys=True),
        "```",
        "",
        'Load it with `datasets.load_dataset("<this folder>")`.',
        "",
    ]
    yield "\n".join(header + body).encode()


def _salience_prose(counts: dict) -> list[str]:
    units = sum(count["units"] for count in counts.values())
    positive = sum(count["positive"] for count in counts.values())
    return [
        "## Salience labels",
        "",
        'The `salience` configuration (`datasets.load_dataset(<folder>, "salience")`) has one',
        "record per transcript unit (a time window): its ROUGE-2 recall against the best",
        "sentence of the description (`score`), the automatic label (`automatic_label`, the",
        "score above the project's threshold), whether it is among the first 33 and last 7",
        "units (`candidate`), and the gold label (`gold_label`: the gold aligns the unit to",
        "some report segment; null without gold); each document in its pairs' split.",
        "",
        "| split | units | automatic positives | positive ratio |",
        "|---|---|---|---|",
        *(
            f"| {split} | {counts[split]['units']} | {counts[split]['positive']} | "
            f"{_ratio(counts[split]['positive'], counts[split]['units'])} |"
            for split in SPLITS
            if split in counts
        ),
        f"| all | {units} | {positive} | {_ratio(positive, units)} |",
        "",
    ]


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "n/a"


def _summaries_prose(counts: dict) -> list[str]:
    return [
        "## Summaries",
        "",
        'The `summaries` configuration (`datasets.load_dataset(<folder>, "summaries")`) has',
        "one record per document: its paper's sentences with their importance (spoken words",
        "aligned to each, from gold else the pre-alignment), their ranking, and TalkSumm's",
        "extractive summaries at 150 and 250 words and 0.3 and 0.4 of the paper; each document",
        "is in the split of its pairs. Fields: docs/talk-projects.md in Tandem.",
        "",
        "| split | documents |",
        "|---|---|",
        *(f"| {split} | {counts.get(split, 0)} |" for split in SPLITS),
        "",
    ]


def _meanings(options: ExportOptions) -> tuple[tuple[str, str], ...]:
    return (
        (*FIELD_MEANINGS, ANNOTATOR_LABELS_MEANING) if options.annotator_labels else FIELD_MEANINGS
    )


def _agreement_prose(figures: CorpusAgreement) -> list[str]:
    """The corpus's inter-annotator agreement (docs/agreement.md), pooled over the exported
    gold documents that two or more annotators corrected."""
    overall = figures["overall"]
    if not overall["units"]:
        return ["No exported gold document was corrected by two annotators or more."]

    def show(value: float | None, coefficient: bool = False) -> str:
        if value is None:
            return "undefined"
        return f"{value:.3f}" if coefficient else f"{value:.2f} %"

    return [
        f"Pooled over {overall['documents']} gold documents corrected by two annotators or more "
        f"({overall['units']} turns), on each turn's label (its report segment, or unaligned):",
        "",
        "| measure | value |",
        "|---|---|",
        f"| observed agreement, turns | {show(overall['turn_agreement'])} |",
        f"| observed agreement, words | {show(overall['word_agreement'])} |",
        f"| Cohen's kappa (mean over pairs) | {show(overall['kappa'], True)} |",
        f"| Krippendorff's alpha (nominal) | {show(overall['alpha'], True)} |",
        f"| agreement on unaligned turns | {show(overall['unaligned_agreement'])} |",
        f"| WindowDiff between annotators | {show(overall['windowdiff'])} |",
        f"| Pk between annotators | {show(overall['pk'])} |",
    ]


def _rating_prose(project_id: int, options: ExportOptions) -> list[str]:
    """The latest rating study (docs/ratings.md), as DiscoFuse publishes its raters' figures:
    what was sampled, who rated, how far they agreed, and the share of good pairs per bin."""
    study = latest_rated_study(project_id=project_id)
    if study is None:
        return ["No rating study has judged this project's automatic pairs."]
    results = study_results(study=study)
    estimate = study_estimate(study=study, min_confidence=options.min_confidence)
    share = estimate["estimated_yes_share"]
    alpha = results["alpha"]
    lines = [
        f"Study {study.name!r} (seed {study.seed}): {study.sample_size} automatic pairs drawn "
        f"in {len(results['bins'])} equal-count confidence bins, with {study.controls} gold "
        f"pairs mixed in as controls; {study.raters_per_pair} raters per pair, "
        f"{results['ratings']} ratings. Raters saw neither confidence nor origin and answered "
        '"Is the report segment written from exactly these turns?" yes, partly or no.',
        f"Krippendorff's alpha (ordinal): {'undefined' if alpha is None else f'{alpha:.3f}'}.",
        "",
        "| confidence | pairs in corpus | ratings | yes | 95 % interval | partly | no |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in results["bins"]:
        interval = row["yes"]["interval"]
        bounds = "-" if interval is None else f"{_percent(interval[0])} to {_percent(interval[1])}"
        lines.append(
            f"| {row['low']:.3f} to {row['high']:.3f} | {row['population']} | {row['ratings']} "
            f"| {_percent(row['yes']['share'])} "
            f"| {bounds} "
            f"| {_percent(row['partly']['share'])} | {_percent(row['no']['share'])} |"
        )
    if options.include_automatic:
        lines += [
            "",
            f"Estimated share of yes among this export's automatic pairs (confidence at least "
            f"{options.min_confidence}): {_percent(share)}.",
        ]
    return lines


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f} %"


def _feature(name: str, dtype: str | list[str]) -> str:
    if isinstance(dtype, list):
        return f"  - name: {name}\n    sequence: {dtype[0]}"
    return f"  - name: {name}\n    dtype: {dtype}"


def _filters_prose(options: ExportOptions) -> str:
    pairs = (
        f"gold pairs and automatic pairs whose confidence is at least {options.min_confidence}"
        if options.include_automatic
        else "gold pairs only"
    )
    removed = [
        what
        for what, on in (
            ("markup tags", options.remove_tags),
            ("speaker names", options.remove_speaker_names),
            ("headings", options.remove_headings),
            ("`<unk>`", options.remove_unk),
        )
        if on
    ]
    if options.min_agreement:
        pairs += (
            f" (gold only when its annotators agreed on at least {options.min_agreement} % "
            "of turns, or had one annotator)"
        )
    return (
        f"Kept: {pairs}, with {options.min_words} <= words <= {options.max_words} and "
        f"{options.min_sentences} <= sentences <= {options.max_sentences} on both sides. "
        f"Removed from the texts: {', '.join(removed) or 'nothing'}. Splits by meeting with "
        f"seed {options.split_seed!r}: validation {options.valid_ratio}, test "
        f"{options.test_ratio}, train the rest."
    )
