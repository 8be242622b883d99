"""Grouping of tagged report blocks into interventions, shared by every report reader.

The paper's segmentation, as the public_meetings corpus applies it: a new segment starts at
each speaker name and at each heading that follows body text, so that headings belong to the
segment they introduce and a titled section without a new speaker is its own unit; anything
before the first heading or name (title page) forms a segment of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from workers.align.corpus import item_id
from workers.align.document_model import ReaderError, Report, Segment
from workers.align.text import scoring_sentences

BlockKind = Literal["h", "nom", "p", "table"]


@dataclass(frozen=True)
class Block:
    """One tagged unit of a report: a heading, a speaker name, a paragraph or a table."""

    kind: BlockKind
    text: str
    """Corpus-form tokens, without the surrounding tag."""

    def tagged(self) -> str:
        return f"<{self.kind}> {self.text} </{self.kind}>"


def build_report(blocks: Iterable[Block], source: str) -> Report:
    groups: list[list[Block]] = [[]]
    for block in blocks:
        if not block.text:
            continue
        opens_segment = block.kind in ("h", "nom")
        if opens_segment and any(previous.kind != "h" for previous in groups[-1]):
            groups.append([])
        groups[-1].append(block)
    if not groups[-1]:
        raise ReaderError(source, "whole document", "no report text found")
    return Report(
        segments=tuple(_segment(index, group) for index, group in enumerate(groups)),
        source=source,
    )


def build_paragraph_report(paragraphs: Iterable[Block], source: str) -> Report:
    """One segment per paragraph: for a report that names no speaker, the paragraphs are the
    interventions its writer separated."""
    groups = [[block] for block in paragraphs if block.text]
    if not groups:
        raise ReaderError(source, "whole document", "no report text found")
    return Report(
        segments=tuple(_segment(index, group) for index, group in enumerate(groups)),
        source=source,
        segmented_by="paragraphs",
    )


def _segment(index: int, blocks: list[Block]) -> Segment:
    text = " ".join(block.tagged() for block in blocks)
    speaker = next((block.text for block in blocks if block.kind == "nom"), None)
    return Segment(
        id=item_id(index),
        text=text,
        sentences=scoring_sentences(text),
        speaker=speaker,
        index=index,
    )
