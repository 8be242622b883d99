"""Stored alignment parameters move from the flat layout (15 top-level settings, most of them
ignored by any one aligner) to sections: the aligner's own settings under its name, and the
shared `scoring`, `vectors` and `abstention`. Tuning grids name settings `section.name`.

The conversion is written out here rather than imported from the engine, so that it keeps
meaning the layout of this moment. Settings of another aligner than the one a parameter set
names were ignored and are dropped; going back restores a flat set the old engine reads the
same (the dropped settings take their old defaults, which nothing read either).
"""

from django.db import migrations

ALIGNERS = ("turns", "gapped", "dp", "diagonal")
SECTIONS = {"aligner", "scoring", "vectors", "abstention", *ALIGNERS}
ABSTENTION = ("min_words", "min_support")
OWN_SETTINGS = {
    "dp": {
        "power": "power",
        "transcript_decay": "transcript_decay",
        "report_decay": "report_decay",
        "path_weight": "path_weight",
    },
    "gapped": {"match_offset": "match_offset", "skip_gain": "skip_gain", "gap_open": "gap_open"},
    "turns": {
        "match_offset": "match_offset",
        "baseline_quantile": "baseline_quantile",
        "unaligned_gain": "unaligned_gain",
        "turn_gap_open": "gap_open",
    },
    "diagonal": {},
}
"""Flat name -> name in the aligner's section; `scoring.normalisation` moves to `dp`."""
FLAT_NAMES = {flat for own in OWN_SETTINGS.values() for flat in own} | set(ABSTENTION)


def is_flat(params) -> bool:
    if not isinstance(params, dict):
        return False
    scoring = params.get("scoring")
    return (
        bool(set(params) & FLAT_NAMES)
        or (isinstance(scoring, dict) and "normalisation" in scoring)
        or not set(params) <= SECTIONS
    )


def nested_params(flat):
    """A flat parameter dict in sections; a nested one, or anything else, is left as is.
    Names neither layout knows (typos) stay at the top level, where validation reports them."""
    if not is_flat(flat):
        return flat
    aligner = flat.get("aligner", "dp")
    own_names = OWN_SETTINGS.get(aligner, {})
    nested = {key: value for key, value in flat.items() if key not in FLAT_NAMES}
    if isinstance(nested.get("scoring"), dict):
        scoring = dict(nested["scoring"])
        normalisation = scoring.pop("normalisation", None)
        nested["scoring"] = scoring
        if aligner == "dp" and normalisation is not None:
            nested.setdefault("dp", {})["normalisation"] = normalisation
    own = {new: flat[old] for old, new in own_names.items() if old in flat}
    if own:
        nested[aligner] = {**nested.get(aligner, {}), **own}
    abstention = {name: flat[name] for name in ABSTENTION if name in flat}
    if abstention:
        nested["abstention"] = abstention
    return nested


def flat_params(nested):
    """The inverse of `nested_params` (up to the settings it dropped)."""
    if not isinstance(nested, dict) or is_flat(nested):
        return nested
    aligner = nested.get("aligner", "dp")
    flat = {
        key: value for key, value in nested.items() if key not in ALIGNERS and key != "abstention"
    }
    own = dict(nested.get(aligner, {}))
    normalisation = own.pop("normalisation", None) if aligner == "dp" else None
    if normalisation is not None:
        flat["scoring"] = {**flat.get("scoring", {}), "normalisation": normalisation}
    renamed = {new: old for old, new in OWN_SETTINGS.get(aligner, {}).items()}
    flat.update({renamed.get(name, name): value for name, value in own.items()})
    flat.update(nested.get("abstention", {}))
    return flat


def nested_key(flat_key: str, aligners) -> list[str]:
    """A flat grid name as the `section.name` keys of the aligners the grid tries."""
    if flat_key == "aligner":
        return [flat_key]
    if flat_key in ABSTENTION:
        return [f"abstention.{flat_key}"]
    if flat_key == "scoring__normalisation":
        return ["dp.normalisation"] if "dp" in aligners else []
    section, separator, name = flat_key.partition("__")
    if separator:
        return [f"{section}.{name}"]
    return [
        f"{aligner}.{OWN_SETTINGS[aligner][flat_key]}"
        for aligner in ALIGNERS
        if aligner in aligners and flat_key in OWN_SETTINGS[aligner]
    ]


