"""The API's JSON parser: DRF's, with a bound on nesting, so that a deeply nested body is a
400 naming the limit instead of a RecursionError (a 500) in the parser or in whatever walks
the parsed value afterwards, and refusing numbers a float cannot hold (`1e999999` reads as
infinity, which no field or column expects: an id of infinity reached the ORM, a 500)."""

import codecs
import json
import math
from collections.abc import Iterable, Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import get_encoding  # type: ignore[attr-defined]  # newer than the stubs
from rest_framework.utils.json import strict_constant

MAX_JSON_DEPTH = 64
"""Deeper than any request body Tandem reads (a tuning grid is three levels deep)."""


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = get_encoding(parser_context or {})
        try:
            data = json.load(
                codecs.getreader(encoding)(stream),
                parse_constant=strict_constant,
                parse_float=finite_float,
            )
        except RecursionError as error:
            raise ParseError(_too_deep()) from error
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from error
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(_too_deep())
        return data


def finite_float(literal: str) -> float:
    """The number a JSON float literal writes, refused (ValueError) when it overflows to
    infinity; NaN and Infinity themselves are refused by `strict_constant`."""
    number = float(literal)
    if not math.isfinite(number):
        shown = literal if len(literal) <= 30 else f"{literal[:30]}..."
        raise ValueError(f"the number {shown} is too large for a float")
    return number


def json_depth(value: Any) -> int:
    """How many arrays and objects deep `value` nests, counted without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


def _too_deep() -> str:
    return f"JSON parse error - the body nests deeper than {MAX_JSON_DEPTH} levels."
