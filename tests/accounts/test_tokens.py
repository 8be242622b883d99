from rest_framework.test import APIClient

from backend.accounts.models import ApiToken


def test_a_token_is_shown_once_stored_hashed_and_authenticates(world):
    created = world.client("annotator").post("/api/v1/auth/tokens/", {"name": "cli"}, format="json")

    key = created.json()["key"]
    token = ApiToken.objects.get()
    assert key not in (token.key_hash, token.prefix)
    assert key.startswith(token.prefix)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    listed = client.get("/api/v1/auth/tokens/")
    assert listed.status_code == 200
    assert "key" not in listed.json()[0]
    assert client.get(f"/api/v1/projects/{world.project.pk}/documents/").status_code == 200


def test_a_revoked_token_no_longer_authenticates(world):
    annotator = world.client("annotator")
    key = annotator.post("/api/v1/auth/tokens/", {"name": "cli"}, format="json").json()["key"]
    token_id = ApiToken.objects.get().pk

    assert annotator.delete(f"/api/v1/auth/tokens/{token_id}/").status_code == 204

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    response = client.get("/api/v1/projects/")
    assert response.status_code == 401
    assert response.json()["detail"] == "Unknown or revoked token."


def test_nobody_revokes_someone_elses_token(world):
    world.client("annotator").post("/api/v1/auth/tokens/", {"name": "mine"}, format="json")
    token_id = ApiToken.objects.get().pk

    response = world.client("lead").delete(f"/api/v1/auth/tokens/{token_id}/")

    assert response.status_code == 404
    assert ApiToken.objects.get().revoked_at is None


def test_an_unknown_token_is_refused(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token tdm_nonsense")

    assert client.get("/api/v1/projects/").status_code == 401
