"""Papers as PDF: pypdf extracts each page's text, which is then read as plain text.

A PDF has no section markup, so headings are found as in plain text (numbered or well-known
titles on a line of their own); two-column layouts come out in reading order as far as the
PDF's own text order allows. A scanned PDF (page images, no text layer) is refused: reading
it would need OCR.
"""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.errors import PdfReadError, PyPdfError

from workers.align.document_model import Paper, ReaderError
from workers.align.readers._input import InputFile
from workers.align.readers.paper_text import paper_from_text
from workers.align.tokenizers import Tokenizer

PDF_MAGIC = b"%PDF-"
MAX_PAGES = 200
"""Longer than any paper; bounds the work a hostile upload can ask for."""


def read_pdf(file: InputFile, tokenizer: Tokenizer) -> Paper:
    if not file.data.lstrip().startswith(PDF_MAGIC):
        raise ReaderError(file.name, "byte 0", "not a PDF file (it does not start with %PDF-)")
    try:
        reader = PdfReader(io.BytesIO(file.data), strict=False)
        if reader.is_encrypted:
            raise ReaderError(file.name, "whole file", "the PDF is encrypted; save it unlocked")
        pages = reader.pages
        if len(pages) > MAX_PAGES:
            raise ReaderError(
                file.name, "whole file", f"{len(pages)} pages; a paper may have {MAX_PAGES}"
            )
        texts = []
        for number, page in enumerate(pages, start=1):
            try:
                texts.append(page.extract_text() or "")
            except ReaderError:
                raise
            except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError) as error:
                raise ReaderError(
                    file.name, f"page {number}", f"the page's text cannot be read: {error}"
                ) from error
    except ReaderError:
        raise
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError) as error:
        raise ReaderError(file.name, "whole file", f"not a readable PDF: {error}") from error
    if not any(text.strip() for text in texts):
        raise ReaderError(
            file.name, "whole file", "the PDF has no text layer (scanned pages need OCR first)"
        )
    return paper_from_text(file.name, "\n".join(texts), tokenizer)
