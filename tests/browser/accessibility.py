"""axe-core (frontend/node_modules/axe-core, pinned in frontend/package.json) run on a page as
it stands, for the browser tests: a test fails on any serious or critical violation, naming
each rule and the elements that break it."""

from pathlib import Path

import pytest

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "frontend/node_modules/axe-core/axe.min.js"
SEVERE_IMPACTS = ("serious", "critical")


def severe_violations(page) -> list[str]:
    """axe's serious and critical violations on `page`, one line per rule and element.

    The script is evaluated through the DevTools protocol rather than added as a script
    element: the Content-Security-Policy (no inline code) would block the element, and the
    `page` fixture fails a test on any violation of it."""
    if not AXE_SCRIPT.is_file():
        pytest.fail(f"axe-core is missing at {AXE_SCRIPT}: run `npm ci` in frontend/.")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT.read_text(encoding="utf-8") + "\n;undefined")
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{violation['impact']} {violation['id']} ({violation['help']}): {node['target']} "
        f"{node['failureSummary']}"
        for violation in results["violations"]
        if violation["impact"] in SEVERE_IMPACTS
        for node in violation["nodes"]
    ]


def assert_accessible(page, what: str) -> None:
    violations = severe_violations(page)
    assert not violations, f"axe-core on {what}:\n" + "\n".join(violations)
