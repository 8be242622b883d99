"""Papers as science-parse (AllenAI) writes them, the parser TalkSumm itself used: JSON with
the title, the abstract text and the sections as `{"heading", "text"}`, either at the top
level (its server's answer) or under `metadata` (its command line's files)."""

from __future__ import annotations

from typing import Any

from workers.align.document_model import Paper, ReaderError, Section
from workers.align.readers._input import InputFile, decode_text, parse_json
from workers.align.text import scoring_sentences
from workers.align.tokenizers import Tokenizer


def read_science_parse(file: InputFile, tokenizer: Tokenizer) -> Paper:
    document = parse_json(file.name, decode_text(file))
    if not isinstance(document, dict):
        raise ReaderError(file.name, "whole file", "expected a science-parse JSON object")
    metadata = document.get("metadata", document)
    if not isinstance(metadata, dict) or not isinstance(metadata.get("sections"), list):
        raise ReaderError(
            file.name, "whole file", 'expected science-parse JSON with a "sections" list'
        )
    sections = []
    abstract = metadata.get("abstractText")
    if isinstance(abstract, str) and abstract.strip():
        sections.append(Section("Abstract", scoring_sentences(tokenizer.tokenize(abstract))))
    for number, entry in enumerate(metadata["sections"], start=1):
        text = _text_of(file.name, number, entry)
        heading = entry.get("heading") or ""
        if not isinstance(heading, str):
            raise ReaderError(file.name, f"section {number}", '"heading" must be a string')
        sections.append(
            Section(" ".join(heading.split()), scoring_sentences(tokenizer.tokenize(text)))
        )
    if not any(section.sentences for section in sections):
        raise ReaderError(file.name, "whole file", "the sections hold no text")
    title = metadata.get("title")
    return Paper(title if isinstance(title, str) and title else None, tuple(sections), file.name)


def _text_of(name: str, number: int, entry: Any) -> str:
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise ReaderError(
            name, f"section {number}", 'expected an object with a "text" string (and a "heading")'
        )
    return entry["text"]
