from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_object_type


class TandemAutoSchema(AutoSchema):
    """Names nested serializers after their view (`AnnotationApi.InputSerializer` becomes
    `AnnotationApiInput`): the HackSoft layout gives every view an `InputSerializer`, and
    without the prefix their schema components would collide. Serializers nested in a
    view's serializer (`EffortDashboardApi.OutputSerializer.RowSerializer`) likewise become
    `EffortDashboardApiOutputRow`."""

    def get_serializer_name(self, serializer, direction) -> str:
        qualified = type(serializer).__qualname__
        if "." not in qualified:
            return super().get_serializer_name(serializer, direction)
        return "".join(part.removesuffix("Serializer") for part in qualified.split("."))


class KeyedSerializerExtension(OpenApiSerializerExtension):
    """`KeyedSerializer` as `{"type": "object", "additionalProperties": <child_class>}`."""

    target_class = "backend.core.serializers.KeyedSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        child = auto_schema.resolve_serializer(self.target.child_class, direction)
        return build_object_type(additionalProperties=child.ref)
