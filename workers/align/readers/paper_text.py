"""Papers typed as Markdown or plain text, and the text a PDF's pages give: sections at
headings.

Markdown headings are `#` lines. Plain text (and PDF text) has no markup, so a heading is a
line of its own that is either numbered ("2 Method", "3.1. Data", "IV. RESULTS") or one of the
sections papers have ("Abstract", "Introduction", "Acknowledgments"...), in at most eight
words and without a closing full stop. The References section ends the paper: its entries are
not prose a talk describes, and GROBID's TEI keeps them apart too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from workers.align.document_model import Paper, ReaderError, Section
from workers.align.readers._input import InputFile, decode_text
from workers.align.talks.paper_states import section_name
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer

_MARKDOWN_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_NUMBERED_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+[^\W\d_]")
_KNOWN_SECTIONS = frozenset(
    {
        "abstract",
        "introduction",
        "related work",
        "background",
        "method",
        "methods",
        "methodology",
        "model",
        "approach",
        "data",
        "dataset",
        "experiments",
        "experimental setup",
        "evaluation",
        "results",
        "discussion",
        "analysis",
        "conclusion",
        "conclusions",
        "future work",
        "limitations",
        "acknowledgments",
        "appendix",
        "references",
        "bibliography",
    }
)
_ENDING_SECTIONS = frozenset({"references", "bibliography"})
_MARKDOWN_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_HYPHEN_BREAK = re.compile(r"(?<=[^\W\d_])-\n(?=[^\W\d_])")
MAX_HEADING_WORDS = 8


def read_markdown_paper(file: InputFile, tokenizer: Tokenizer) -> Paper:
    """A first `#` heading followed by another heading is the paper's title."""
    lines = decode_text(file).splitlines()
    matches = [_MARKDOWN_HEADING.match(line) for line in lines]
    marked = [
        (_plain(match.group(2)) if match else None, line)
        for match, line in zip(matches, lines, strict=True)
    ]
    headings = [match for match in matches if match]
    title = None
    first = next((number for number, line in enumerate(lines) if line.strip()), None)
    opening = matches[first] if first is not None else None
    if first is not None and opening and opening.group(1) == "#" and len(headings) > 1:
        title = marked[first][0]
        marked[first] = (None, "")
    return _paper(
        file.name, title, marked, tokenizer, "a Markdown heading such as '# Introduction'"
    )


def read_text_paper(file: InputFile, tokenizer: Tokenizer) -> Paper:
    return paper_from_text(file.name, decode_text(file), tokenizer)


def paper_from_text(name: str, text: str, tokenizer: Tokenizer) -> Paper:
    """Plain text, as typed or as extracted from a PDF (words hyphenated across lines are
    joined)."""
    text = _HYPHEN_BREAK.sub("", text)
    marked = [(line.strip() if is_heading(line) else None, line) for line in text.splitlines()]
    return _paper(name, None, marked, tokenizer, "a heading line such as '1 Introduction'")


def is_heading(line: str) -> bool:
    stripped = line.strip()
    words = stripped.split()
    if not words or len(words) > MAX_HEADING_WORDS or stripped.endswith((".", ",", ";")):
        return False
    if section_name(stripped) in _KNOWN_SECTIONS:
        return True
    return bool(_NUMBERED_HEADING.match(stripped)) and not stripped.endswith(":")


def _paper(
    name: str,
    title: str | None,
    marked: Iterable[tuple[str | None, str]],
    tokenizer: Tokenizer,
    heading_example: str,
) -> Paper:
    """Sections from lines marked with their heading (None for body text); text before the
    first heading is left out (title block, authors)."""
    sections: list[tuple[str, list[str]]] = []
    saw_heading = False
    for heading, line in marked:
        if heading is not None:
            saw_heading = True
            if section_name(heading) in _ENDING_SECTIONS:
                break
            sections.append((heading, []))
        elif sections:
            sections[-1][1].append(line)
    if not saw_heading:
        raise ReaderError(
            name, "whole file", f"no section heading found; a paper needs {heading_example}"
        )
    built = tuple(
        Section(heading, _sentences(" ".join(body), tokenizer)) for heading, body in sections
    )
    if not any(section.sentences for section in built):
        raise ReaderError(name, "whole file", "the sections hold no text")
    return Paper(title, built, name)


def _sentences(text: str, tokenizer: Tokenizer) -> tuple[str, ...]:
    return scoring_sentences(tokenizer.tokenize(_plain(text)))


def _plain(text: str) -> str:
    return _MARKDOWN_EMPHASIS.sub("", text)
