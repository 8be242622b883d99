"""Imports run one way: interfaces → services and selectors → models → the engine.

Read from the source with `ast` (no module is imported), so a lazy import inside a function
counts as much as one at the top. Each module gets a layer from its place and name:

- engine: everything under `workers/` (what the Celery workers compute; no Django, no Celery,
  and nothing from `tests/` or `bench/`, which are not there wherever the engine is installed).
  Inside it the command line (`workers/align/cli/`) is the top: only it and `__main__` import
  it, and `workers/align/learning/statistics.py` is generic statistics that imports nothing of
  the engine;
- interface: `apis`, `serializers`, `urls`, `admin`, `tasks`, permissions, pagination, request
  parsers, the
  management commands and the other modules that speak HTTP or Celery;
- domain: `services`, `selectors` and the helpers they share (any other module in an app);
- model: `models.py`;
- infrastructure: settings, the Celery app, the broker transport, the local worker starter.

A module may import a layer only if the rules below allow it; a violation is reported as
`file:line: what imports what`.

Across the backend's apps, `APP_ORDER` is the order they import in (drawn in
docs/architecture.md): an app importing one above it fails with the file and line of the
import, and the graph of the apps' imports, printed, has no cycle. A lower app that must let a
higher one react to its changes publishes a domain event (backend/core/events.py) instead.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("backend", "workers")

INTERFACE_NAMES = {
    "apis",
    "auth_apis",
    "views",
    "urls",
    "admin",
    "serializers",
    "tasks",
    "permissions",
    "pagination",
    "exception_handler",
    "schema",
    "authentication",
    "wsgi",
    "parsers",
}
INFRASTRUCTURE_MODULES = {
    "backend",
    "backend.settings",
    "backend.env",
    "backend.version",
    "backend.celery",
    "backend.core.broker_transport",
    "backend.core.local_worker",
    "backend.core.lookups",
}
HTTP_LIBRARIES = ("rest_framework", "drf_spectacular")
QUEUE_LIBRARIES = ("celery", "kombu")
WEB_AND_QUEUE_LIBRARIES = ("django", *HTTP_LIBRARIES, *QUEUE_LIBRARIES)
# Folders of this repository that sit beside the engine, not inside it: the tests and the
# benches import the engine, never the other way round.
REPOSITORY_FOLDERS_ABOVE_THE_ENGINE = ("tests", "bench")
# Services raise errors that carry their HTTP status: the status constants are plain numbers.
HTTP_CONSTANTS = ("rest_framework.status",)

# The engine's command line: the engine's other modules never import it, so that the web
# application and a notebook get the engine without its terminal concerns.
ENGINE_COMMAND_LINE = "workers.align.cli"
ENGINE_COMMAND_LINE_ENTRY = "workers.align.__main__"
# Engine modules that know nothing of alignment, so import nothing of the engine.
ENGINE_MODULES_WITHOUT_ENGINE_IMPORTS = ("workers.align.learning.statistics",)

# Engine modules the backend reaches through one module only, so that what it knows of them
# lives in one place: the public_meetings corpus's names and files.
SOLE_BACKEND_IMPORTER = {"workers.align.corpus": "backend.curation.public_meetings"}

# For each layer, the layers of our own code it must not import.
FORBIDDEN_LAYERS = {
    "engine": {"interface", "domain", "model", "infrastructure", "app"},
    "model": {"interface", "domain", "infrastructure"},
    "domain": {"interface"},
    "infrastructure": {"interface", "domain", "model"},
    "app": {"interface", "domain", "model"},
    "interface": set(),
}


# The backend's apps from the bottom up: each imports only apps before it (docs/architecture.md
# draws the order).
APP_ORDER = (
    "core",
    "audit",
    "projects",
    "accounts",
    "jobs",
    "documents",
    "vectors",
    "alignments",
    "curation",
    "tuning",
    "iterations",
    "agreement",
    "ratings",
    "salience",
    "exports",
    "dashboards",
    "simulation",
)


@dataclass(frozen=True)
class Violation:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "workers":
        return "engine"
    if module in INFRASTRUCTURE_MODULES:
        return "infrastructure"
    if "commands" in parts or parts[-1] in INTERFACE_NAMES:
        return "interface"
    if len(parts) == 2 or parts[-1] == "apps":
        return "app"  # an app's package or its AppConfig
    if parts[-1] == "models":
        return "model"
    return "domain"


def registers_its_hooks(module: str, target: str) -> bool:
    """An AppConfig's `ready()` subscribes its own app's receivers to the events of the apps
    below (backend/core/events.py) and registers its schema extensions with drf-spectacular."""
    app = module.rpartition(".")[0]
    return module.endswith(".apps") and target in (f"{app}.receivers", f"{app}.schema")


def imported_modules(tree: ast.Module, module: str, is_package: bool, known: set[str]):
    """Yield (line, module) for every import, resolving `from package import submodule`."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                ours = base.split(".")[0] in PACKAGES
                yield node.lineno, base if ours and candidate not in known else candidate


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def engine_rule(module: str, target: str) -> str | None:
    """What is wrong with an engine module importing another, by the engine's own layout."""
    if module in ENGINE_MODULES_WITHOUT_ENGINE_IMPORTS and target.startswith("workers."):
        return f"{module} is generic statistics and imports nothing of the engine, not {target}"
    if (
        _inside(target, ENGINE_COMMAND_LINE)
        and not _inside(module, ENGINE_COMMAND_LINE)
        and module != ENGINE_COMMAND_LINE_ENTRY
    ):
        return f"engine module {module} imports the command line's {target}"
    return None


