from django.core.management import call_command


def test_the_openapi_schema_is_valid_and_generated_without_warnings(tmp_path):
    schema = tmp_path / "schema.yml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))

    assert "/api/v1/projects/{project_id}/documents/{document_id}/editor/" in schema.read_text()
