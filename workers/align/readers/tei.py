"""Papers as GROBID writes them: TEI XML with the abstract in the header, the sections as
`<div>`s of the body (a `<head>` and `<p>`s) and the acknowledgements in the back matter.

Figures, formulas, notes and the bibliography are not prose a talk describes and are skipped.
The parser resolves no entities, loads no DTD and touches no network, so an uploaded file
cannot make it read local files or fetch anything.
"""

from __future__ import annotations

from lxml import etree

from workers.align.document_model import Paper, ReaderError, Section
from workers.align.readers._input import InputFile
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer

TEI_NAMESPACE = "http://www.tei-c.org/ns/1.0"
_NS = {"tei": TEI_NAMESPACE}


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def read_tei(file: InputFile, tokenizer: Tokenizer) -> Paper:
    if not file.data.strip():
        raise ReaderError(file.name, "whole file", "the file is empty")
    try:
        root = etree.fromstring(file.data, _parser())
    except etree.XMLSyntaxError as error:
        line, column = error.position
        raise ReaderError(
            file.name, f"line {line}, column {column}", f"malformed XML: {error.msg}"
        ) from error
    if root.tag != f"{{{TEI_NAMESPACE}}}TEI":
        raise ReaderError(
            file.name,
            f"line {root.sourceline}",
            f'expected a TEI document (<TEI xmlns="{TEI_NAMESPACE}">), found <{root.tag}>',
        )
    body = root.find("tei:text/tei:body", _NS)
    if body is None:
        raise ReaderError(
            file.name, f"line {root.sourceline}", "the TEI document has no <text><body>"
        )
    sections: list[Section] = []
    abstract = root.find("tei:teiHeader/tei:profileDesc/tei:abstract", _NS)
    if abstract is not None:
        sections.append(Section("Abstract", _paragraphs(abstract, tokenizer)))
    sections.extend(_divisions(body, tokenizer))
    for back in root.iterfind("tei:text/tei:back/tei:div", _NS):
        if back.get("type") in ("acknowledgement", "acknowledgment", "acknowledgements"):
            sections.append(Section("Acknowledgments", _paragraphs(back, tokenizer)))
    if not any(section.sentences for section in sections):
        raise ReaderError(
            file.name, f"line {body.sourceline}", "the <body> holds no paragraph (<p>) of text"
        )
    title = root.findtext("tei:teiHeader/tei:fileDesc/tei:titleStmt/tei:title", None, _NS)
    return Paper(_clean(title) or None if title else None, tuple(sections), file.name)


def _divisions(body: etree._Element, tokenizer: Tokenizer) -> list[Section]:
    """One section per titled `<div>`; an untitled one continues the section before it."""
    sections: list[Section] = []
    for division in body.iterfind("tei:div", _NS):
        head = division.find("tei:head", _NS)
        sentences = _paragraphs(division, tokenizer)
        if head is None and sections:
            previous = sections.pop()
            sections.append(Section(previous.title, previous.sentences + sentences))
            continue
        title = _clean(" ".join(head.itertext())) if head is not None else ""
        number = head.get("n") if head is not None else None
        sections.append(Section(f"{number} {title}" if number else title, sentences))
    return sections


def _paragraphs(element: etree._Element, tokenizer: Tokenizer) -> tuple[str, ...]:
    sentences: list[str] = []
    for paragraph in element.iterfind(".//tei:p", _NS):
        sentences.extend(scoring_sentences(tokenizer.tokenize(" ".join(paragraph.itertext()))))
    return tuple(sentences)


def _clean(text: str) -> str:
    return " ".join(text.split())
