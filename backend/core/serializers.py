import dataclasses
import functools
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from rest_framework import serializers

from backend.core.ids import COUNT_MAX, ID_MAX


class ServiceCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()


class WorkersCheckSerializer(ServiceCheckSerializer):
    count = serializers.IntegerField()
    names = serializers.ListField(child=serializers.CharField())


class HealthOutputSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    version = serializers.CharField()
    database = ServiceCheckSerializer()
    broker = ServiceCheckSerializer()
    workers = WorkersCheckSerializer()


class HelpPageBriefSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The page's address is /help/{name}.")
    title = serializers.CharField()


class HelpIndexSerializer(serializers.Serializer):
    pages = HelpPageBriefSerializer(many=True)


class HelpPageSerializer(HelpPageBriefSerializer):
    html = serializers.CharField(
        help_text="The page rendered from its Markdown; raw HTML in it is escaped."
    )


class HelpSearchInputSerializer(serializers.Serializer):
    q = serializers.CharField(max_length=200, help_text="Words a page must all contain.")


class HelpHitSerializer(HelpPageBriefSerializer):
    anchor = serializers.CharField(help_text="The heading the excerpt is under; empty: the top.")
    section = serializers.CharField()
    excerpt = serializers.CharField()
    hits = serializers.IntegerField(help_text="Occurrences of the words in the page.")


class HelpSearchSerializer(serializers.Serializer):
    query = serializers.CharField()
    results = HelpHitSerializer(many=True)


class IdField(serializers.IntegerField):
    """An id in a request body."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(**kwargs)


class CountField(serializers.IntegerField):
    """A non-negative number a PositiveIntegerField column stores or is compared with."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", COUNT_MAX)
        super().__init__(**kwargs)


@functools.cache
def dataclass_serializer(kind: type, *, required: bool = True) -> type[serializers.Serializer]:
    """An output serializer with one field per field of the frozen dataclass `kind` (nested
    dataclasses become nested serializers), so the schema of a configuration the engine
    defines follows the engine instead of a copy. `required=False` when stored values may lack
    fields (they are read with the dataclass's defaults). The schema names it after `kind`, so
    each dataclass is shown one way only."""
    hints = typing.get_type_hints(kind)
    declared: dict[str, Any] = {
        item.name: _dataclass_field(hints[item.name], required=required)
        for item in dataclasses.fields(kind)
    }
    declared["Meta"] = type("Meta", (), {"ref_name": kind.__name__})
    return type(f"{kind.__name__}Serializer", (serializers.Serializer,), declared)


class StoredListField(serializers.ListField):
    """An output list read from one of our own JSON columns, whose items already have the
    child's type: passed on as it is, since converting each of a long document's thousands of
    items one by one cost a save more than its SQL. The child still gives the schema."""

    def to_representation(self, data: Iterable[Any]) -> list[Any]:
        return list(data)


class KeyedSerializer(serializers.Serializer):
    """A JSON object whose keys are names and whose values all have `child_class`'s shape;
    the schema shows it as such a map (`backend.core.schema`)."""

    child_class: type[serializers.Serializer]

    def to_representation(self, instance: Mapping[str, Any]) -> dict[str, Any]:
        child = self.child_class()
        return {key: child.to_representation(value) for key, value in instance.items()}


def _dataclass_field(hint: Any, *, required: bool) -> serializers.Field:
    options: dict[str, Any] = {"required": required}
    arguments = typing.get_args(hint)
    if typing.get_origin(hint) in (types.UnionType, typing.Union) and type(None) in arguments:
        (hint,) = (argument for argument in arguments if argument is not type(None))
        options["allow_null"] = True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return dataclass_serializer(hint, required=required)(**options)
    if typing.get_origin(hint) is typing.Literal:
        return serializers.ChoiceField(choices=typing.get_args(hint), **options)
    scalar = {bool: serializers.BooleanField, int: serializers.IntegerField}
    scalar |= {float: serializers.FloatField, str: serializers.CharField}
    if hint not in scalar:
        raise TypeError(f"No serializer field for a dataclass field of type {hint!r}.")
    return scalar[hint](**options)
