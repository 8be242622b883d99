"""The docs' links lead somewhere: every relative link in README.md and docs/ names a file
that exists, and a `#fragment` names a heading of its page (GitHub's anchors) or an explicit
`<a id>`/`<a name>`. Web addresses are not fetched. A broken link is reported as
`file:line: link (why)`."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+).*?\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]"  # the text
    r"\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # (target "title")
)
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+[^>]*(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def pages(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def _prose_lines(path: Path):
    """(line number, text) of the lines outside fenced code, inline code blanked."""
    fenced = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, INLINE_CODE.sub("", line)


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as rendered (code marks and link targets
    dropped), lower case, without punctuation other than `-` and `_`, spaces made `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    kept = "".join(
        character
        for character in text
        if character in " -_" or unicodedata.category(character)[0] in "LNM"
    )
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a page: its headings' slugs (a repeated one numbered -1, -2, as GitHub
    does) and its explicit HTML anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading:
            slug = github_slug(heading.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(root: Path) -> list[str]:
    problems = []
    anchors_of: dict[Path, set[str]] = {}
    for page in pages(root):
        for number, line in _prose_lines(page):
            targets = INLINE_LINK.findall(line)
            definition = REFERENCE_DEFINITION.match(line)
            if definition:
                targets.append(definition.group(1))
            for target in targets:
                if EXTERNAL.match(target):
                    continue
                location, _, fragment = target.partition("#")
                linked = (page.parent / unquote(location)).resolve() if location else page
                where = f"{page.relative_to(root)}:{number}: {target}"
                if not linked.exists():
                    problems.append(f"{where} (no such file)")
                elif fragment and linked.suffix == ".md":
                    if linked not in anchors_of:
                        anchors_of[linked] = anchors(linked)
                    if unquote(fragment).lower() not in anchors_of[linked]:
                        problems.append(f"{where} (no heading #{fragment} there)")
    return problems


def test_every_relative_link_in_the_docs_leads_to_a_file_and_heading():
    problems = broken_links(ROOT)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_a_missing_file_or_heading_is_reported_with_its_page_and_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text(
        "See [the engine](docs/engine.md) and [limits](docs/limits.md#headers).\n"
        "[Web](https://example.org/missing.md) and `[code](nowhere.md)` are not checked.\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "limits.md").write_text(
        "# Limits\n\n## Request size: `DATA_UPLOAD_MAX` (bytes)\n\n## Body\n\n## Body\n\n"
        "```\n## Not a heading\n```\n\n"
        "[ok](#request-size-data_upload_max-bytes) [ok](#body-1) [code](#not-a-heading)\n"
        "[back](../README.md) [image](shot.png)\n\n[later]: missing.md\n",
        encoding="utf-8",
    )

    assert broken_links(tmp_path) == [
        "README.md:1: docs/engine.md (no such file)",
        "README.md:1: docs/limits.md#headers (no heading #headers there)",
        "docs/limits.md:13: #not-a-heading (no heading #not-a-heading there)",
        "docs/limits.md:14: shot.png (no such file)",
        "docs/limits.md:16: missing.md (no such file)",
    ]


def test_the_index_lists_every_page() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    missing = [
        page.name
        for page in sorted((ROOT / "docs").glob("*.md"))
        if page.name != "README.md" and f"({page.name}" not in index
    ]
    assert not missing, f"docs/README.md does not list {', '.join(missing)}"
