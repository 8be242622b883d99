"""The user documentation (docs/*.md) as the app's help: each page rendered to HTML on the
server, its links between docs and its screenshots pointed at the app's own addresses, and a
search across pages. The Markdown stays the one source, readable on GitHub as well.

The dated experiment logs (docs/experiments/*.md) that the reference pages cite are help
pages too, named `experiments-<file>` (`experiments` for their index), so that a figure's
link leads to how it was measured; the help's list and search keep to docs/*.md.

The HTML is safe to insert as it is: raw HTML in the Markdown is escaped (`html` off),
markdown-it refuses `javascript:` and similar links, and table alignment becomes a class
rather than a `style` attribute, which the Content-Security-Policy would block."""

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from markdown_it import MarkdownIt
from markdown_it.token import Token

from backend.core.errors import NotFound

PAGE_NAME = re.compile(r"^[a-z0-9-]+$")
IMAGE_NAME = re.compile(r"^[a-z0-9-]+\.png$")
_DOC_LINK = re.compile(
    r"^(?:\./)?(?P<path>(?:\.\./)?(?:[a-z0-9-]+/)?(?:[a-z0-9-]+|README))\.md(?P<anchor>#[\w-]*)?$"
)
EXPERIMENTS = "experiments"
_SCREENSHOT = re.compile(r"^(?:\./)?screenshots/(?P<file>[a-z0-9-]+\.png)$")
_ALIGNMENT = re.compile(r"^text-align:(left|right|center)$")
EXCERPT_CHARS = 160

_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass(frozen=True)
class HelpPage:
    name: str
    title: str
    html: str


@dataclass(frozen=True)
class HelpHit:
    name: str
    title: str
    anchor: str
    section: str
    excerpt: str
    hits: int


@dataclass(frozen=True)
class _Block:
    """A paragraph, list item or table cell of a page, as plain text, under its heading."""

    anchor: str
    section: str
    text: str


def _doc_path(name: str) -> Path:
    folder, _, file = name.partition("-") if name.startswith(f"{EXPERIMENTS}-") else ("", "", name)
    if name == EXPERIMENTS:
        folder, file = EXPERIMENTS, "README"
    path = settings.DOCS_DIR / folder / f"{file}.md"
    if not PAGE_NAME.match(name) or not path.is_file():
        raise NotFound(f"No help page {name}.")
    return path


def _page_names() -> list[str]:
    return sorted(
        path.stem for path in settings.DOCS_DIR.glob("*.md") if PAGE_NAME.match(path.stem)
    )


def _experiment_names() -> list[str]:
    logs = sorted(
        f"{EXPERIMENTS}-{path.stem}"
        for path in (settings.DOCS_DIR / EXPERIMENTS).glob("*.md")
        if PAGE_NAME.match(path.stem)
    )
    return [EXPERIMENTS, *logs] if logs else []


def _linked_page(href: str, folder: str) -> tuple[str, str] | None:
    """The help page and anchor a Markdown link from a page in `folder` points at, or None
    for a link outside the help."""
    link = _DOC_LINK.match(href)
    if not link:
        return None
    target = posixpath.normpath(posixpath.join(folder, link.group("path")))
    if target == f"{EXPERIMENTS}/README":
        name = EXPERIMENTS
    elif target.startswith(f"{EXPERIMENTS}/"):
        name = f"{EXPERIMENTS}-{target.removeprefix(f'{EXPERIMENTS}/')}"
    else:
        name = target
    return name, link.group("anchor") or ""


def _plain(inline: Token) -> str:
    return "".join(
        " " if child.type in ("softbreak", "hardbreak") else child.content
        for child in inline.children or []
    )


