"""The paper readers on one paper written in every format, and on broken copies of it."""

from __future__ import annotations

import pytest

from tests.align.paper_fixtures import (
    SECTIONS,
    TITLE,
    markdown_paper,
    pdf_paper,
    science_parse_paper,
    tei_paper,
    text_paper,
)
from workers.align.document_model import ReaderError
from workers.align.readers import read_paper
from workers.align.talks.paper_states import is_excluded, paper_states, section_name
from workers.align.text import split_sentences
from workers.align.tokenizers import tokenizer_for

FORMATS = {
    "paper.md": markdown_paper,
    "paper.txt": lambda: text_paper().encode("utf-8"),
    "paper.tei.xml": tei_paper,
    "paper.pdf": pdf_paper,
    "paper.json": science_parse_paper,
}


def expected_sections() -> list[tuple[str, list[str]]]:
    tokenizer = tokenizer_for("en")
    return [(title, split_sentences(tokenizer.tokenize(body))) for title, body in SECTIONS]


@pytest.mark.parametrize("name", FORMATS)
def test_every_format_gives_the_papers_sections_and_sentences(name, tmp_path):
    path = tmp_path / name
    path.write_bytes(FORMATS[name]())
    paper = read_paper(path, language="en")
    assert [(s.title, list(s.sentences)) for s in paper.sections] == expected_sections()
    assert paper.source == str(path)
    if name in ("paper.md", "paper.tei.xml", "paper.json"):
        assert paper.title == TITLE
    assert not any("journal of night" in s for x in paper.sections for s in x.sentences)


@pytest.mark.parametrize("name", FORMATS)
def test_formats_are_recognised_by_content_when_the_name_says_nothing(name):
    paper = read_paper(FORMATS[name](), "upload", language="en")
    assert [s.title for s in paper.sections] == [title for title, _ in SECTIONS]


def test_states_leave_out_abstract_related_work_and_acknowledgments_and_start_in_the_introduction():
    paper = read_paper(markdown_paper(), "paper.md", language="en")
    states = paper_states(paper)
    titles = [paper.sections[i].title for i in states.section_of_sentence[states.is_state]]
    assert sorted(set(titles)) == ["1 Introduction", "3 Method", "4 Results", "5 Conclusion"]
    starts = {paper.sections[i].title for i in states.section_of_sentence[states.is_start]}
    assert starts == {"1 Introduction"}
    everything = paper_states(paper, excluded=())
    assert everything.is_state.all()
    assert len(everything.sentences) == sum(len(s.sentences) for s in paper.sections)


@pytest.mark.parametrize(
    ("title", "name", "excluded"),
    [
        ("2.1. RELATED WORKS", "related work", True),
        ("Background and Related Work", "background and related work", True),
        ("Acknowledgements", "acknowledgments", True),
        ("IV. Abstract", "abstract", True),
        ("3 Method", "method", False),
        ("Abstractions of speech", "abstractions of speech", False),
    ],
)
def test_section_titles_are_matched_without_numbering_case_or_spelling(title, name, excluded):
    assert section_name(title) == name
    assert is_excluded(title, ("abstract", "related work", "acknowledgments")) is excluded


def _truncated_tei() -> bytes:
    data = tei_paper()
    return data[: data.index(b"<body>") + 200]


@pytest.mark.parametrize(
    ("name", "data", "place", "problem"),
    [
        ("broken.tei.xml", _truncated_tei, "line ", "malformed XML"),
        (
            "html.xml",
            lambda: b"<html><body><p>Hello.</p></body></html>",
            "line 1",
            "expected a TEI document",
        ),
        (
            "headless.xml",
            lambda: b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader/></TEI>',
            "line 1",
            "no <text><body>",
        ),
        (
            "empty-body.xml",
            lambda: b'<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body/></text></TEI>',
            "line 1",
            "holds no paragraph",
        ),
        ("cut.pdf", lambda: pdf_paper()[:300], "whole file", "PDF"),
        ("fake.pdf", lambda: b"GIF89a not a pdf", "byte 0", "not a PDF file"),
        ("notes.md", lambda: b"Some notes without any heading.\n", "whole file", "no section"),
        ("notes.txt", lambda: b"We count swifts. Nothing else.\n", "whole file", "no section"),
        ("latin.txt", lambda: b"1 Introduction\n\x81\x8d swifts\n", "line 2", "not UTF-8"),
        ("blank.md", lambda: b"## 1 Introduction\n\n## 2 Method\n", "whole file", "no text"),
        ("cut.json", lambda: science_parse_paper()[:80], "line 1, column", "invalid JSON"),
        ("list.json", lambda: b"[1, 2]", "whole file", "science-parse JSON object"),
        ("other.json", lambda: b'{"segments": []}', "whole file", '"sections" list'),
        (
            "bad-section.json",
            lambda: b'{"sections": [{"heading": "1 Introduction", "text": "Hi."}, 3]}',
            "section 2",
            '"text" string',
        ),
    ],
)
def test_malformed_papers_are_refused_naming_the_file_and_place(name, data, place, problem):
    with pytest.raises(ReaderError) as raised:
        read_paper(data(), name, language="en")
    message = str(raised.value)
    assert message.startswith(f"{name}: {place}")
    assert problem in message


def test_tei_entities_are_not_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("swordfish")
    data = tei_paper().replace(
        b"<?xml version='1.0' encoding='UTF-8'?>",
        f'<?xml version="1.0"?><!DOCTYPE TEI [<!ENTITY x SYSTEM "file://{secret}">]>'.encode(),
    )
    data = data.replace(b"Swifts gather", b"&x; Swifts gather")
    paper = read_paper(data, "paper.xml", language="en")
    assert not any("swordfish" in s for x in paper.sections for s in x.sentences)


def test_a_pdf_without_text_is_refused_as_needing_ocr():
    blank = pdf_paper().replace(b"Tj T*", b"T*")
    with pytest.raises(ReaderError, match="no text layer"):
        read_paper(blank, "scan.pdf", language="en")