def violations(root: Path) -> list[Violation]:
    paths = [
        path
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]
    known = {module_name(root, path) for path in paths}
    found = []
    for path in paths:
        module = module_name(root, path)
        layer = layer_of(module)
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, target in imported_modules(tree, module, path.name == "__init__.py", known):
            top = target.split(".")[0]
            message = None
            sole = SOLE_BACKEND_IMPORTER.get(target)
            if top in PACKAGES:
                target_layer = layer_of(target)
                if registers_its_hooks(module, target):
                    pass
                elif layer == "engine" and (engine_message := engine_rule(module, target)):
                    message = engine_message
                elif target_layer in FORBIDDEN_LAYERS[layer]:
                    message = f"{layer} module {module} imports {target_layer} module {target}"
                elif sole and module.startswith("backend") and module != sole:
                    message = f"{module} imports {target}, which the backend reaches via {sole}"
            elif layer == "engine" and top in WEB_AND_QUEUE_LIBRARIES:
                message = f"the engine ({module}) imports {target}"
            elif layer == "engine" and top in REPOSITORY_FOLDERS_ABOVE_THE_ENGINE:
                message = f"the engine ({module}) imports {target} from the repository's {top}/"
            elif layer == "model" and top in (*HTTP_LIBRARIES, *QUEUE_LIBRARIES):
                message = f"model module {module} imports {target}"
            elif (
                layer == "domain"
                and top in HTTP_LIBRARIES
                and not target.startswith(HTTP_CONSTANTS)
            ):
                message = f"domain module {module} imports the HTTP layer's {target}"
            if message:
                found.append(Violation(path.relative_to(root), line, message))
    return found


def test_imports_run_one_way():
    found = violations(ROOT)
    assert not found, "imports against the layers:\n" + "\n".join(map(str, found))