def _slug(text: str, taken: dict[str, int]) -> str:
    """GitHub's heading anchors, so the docs' `page.md#anchor` links work in both places:
    lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
    count = taken.get(slug, 0)
    taken[slug] = count + 1
    return slug if count == 0 else f"{slug}-{count}"


def _point_at_the_app(tokens: list[Token], names: set[str], folder: str) -> None:
    """Gives headings their anchors, points links between docs and screenshots at the app's
    addresses, and turns table alignment into classes."""
    taken: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", _slug(_plain(tokens[index + 1]), taken))
        elif token.type in ("th_open", "td_open"):
            alignment = _ALIGNMENT.match(str(token.attrs.pop("style", "")))
            if alignment:
                token.attrSet("class", f"align-{alignment.group(1)}")
        for child in token.children or []:
            if child.type == "link_open":
                linked = _linked_page(str(child.attrGet("href")), folder)
                if linked and linked[0] in names:
                    child.attrSet("href", f"/help/{linked[0]}{linked[1]}")
            elif child.type == "image":
                image = _SCREENSHOT.match(str(child.attrGet("src")))
                if image:
                    child.attrSet("src", f"/help/screenshots/{image.group('file')}")


def _parse(name: str) -> tuple[list[Token], str]:
    path = _doc_path(name)
    tokens = _markdown.parse(path.read_text(encoding="utf-8"))
    folder = path.parent.relative_to(settings.DOCS_DIR).as_posix().strip(".")
    _point_at_the_app(tokens, {*_page_names(), *_experiment_names()}, folder)
    titles = [
        _plain(tokens[index + 1])
        for index, token in enumerate(tokens)
        if token.type == "heading_open" and token.tag == "h1"
    ]
    return tokens, titles[0] if titles else name


def help_page_list() -> list[HelpPage]:
    """Every page's name and title, by name, without its HTML."""
    return [HelpPage(name=name, title=_parse(name)[1], html="") for name in _page_names()]


def help_page_get(*, name: str) -> HelpPage:
    tokens, title = _parse(name)
    html = _markdown.renderer.render(tokens, _markdown.options, {})
    return HelpPage(name=name, title=title, html=html)


def _blocks(tokens: list[Token]) -> list[_Block]:
    blocks: list[_Block] = []
    anchor, section = "", ""
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        text = _plain(token)
        opener = tokens[index - 1]
        if opener.type == "heading_open":
            anchor, section = str(opener.attrGet("id")), text
        blocks.append(_Block(anchor=anchor, section=section, text=text))
    return blocks


def _excerpt(text: str, start: int) -> str:
    """About EXCERPT_CHARS characters of `text` from a little before `start`, cut at spaces."""
    begin = text.rfind(" ", 0, max(0, start - EXCERPT_CHARS // 3)) + 1
    end = begin + EXCERPT_CHARS
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    return ("…" if begin > 0 else "") + text[begin:end] + ("…" if end < len(text) else "")


def help_search(*, query: str) -> list[HelpHit]:
    """Pages whose text has every word of `query` (case ignored), most occurrences first,
    each with the section and an excerpt of the first block that has them all, or else of
    the first that has the first word."""
    words = query.lower().split()
    hits: list[HelpHit] = []
    for name in _page_names():
        tokens, title = _parse(name)
        blocks = _blocks(tokens)
        page_text = " ".join(block.text for block in blocks).lower()
        if not words or not all(word in page_text for word in words):
            continue
        best = [b for b in blocks if all(word in b.text.lower() for word in words)] or [
            b for b in blocks if words[0] in b.text.lower()
        ]
        hits.append(
            HelpHit(
                name=name,
                title=title,
                anchor=best[0].anchor,
                section=best[0].section,
                excerpt=_excerpt(best[0].text, best[0].text.lower().find(words[0])),
                hits=sum(page_text.count(word) for word in words),
            )
        )
    return sorted(hits, key=lambda hit: (-hit.hits, hit.name))


def help_image_path(*, name: str) -> Path:
    """A screenshot the docs show (docs/screenshots/*.png)."""
    path = settings.DOCS_DIR / "screenshots" / name
    if not IMAGE_NAME.match(name) or not path.is_file():
        raise NotFound(f"No help image {name}.")
    return path
