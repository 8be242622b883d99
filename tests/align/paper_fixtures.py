"""One short paper, written here, in every format the paper readers take: Markdown, plain
text, GROBID-style TEI XML and a PDF with a text layer, all made at test time (no download,
no binary in the repository)."""

from __future__ import annotations

import json
import textwrap

from lxml import etree

TITLE = "Counting Swifts at Dusk with Cheap Microphones"
SECTIONS = [
    (
        "Abstract",
        "We count swifts from their calls. Our microphones cost little.",
    ),
    (
        "1 Introduction",
        "Swifts gather above towns at dusk and scream while they circle. Counting them by eye "
        "is slow and people disagree. We propose to count them from recordings instead.",
    ),
    (
        "2 Related Work",
        "Earlier studies counted bats with ultrasound detectors. Radar also tracks flocks of "
        "birds at night.",
    ),
    (
        "3 Method",
        "Each microphone records the evening sky for an hour. A detector finds every scream "
        "and a tracker joins screams into flights. The number of flights estimates the flock.",
    ),
    (
        "4 Results",
        "Our counts agree with trained observers within ten percent. The cheapest microphone "
        "works as well as the dearest one.",
    ),
    (
        "5 Conclusion",
        "Cheap microphones count swifts well. Volunteers can now survey their own towns.",
    ),
    (
        "Acknowledgments",
        "We thank the volunteers who stood on roofs.",
    ),
]
REFERENCES = ["Smith, A. Bats in the dark. Journal of Night, 2001."]


def markdown_paper() -> bytes:
    parts = [f"# {TITLE}", "", "Ann Author, Ben Writer", ""]
    for title, body in SECTIONS:
        parts += [f"## {title}", "", body, ""]
    parts += ["## References", "", *REFERENCES, ""]
    return "\n".join(parts).encode("utf-8")


def text_paper(width: int = 80) -> str:
    lines = [TITLE, "Ann Author, Ben Writer", ""]
    for title, body in SECTIONS:
        lines += [title, *textwrap.wrap(body, width), ""]
    lines += ["References", *REFERENCES]
    return "\n".join(lines)


def tei_paper() -> bytes:
    namespace = "http://www.tei-c.org/ns/1.0"

    def element(parent, tag, text=None, **attributes):
        child = etree.SubElement(parent, f"{{{namespace}}}{tag}", **attributes)
        if text is not None:
            child.text = text
        return child

    root = etree.Element(f"{{{namespace}}}TEI", nsmap={None: namespace})
    header = element(root, "teiHeader")
    title_statement = element(element(header, "fileDesc"), "titleStmt")
    element(title_statement, "title", TITLE, level="a", type="main")
    abstract = element(element(header, "profileDesc"), "abstract")
    paragraph = element(element(abstract, "div"), "p")
    for sentence in _split(SECTIONS[0][1]):
        element(paragraph, "s", sentence).tail = " "
    text = element(root, "text")
    body = element(text, "body")
    for title, content in SECTIONS[1:-1]:
        number, name = title.split(" ", 1)
        division = element(body, "div")
        element(division, "head", name, n=number)
        paragraph = element(division, "p")
        for sentence in _split(content):
            element(paragraph, "s", sentence).tail = " "
        figure = element(division, "figure")
        element(figure, "figDesc", "Figure 1: a swift in flight.")
    back = element(text, "back")
    thanks = element(element(back, "div", type="acknowledgement"), "div")
    element(thanks, "head", "Acknowledgments")
    element(thanks, "p", SECTIONS[-1][1])
    bibliography = element(element(back, "div", type="references"), "listBibl")
    element(bibliography, "biblStruct", REFERENCES[0])
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def science_parse_paper() -> bytes:
    """As science-parse's command line writes a paper: its fields under `metadata`."""
    metadata = {
        "title": TITLE,
        "abstractText": SECTIONS[0][1],
        "sections": [{"heading": title, "text": body} for title, body in SECTIONS[1:]],
        "references": [{"title": REFERENCES[0]}],
    }
    return json.dumps({"name": "paper.pdf", "metadata": metadata}).encode("utf-8")


def _split(paragraph: str) -> list[str]:
    return [sentence + "." for sentence in paragraph.rstrip(".").split(". ")]


def pdf_paper(lines_per_page: int = 18) -> bytes:
    """A PDF written object by object: Helvetica text, one line per `Tj`, pages of
    `lines_per_page` lines."""
    lines = text_paper(width=70).splitlines()
    pages = [lines[i : i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    bodies: dict[int, bytes] = {
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    }
    page_ids = []
    next_id = 4
    for page in pages:
        operations = ["BT", "/F1 11 Tf", "14 TL", "72 760 Td"]
        for line in page:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            operations.append(f"({escaped}) Tj T*")
        operations.append("ET")
        stream = "\n".join(operations).encode("latin-1")
        content, page_id = next_id, next_id + 1
        next_id += 2
        bodies[content] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
        bodies[page_id] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {content} 0 R >>"
        ).encode()
        page_ids.append(page_id)
    bodies[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    kids = " ".join(f"{page_id} 0 R" for page_id in page_ids)
    bodies[2] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode()
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in range(1, next_id):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + bodies[number] + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {next_id}\n0000000000 65535 f \n".encode()
    for number in range(1, next_id):
        out += f"{offsets[number]:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {next_id} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


TALK = [
    "Hello everyone. Every summer evening swifts gather above our towns and scream.",
    "They circle at dusk and counting them by eye is slow, and two people never agree.",
    "So we count them from recordings. Each microphone records the sky for an hour.",
    "A detector finds every scream, and a tracker joins the screams into flights.",
    "We count the flights, and the flights estimate the flock.",
    "Our counts agree with trained observers, within ten percent.",
    "And the cheapest microphone works as well as the dearest one. Thank you.",
]
"""The talk that presents the paper above, its Method and Results at most length."""


def talk_srt() -> bytes:
    blocks = []
    for number, line in enumerate(TALK, start=1):
        start, end = (number - 1) * 10, number * 10 - 1
        blocks.append(f"{number}\n00:00:{start:02d},000 --> 00:00:{end:02d},000\n{line}\n")
    return "\n".join(blocks).encode("utf-8")


SWIFT_TOPICS = {
    "dusk": "swifts gather towns dusk scream screams circle summer evening sky",
    "eye": "counting count counts eye slow people disagree agree observers trained",
    "microphones": "recordings microphone microphones records hour cheap",
    "cost": "cheapest dearest",
    "flights": "detector finds tracker joins flights flock estimate estimates",
}


def swift_vectors():
    """Word vectors (no download) in which the talk's words lie near the paper's words of the
    same sentence: one axis per topic of the paper."""
    from topic_vectors import topic_vectors

    return topic_vectors({topic: words.split() for topic, words in SWIFT_TOPICS.items()})
