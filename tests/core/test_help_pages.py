"""The documentation as the app's help: docs/*.md rendered on the server, links between pages
and their anchors pointing at the app, screenshots served, a search across pages, and raw
HTML in a page escaped."""

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

DOCS = sorted(path for path in Path(settings.DOCS_DIR).glob("*.md") if path.stem != "README")
"""The pages of the help: every doc but docs/README.md, the repository's index of them, whose
part the help's own list of pages plays."""


def test_the_index_lists_every_page_with_its_title(client):
    pages = client.get("/api/v1/help/").json()["pages"]

    assert [page["name"] for page in pages] == [path.stem for path in DOCS]
    ratings = next(page for page in pages if page["name"] == "ratings")
    first_line = (Path(settings.DOCS_DIR) / "ratings.md").read_text().splitlines()[0]
    assert ratings["title"] == first_line.removeprefix("# ")


EXPERIMENT_PAGES = {
    "experiments" if path.stem == "README" else f"experiments-{path.stem}": path
    for path in sorted(Path(settings.DOCS_DIR, "experiments").glob("*.md"))
}
"""The dated experiment logs the reference pages cite: served as help pages too, linked from
them, though not in the help's list."""
PAGES = {**{path.stem: path for path in DOCS}, **EXPERIMENT_PAGES}


@pytest.mark.parametrize("name", PAGES)
def test_every_link_between_pages_reaches_a_page_and_its_heading(client, name):
    doc = PAGES[name]
    html = client.get(f"/api/v1/help/{name}/").json()["html"]

    assert ".md" not in " ".join(re.findall(r'href="([^"]*)"', html))
    for linked, anchor in re.findall(r'href="/help/([a-z0-9-]+)(?:#([\w-]*))?"', html):
        target = client.get(f"/api/v1/help/{linked}/")
        assert target.status_code == 200, f"{doc.name} links to a missing page {linked}"
        if anchor:
            assert f'id="{anchor}"' in target.json()["html"], f"{doc.name}: {linked}#{anchor}"
    for anchor in re.findall(r'href="#([\w-]+)"', html):
        assert f'id="{anchor}"' in html, f"{doc.name}: #{anchor}"


def test_screenshots_are_served_where_the_pages_point(client):
    html = client.get("/api/v1/help/leading/").json()["html"]
    sources = re.findall(r'<img src="([^"]+)"', html)

    shown = re.findall(
        r"!\[[^\]]*\]\(screenshots/([a-z0-9-]+)\.png\)",
        (Path(settings.DOCS_DIR) / "leading.md").read_text(encoding="utf-8"),
    )
    assert len(shown) >= 3
    assert sources == [f"/help/screenshots/{name}.png" for name in shown]
    for source in sources:
        image = client.get(source)
        assert image.status_code == 200
        assert image["Content-Type"] == "image/png"
        file = Path(settings.DOCS_DIR) / "screenshots" / source.rsplit("/", 1)[1]
        assert b"".join(image.streaming_content) == file.read_bytes()


@pytest.mark.parametrize("path", ["missing.png", "..%2Fleading.md", "editor.PNG"])
def test_only_existing_screenshots_are_served(client, path):
    assert client.get(f"/help/screenshots/{path}").status_code == 404


def test_unknown_pages_are_404_naming_them(client):
    response = client.get("/api/v1/help/missing/")

    assert response.status_code == 404
    assert response.json() == {"detail": "No help page missing."}
    assert client.get("/api/v1/help/..%2Fsettings/").status_code == 404


def test_the_old_markdown_addresses_lead_to_the_pages(client):
    response = client.get("/help/leading.md")

    assert response.status_code == 302
    assert response["Location"] == "/help/leading"


def test_the_search_finds_the_pages_with_every_word(client):
    response = client.get("/api/v1/help/search/", {"q": "Krippendorff ORDINAL"})

    results = response.json()["results"]
    assert response.status_code == 200
    assert {hit["name"] for hit in results} == {
        path.stem
        for path in DOCS
        if "krippendorff" in path.read_text().lower() and "ordinal" in path.read_text().lower()
    }
    assert all("krippendorff" in hit["excerpt"].lower() for hit in results)
    counts = [hit["hits"] for hit in results]
    assert counts == sorted(counts, reverse=True)
    ratings = next(hit for hit in results if hit["name"] == "ratings")
    assert ratings["anchor"] == "results"
    assert ratings["section"] == "Results"
    assert client.get("/api/v1/help/search/", {"q": "zzyzx"}).json()["results"] == []


@pytest.mark.parametrize("params", [{}, {"q": ""}, {"q": "x" * 201}])
def test_a_search_without_words_or_too_long_is_refused(client, params):
    response = client.get("/api/v1/help/search/", params)

    assert response.status_code == 400
    assert "q" in response.json()


def test_raw_html_scripts_and_inline_styles_do_not_reach_the_page(client, settings, tmp_path):
    (tmp_path / "odd.md").write_text(
        "# Odd\n\n<script>alert(1)</script>\n\n[run](javascript:alert(1)) "
        "[elsewhere](missing.md)\n\n| a | b |\n|--:|:-:|\n| 1 | 2 |\n"
    )
    settings.DOCS_DIR = tmp_path

    html = client.get("/api/v1/help/odd/").json()["html"]

    assert "<script" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript:' not in html
    assert 'href="missing.md"' in html
    assert "style=" not in html
    assert '<td class="align-right">1</td>' in html
    assert '<td class="align-center">2</td>' in html
