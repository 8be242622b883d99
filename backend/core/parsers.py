"""The API's JSON parser: DRF's, with a bound on nesting, so that a deeply nested body is a
400 naming the limit instead of a RecursionError (a 500) in the parser or in whatever walks
the parsed value afterwards."""

from collections.abc import Iterable
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 64
"""Deeper than any request body Tandem reads (a tuning grid is three levels deep)."""


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as error:
            raise ParseError(_too_deep()) from error
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(_too_deep())
        return data


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