def flat_key(key: str) -> str:
    section, _, name = key.partition(".")
    if section == "abstention":
        return name
    if key == "dp.normalisation":
        return "scoring__normalisation"
    if section in ALIGNERS:
        return {new: old for old, new in OWN_SETTINGS[section].items()}.get(name, name)
    return f"{section}__{name}" if name else key


def nested_grid(grid, base_aligner: str):
    """A flat grid's names as `section.name` keys. A setting that several of the grid's
    aligners share (the old `match_offset`) becomes one key per aligner with the same values,
    which expands to the same settings; a setting none of them reads is dropped."""
    if not isinstance(grid, dict) or all("." in key or key == "aligner" for key in grid):
        return grid
    aligners = set(grid.get("aligner", [base_aligner]))
    nested = {}
    for name, values in grid.items():
        parts = name.split(",")
        keys = [
            (position, key)
            for position, part in enumerate(parts)
            for key in nested_key(part, aligners)
        ]
        if not keys:
            continue
        if len(parts) == 1 and len(keys) == 1:
            nested[keys[0][1]] = values
            continue
        nested[",".join(key for _, key in keys)] = [
            [value[position] if len(parts) > 1 else value for position, _ in keys]
            for value in values
        ]
    return nested


def flat_grid(grid):
    if not isinstance(grid, dict) or not any("." in key for key in grid):
        return grid
    flat = {}
    for name, values in grid.items():
        keys = [flat_key(part) for part in name.split(",")]
        unique = list(dict.fromkeys(keys))
        if len(unique) == 1 and len(keys) == 1:
            flat[unique[0]] = values
            continue
        positions = [keys.index(key) for key in unique]
        rows = [[value[position] for position in positions] for value in values]
        flat[",".join(unique)] = rows if len(unique) > 1 else [row[0] for row in rows]
    return flat


def convert(apps, params, grid):
    """Rewrite every stored parameter set, pre-alignment copy, iteration snapshot, tuning
    run, candidate and tuning job result with `params`, and tuning grids with `grid`."""
    for model, field in (("alignments", "ParameterSet"), ("alignments", "PreAlignment")):
        Model = apps.get_model(model, field)
        changed = []
        for row in Model.objects.only("pk", "params").iterator(chunk_size=500):
            converted = params(row.params)
            if converted != row.params:
                row.params = converted
                changed.append(row)
        Model.objects.bulk_update(changed, ["params"], batch_size=500)
    Iteration = apps.get_model("iterations", "Iteration")
    for iteration in Iteration.objects.only("pk", "parameters").iterator(chunk_size=500):
        if isinstance(iteration.parameters, dict) and "params" in iteration.parameters:
            iteration.parameters = {
                **iteration.parameters,
                "params": params(iteration.parameters["params"]),
            }
            iteration.save(update_fields=["parameters"])
    TuningRun = apps.get_model("tuning", "TuningRun")
    for run in TuningRun.objects.only("pk", "base_params", "grid").iterator(chunk_size=100):
        aligner = (
            run.base_params.get("aligner", "dp") if isinstance(run.base_params, dict) else "dp"
        )
        run.grid = grid(run.grid, aligner)
        run.base_params = params(run.base_params)
        run.save(update_fields=["base_params", "grid"])
    TuningCandidate = apps.get_model("tuning", "TuningCandidate")
    changed = []
    for candidate in TuningCandidate.objects.only("pk", "params").iterator(chunk_size=2000):
        candidate.params = params(candidate.params)
        changed.append(candidate)
        if len(changed) >= 2000:
            TuningCandidate.objects.bulk_update(changed, ["params"])
            changed = []
    TuningCandidate.objects.bulk_update(changed, ["params"])
    Job = apps.get_model("jobs", "Job")
    for job in Job.objects.filter(kind="tune").only("pk", "result").iterator(chunk_size=500):
        if isinstance(job.result, dict) and "params" in job.result:
            job.result = {**job.result, "params": params(job.result["params"])}
            job.save(update_fields=["result"])


def forward(apps, schema_editor):
    convert(apps, nested_params, nested_grid)


def backward(apps, schema_editor):
    convert(apps, flat_params, lambda grid, _aligner: flat_grid(grid))


class Migration(migrations.Migration):
    dependencies = [
        ("alignments", "0002_initial"),
        ("iterations", "0003_tuning_run"),
        ("jobs", "0002_job_arguments_retries_and_worker_kinds"),
        ("tuning", "0002_tuning_run_ranked_by"),
    ]

    operations = [migrations.RunPython(forward, backward)]
