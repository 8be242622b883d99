from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_object_type
from drf_spectacular.utils import Direction
from rest_framework.request import Request
from rest_framework.serializers import Serializer


class TandemAutoSchema(AutoSchema):
    """Names nested serializers after their view (`AnnotationApi.InputSerializer` becomes
    `AnnotationApiInput`): the HackSoft layout gives every view an `InputSerializer`, and
    without the prefix their schema components would collide. Serializers nested in a
    view's serializer (`EffortDashboardApi.OutputSerializer.RowSerializer`) likewise become
    `EffortDashboardApiOutputRow`."""

    def get_serializer_name(self, serializer: Serializer, direction: Direction) -> str:
        qualified = type(serializer).__qualname__
        if "." not in qualified:
            return super().get_serializer_name(serializer, direction)
        return "".join(part.removesuffix("Serializer") for part in qualified.split("."))


class KeyedSerializerExtension(OpenApiSerializerExtension):
    """`KeyedSerializer` as `{"type": "object", "additionalProperties": <child_class>}`."""

    target_class = "backend.core.serializers.KeyedSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        child = auto_schema.resolve_serializer(self.target.child_class, direction)
        return build_object_type(additionalProperties=child.ref)


ERROR_COMPONENT = "Error"
ERROR_SCHEMA = {
    "type": "object",
    "description": (
        "Every error answer: `detail` says what went wrong in one line a person can read. "
        "A refused field also comes under its own name with its messages "
        '(`{"detail": "name: This field is required.", "name": ["This field is required."]}`), '
        "and some errors add context (`field`, `limit_bytes`, `retry_after`, `current`)."
    ),
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
    "additionalProperties": True,
}
ERRORS_OF_EVERY_OPERATION = {
    "400": "The request is malformed or a value is refused; `detail` names it.",
    "401": "Not signed in (no session, no valid token).",
    "403": "Signed in without the role this operation needs.",
    "404": "No such object, or not one the caller may see.",
    "503": "The database or the task broker is unreachable; try again (`Retry-After`).",
}
ERRORS_OF_WRITES = {
    "409": "The object's state forbids it now (a stale version, a closed iteration, ...).",
    "413": "The body or an uploaded file is over its limit; `detail` names the limit.",
    "415": "An uploaded file is not of a format this operation reads.",
}
WRITES = ("post", "put", "patch", "delete")


def document_error_responses(
    result: dict[str, Any], generator: SchemaGenerator, request: Request | None, public: bool
) -> dict[str, Any]:
    """A drf-spectacular postprocessing hook: every operation declares its error answers
    with the one `Error` body, so clients and the schema tests read errors as they read
    successes. Responses a view documents itself (a 409 carrying the current state) stay."""
    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            errors = dict(ERRORS_OF_EVERY_OPERATION)
            if method in WRITES:
                errors |= ERRORS_OF_WRITES
            if "206" in operation["responses"]:
                errors["416"] = "The range asked for lies outside the file."
            if path.endswith("/auth/session/") and method == "post":
                errors["429"] = "Too many failed sign-ins; `retry_after` says how long to wait."
            for status_code, description in errors.items():
                operation["responses"].setdefault(
                    status_code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result
