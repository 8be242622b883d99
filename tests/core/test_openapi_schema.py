from typing import Any

from django.core.management import call_command
from openapi_spec_validator import validate

from tests.openapi import openapi_schema

FREE_FORM = {
    "AuditEventListApiOutput.details": "what an action changed: its keys are the action's own",
}
"""Response fields that are JSON objects of any shape, by design, with the reason."""


def test_the_openapi_schema_is_valid_and_generated_without_warnings(tmp_path):
    schema = tmp_path / "schema.yml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))

    assert "/api/v1/projects/{project_id}/documents/{document_id}/editor/" in schema.read_text()


def test_the_schema_passes_the_openapi_specification_validator():
    validate(openapi_schema())


def test_no_response_is_an_untyped_catch_all():
    untyped = sorted(
        place
        for path, operations in openapi_schema()["paths"].items()
        for method, operation in operations.items()
        for status, response in operation["responses"].items()
        for media_type, content in response.get("content", {}).items()
        for place in _untyped(content["schema"], f"{method.upper()} {path} {status} {media_type}")
    )

    assert not untyped, "Responses with an object or value of any shape:\n" + "\n".join(untyped)


def _untyped(schema: dict[str, Any], where: str, seen: frozenset[str] = frozenset()):
    """The places under `schema` that say nothing of their shape: `{}`, or an object with
    neither properties nor a typed `additionalProperties`."""
    components = openapi_schema()["components"]["schemas"]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            yield from _untyped(components[name], name, seen | {name})
        return
    shape = set(schema) - {"description", "readOnly", "nullable", "title", "default", "example"}
    if not shape and where not in FREE_FORM:
        yield where
    if schema.get("type") == "object" and "properties" not in schema:
        additional = schema.get("additionalProperties")
        if not isinstance(additional, dict) or not additional:
            yield where
        else:
            yield from _untyped(additional, f"{where}{{*}}", seen)
    for name, field in schema.get("properties", {}).items():
        yield from _untyped(field, f"{where}.{name}", seen)
    if schema.get("type") == "array":
        yield from _untyped(schema.get("items", {}), f"{where}[]", seen)
    for combined in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(combined, []):
            yield from _untyped(part, where, seen)
