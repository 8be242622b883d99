"""Checks real responses against the OpenAPI schema the API publishes, so that "the schema
says X, the API returns Y" fails a test: every object the schema describes is taken as
closed (a key the schema does not name is an error), and `nullable`, enums and formats are
enforced as an OpenAPI 3.0 client would read them."""

import functools
import json
import re
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from openapi_schema_validator import OAS30Validator, oas30_format_checker


@functools.cache
def openapi_schema() -> dict[str, Any]:
    """The schema `/api/v1/schema/` serves, as plain JSON."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(schema))


def response_schema(method: str, path: str, status: int, media_type: str) -> dict[str, Any]:
    """The schema of one response, found by its concrete path (`/api/v1/projects/3/`)."""
    operations = _operation(path)
    operation = operations.get(method.lower())
    assert operation is not None, f"The schema has no {method} {path}."
    declared = operation["responses"].get(str(status))
    assert declared is not None, f"The schema declares no {status} for {method} {path}."
    content = declared.get("content", {})
    assert media_type in content, (
        f"{method} {path} answered {media_type}; the schema declares {sorted(content)}."
    )
    return content[media_type]["schema"]


def assert_matches_schema(response, method: str = "GET") -> Any:
    """Validates a test client's response against its operation's schema; returns the body."""
    path = response.wsgi_request.path
    media_type = response["Content-Type"].split(";")[0].strip()
    body = (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()
    data = json.loads(body)
    schema = response_schema(method, path, response.status_code, media_type)
    validator = OAS30Validator(
        {**_readable(schema), "components": _closed_components()},
        format_checker=oas30_format_checker,
    )
    errors = sorted(validator.iter_errors(data), key=lambda error: list(error.absolute_path))
    assert not errors, f"{method} {path} does not match its schema:\n" + "\n".join(
        f"- at {'/'.join(map(str, error.absolute_path)) or '(root)'}: {error.message[:300]}"
        for error in errors[:10]
    )
    return data


def _operation(path: str) -> dict[str, Any]:
    """The most literal template that matches: `.../word-vectors/upload/` before
    `.../word-vectors/{vectors_id}/`."""
    templates = sorted(openapi_schema()["paths"].items(), key=lambda item: item[0].count("{"))
    for template, operations in templates:
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            return operations
    raise AssertionError(f"The schema has no path matching {path}.")


@functools.cache
def _closed_components() -> dict[str, Any]:
    components = _readable(openapi_schema()["components"])
    for schema in components["schemas"].values():
        _close(schema)
    return components


def _readable(schema: Any) -> Any:
    """`{"allOf": [ref], "nullable": true}`, drf-spectacular's nullable reference, as the
    `ref | null` that generated clients read it as: a strict OAS 3.0 validator would apply the
    reference to null too."""
    if isinstance(schema, list):
        return [_readable(value) for value in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: _readable(value) for key, value in schema.items()}
    if schema.get("nullable") and "allOf" in schema and "type" not in schema:
        return {"anyOf": [{"enum": [None]}, {"allOf": schema["allOf"]}]}
    return schema


def _close(schema: Any) -> None:
    if isinstance(schema, dict):
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for value in schema.values():
            _close(value)
    elif isinstance(schema, list):
        for value in schema:
            _close(value)