def test_every_kind_of_wrong_import_is_reported_with_its_file_and_line(tmp_path):
    sources = {
        "workers/__init__.py": "",
        "workers/align/__init__.py": "",
        "workers/align/dp.py": "import numpy\nfrom django.db import models\n",
        "workers/align/leak.py": "def f():\n    from backend.jobs import services\n",
        "workers/align/bench.py": "import numpy\nfrom tests.align import reference_dp\n",
        "workers/align/timing.py": "def f():\n    import bench.align_speed\n",
        "workers/align/cli/__init__.py": "",
        "workers/align/cli/progress.py": "from workers.align.pipeline import align_meeting\n",
        "workers/align/__main__.py": "from workers.align.cli.main import main\n",
        "workers/align/pipeline.py": "import numpy\nfrom workers.align.cli.progress import bar\n",
        "workers/align/learning/__init__.py": "",
        "workers/align/learning/statistics.py": "from workers.align.text import split\n",
        "backend/__init__.py": "",
        "backend/jobs/__init__.py": "",
        "backend/jobs/models.py": "from backend.jobs.selectors import job_get\n",
        "backend/jobs/selectors.py": "from backend.jobs.models import Job\n",
        "backend/jobs/services.py": "from . import apis\nfrom rest_framework import status\n",
        "backend/jobs/apis.py": "from backend.jobs import services, selectors\n",
        "backend/jobs/serializers.py": "",
        "backend/jobs/gold.py": "from rest_framework.serializers import Serializer\n",
        "backend/jobs/corpus.py": "from workers.align.corpus import meeting_ids\n",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    assert sorted(map(str, violations(tmp_path))) == [
        "backend/jobs/corpus.py:1: backend.jobs.corpus imports workers.align.corpus, which the "
        "backend reaches via backend.curation.public_meetings",
        "backend/jobs/gold.py:1: domain module backend.jobs.gold imports the HTTP layer's "
        "rest_framework.serializers.Serializer",
        "backend/jobs/models.py:1: model module backend.jobs.models imports domain module "
        "backend.jobs.selectors",
        "backend/jobs/services.py:1: domain module backend.jobs.services imports interface "
        "module backend.jobs.apis",
        "workers/align/bench.py:2: the engine (workers.align.bench) imports "
        "tests.align.reference_dp from the repository's tests/",
        "workers/align/dp.py:2: the engine (workers.align.dp) imports django.db.models",
        "workers/align/leak.py:2: engine module workers.align.leak imports domain module "
        "backend.jobs.services",
        "workers/align/learning/statistics.py:1: workers.align.learning.statistics is generic "
        "statistics and imports nothing of the engine, not workers.align.text",
        "workers/align/pipeline.py:2: engine module workers.align.pipeline imports the command "
        "line's workers.align.cli.progress",
        "workers/align/timing.py:2: the engine (workers.align.timing) imports bench.align_speed "
        "from the repository's bench/",
    ]


def app_imports(root: Path) -> dict[tuple[str, str], list[str]]:
    """(app, another app it imports) -> the `file:line` of each such import, read from the
    AST of backend/<app>/**/*.py (migrations left out)."""
    paths = [
        path
        for path in sorted((root / "backend").rglob("*.py"))
        if "migrations" not in path.parts and len(path.relative_to(root).parts) > 2
    ]
    apps = {path.relative_to(root).parts[1] for path in paths}
    known = {module_name(root, path) for path in paths}
    edges: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        module, app = module_name(root, path), path.relative_to(root).parts[1]
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, target in imported_modules(tree, module, path.name == "__init__.py", known):
            parts = target.split(".")
            if parts[0] == "backend" and len(parts) > 1 and parts[1] in apps - {app}:
                edges.setdefault((app, parts[1]), []).append(f"{path.relative_to(root)}:{line}")
    return edges


def upward_imports(root: Path, order: Sequence[str]) -> list[str]:
    """`file:line: app imports app above it` for each import against `order`."""
    rank = {app: position for position, app in enumerate(order)}
    return [
        f"{site}: {app} imports {other}, which is above it in APP_ORDER"
        for (app, other), sites in sorted(app_imports(root).items())
        if rank[other] > rank[app]
        for site in sites
    ]


def cycle(edges: Iterable[tuple[str, str]]) -> list[str]:
    """One cycle of the graph (its apps, the first repeated at the end), or [] when it has
    none: a depth-first walk that meets an app still on its path has closed a loop."""
    graph: dict[str, list[str]] = {}
    for app, other in sorted(edges):
        graph.setdefault(app, []).append(other)
    done: set[str] = set()
    path: list[str] = []

    def walk(app: str) -> list[str]:
        if app in path:
            return [*path[path.index(app) :], app]
        if app in done:
            return []
        path.append(app)
        for other in graph.get(app, ()):
            found = walk(other)
            if found:
                return found
        path.pop()
        done.add(app)
        return []

    for app in sorted(graph):
        found = walk(app)
        if found:
            return found
    return []


def test_each_backend_app_imports_only_apps_below_it():
    edges = app_imports(ROOT)
    rank = {app: position for position, app in enumerate(APP_ORDER)}
    print("backend apps, bottom up, and the apps each imports:")
    for app in APP_ORDER:
        imported = sorted((other for (source, other) in edges if source == app), key=rank.get)
        print(f"  {app} -> {', '.join(imported) or '(none)'}")

    apps = {path.parent.name for path in (ROOT / "backend").glob("*/__init__.py")}
    assert set(APP_ORDER) == apps, "place every backend app in APP_ORDER, and only those"
    upward = upward_imports(ROOT, APP_ORDER)
    assert not upward, (
        "backend apps importing an app above them (publish a domain event, backend/core/"
        "events.py, or move the shared piece down or the composition up):\n" + "\n".join(upward)
    )
    loop = cycle(edges)
    assert not loop, "the backend apps import in a loop: " + " -> ".join(loop)


def test_an_upward_import_is_reported_with_its_file_and_line(tmp_path):
    sources = {
        "backend/__init__.py": "",
        "backend/settings.py": "",
        "backend/jobs/__init__.py": "",
        "backend/jobs/services.py": "from backend.projects.models import Project\n",
        "backend/projects/__init__.py": "",
        "backend/projects/models.py": "",
        "backend/projects/apis.py": "import os\nfrom backend.jobs import services\n",
        "backend/projects/migrations/0001_initial.py": "from backend.jobs import models\n",
        "backend/core/__init__.py": "",
        "backend/core/errors.py": "def f():\n    from backend.projects.models import Project\n",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    assert upward_imports(tmp_path, ("core", "jobs", "projects")) == [
        "backend/core/errors.py:2: core imports projects, which is above it in APP_ORDER",
        "backend/jobs/services.py:1: jobs imports projects, which is above it in APP_ORDER",
    ]
    assert upward_imports(tmp_path, ("core", "projects", "jobs")) == [
        "backend/core/errors.py:2: core imports projects, which is above it in APP_ORDER",
        "backend/projects/apis.py:2: projects imports jobs, which is above it in APP_ORDER",
    ]
    assert cycle(app_imports(tmp_path)) == ["projects", "jobs", "projects"]
    assert cycle([("core", "jobs"), ("jobs", "projects")]) == []
