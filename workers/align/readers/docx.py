"""Reader for Word reports as produced by professional reporting firms.

Speaker names carry a paragraph style named like "Nom" (or "Noms"), headings use the built-in
"Heading N" styles; tables of contents are skipped because they repeat the headings.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterator

import docx
from docx.document import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from docx.text.paragraph import Paragraph
from lxml import etree

from workers.align.document_model import ReaderError, Report
from workers.align.readers._input import InputFile
from workers.align.readers._segments import Block, BlockKind, build_report
from workers.align.readers.archive import DEFAULT_LIMITS, ArchiveLimits, check_archive
from workers.align.tokenizers import Tokenizer

_SPEAKER_STYLE = re.compile(r"^noms?\b", re.IGNORECASE)
_HEADING_STYLE = re.compile(r"^(heading|titre)\s*\d+$|^title$", re.IGNORECASE)
_TABLE_OF_CONTENTS_STYLE = re.compile(r"^toc\b|^index\b|^table des mati", re.IGNORECASE)


def read_docx(
    file: InputFile, tokenizer: Tokenizer, limits: ArchiveLimits = DEFAULT_LIMITS
) -> Report:
    """`limits` bound what the archive may inflate to; it is checked before parsing."""
    return build_report(_blocks(_open(file, limits), tokenizer), file.name)


def docx_text(file: InputFile, limits: ArchiveLimits = DEFAULT_LIMITS) -> str:
    """A Word document's paragraphs (table cells, a paragraph each), blank-line separated, for
    readers that cut text their own way (descriptions into sentences)."""
    document = _open(file, limits)
    paragraphs: list[str] = []
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            paragraphs.extend(_table_cells(item))
        elif _paragraph_kind(item) is not None:
            paragraphs.append(item.text)
    return "\n\n".join(paragraph for paragraph in paragraphs if paragraph.strip())


def _open(file: InputFile, limits: ArchiveLimits) -> Document:
    check_archive(file.name, file.data, limits)
    try:
        return docx.Document(io.BytesIO(file.data))
    except (zipfile.BadZipFile, PackageNotFoundError, KeyError) as error:
        raise ReaderError(
            file.name, "whole file", f"not a readable .docx (Word) document: {error}"
        ) from error
    except etree.XMLSyntaxError as error:
        raise ReaderError(
            file.name, "whole file", f"the .docx holds malformed XML ({error.msg})"
        ) from error


def _blocks(document: Document, tokenizer: Tokenizer) -> Iterator[Block]:
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            yield Block("table", tokenizer.tokenize(" ".join(_table_cells(item))))
            continue
        kind = _paragraph_kind(item)
        if kind is not None:
            yield Block(kind, tokenizer.tokenize(item.text))


def _paragraph_kind(paragraph: Paragraph) -> BlockKind | None:
    style_name = paragraph.style.name if paragraph.style is not None else ""
    if _TABLE_OF_CONTENTS_STYLE.search(style_name):
        return None
    if _SPEAKER_STYLE.search(style_name):
        return "nom"
    if _HEADING_STYLE.search(style_name):
        return "h"
    return "p"


def _table_cells(table: Table) -> Iterator[str]:
    for row in table.rows:
        for cell in row.cells:
            yield cell.text
