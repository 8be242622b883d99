"""Settings dataclasses that describe and check themselves.

Every field of an aligner setting is declared with `setting(default, description)`, so its
one-line description lives beside its type and default. From that one declaration come the
checks a params file or an API body goes through (a wrong name or type gets an error that
names what is valid) and the schema the web application shows (`describe`): the two cannot
drift apart.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal


class SettingsError(ValueError):
    """A settings value that does not fit its declaration; the message says what would."""


def setting(default: Any, description: str) -> Any:
    """A dataclass field with a one-line description (shown to users as is)."""
    return dataclasses.field(default=default, metadata={"description": description})


SETTING_KINDS = ("number", "integer", "boolean", "choice")


@dataclass(frozen=True)
class SettingInfo:
    """One field as users see it: `kind` is one of SETTING_KINDS."""

    name: str
    kind: str
    nullable: bool
    choices: tuple[str, ...]
    default: Any
    description: str


def describe(kind: type) -> list[SettingInfo]:
    hints = typing.get_type_hints(kind)
    infos = []
    for field in dataclasses.fields(kind):
        value_type, nullable = _strip_none(hints[field.name])
        choices = typing.get_args(value_type) if typing.get_origin(value_type) is Literal else ()
        infos.append(
            SettingInfo(
                name=field.name,
                kind="choice" if choices else _KINDS[value_type],
                nullable=nullable,
                choices=tuple(choices),
                default=field.default,
                description=field.metadata.get("description", ""),
            )
        )
    return infos


def build(kind: type, values: Any, where: str) -> Any:
    """An instance of the settings dataclass `kind` from plain JSON values (missing fields
    take their defaults); `where` names the section in errors ("turns", "scoring")."""
    if not isinstance(values, Mapping):
        raise SettingsError(f"{where} must be an object of settings, got {values!r}.")
    infos = {info.name: info for info in describe(kind)}
    unknown = sorted(set(values) - set(infos))
    if unknown:
        raise SettingsError(
            f"There is no setting {where}.{unknown[0]}{_suggestion(unknown[0], infos)}; "
            f"the {where} settings are {in_words(infos)}."
        )
    checked = {name: _checked(infos[name], value, where) for name, value in values.items()}
    instance = kind(**checked)
    validate = getattr(instance, "validate", None)
    if validate is not None:
        try:
            validate()
        except ValueError as error:
            raise SettingsError(f"{where}: {error}.") from error
    return instance


def in_words(names: Iterable[str], conjunction: str = "and") -> str:
    """'a, b and c': names as a sentence lists them."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items) or "none"
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def closest(name: str, candidates: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def _suggestion(name: str, candidates: Iterable[str]) -> str:
    match = closest(name, candidates)
    return f" (did you mean {match}?)" if match else ""


_KINDS = {float: "number", int: "integer", bool: "boolean"}


def _strip_none(hint: Any) -> tuple[Any, bool]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        members = [member for member in typing.get_args(hint) if member is not type(None)]
        if len(members) == 1:
            return members[0], True
    return hint, False


def _checked(info: SettingInfo, value: Any, where: str) -> Any:
    """The value as the field stores it (an integer given for a number becomes a float)."""
    name = f"{where}.{info.name}"
    if value is None:
        if info.nullable:
            return None
        raise SettingsError(f"{name} must not be null.")
    if info.kind == "choice":
        if value in info.choices:
            return value
        raise SettingsError(
            f"{name} must be one of {in_words(map(str, info.choices), 'or')}, got {value!r}."
        )
    if info.kind == "boolean":
        if isinstance(value, bool):
            return value
        raise SettingsError(f"{name} must be true or false, got {value!r}.")
    if info.kind == "integer":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise SettingsError(f"{name} must be an integer, got {value!r}.")
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    raise SettingsError(f"{name} must be a finite number, got {value!r}.")
