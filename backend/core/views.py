from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html, format_html_join
from django.views.defaults import page_not_found, server_error
from drf_spectacular.views import SpectacularSwaggerSplitView


def frontend_app(request: HttpRequest) -> HttpResponse | FileResponse:
    """The single-page app's shell, for every route the browser owns."""
    index = settings.FRONTEND_DIST / "index.html"
    if not index.is_file():
        return HttpResponse(
            "The frontend is not built: run `npm run build` in frontend/ (scripts/run does).",
            status=503,
            content_type="text/plain",
        )
    response = FileResponse(index.open("rb"), content_type="text/html")
    response["Cache-Control"] = "no-cache"
    return response


def help_index(request: HttpRequest) -> HttpResponse:
    """The user documentation (docs/*.md), listed so that every page's Help link lands
    somewhere useful, on an instance without internet access too."""
    pages = sorted(path.name for path in settings.DOCS_DIR.glob("*.md"))
    items = format_html_join("", '<li><a href="{}">{}</a></li>', ((name, name) for name in pages))
    return HttpResponse(
        format_html(
            "<!doctype html><title>Tandem help</title><h1>Tandem help</h1>"
            '<p><a href="/">Back to Tandem</a> · <a href="/api/v1/docs/">API reference</a></p>'
            "<ul>{}</ul>",
            items,
        )
    )


def help_page(request: HttpRequest, name: str) -> FileResponse:
    """One documentation page, as the Markdown text it is written in."""
    path = settings.DOCS_DIR / name
    if path.parent != settings.DOCS_DIR or not path.is_file():
        raise Http404(f"No help page {name}.")
    return FileResponse(path.open("rb"), content_type="text/plain; charset=utf-8")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Under /api/, a URL that matches no route (an unknown path, or an id above a bigint)
    answers in the API's shape, as an unknown id does."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception)


def internal_error(request: HttpRequest) -> HttpResponse:
    """An API client gets JSON even from an unexpected failure; the traceback goes to the
    log, never to the caller."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"detail": "Internal server error: the failure is logged for the administrators."},
            status=500,
        )
    return server_error(request)


class ApiDocsView(SpectacularSwaggerSplitView):
    """Swagger UI with its script and styles served as files: no inline code, so the page
    keeps to the Content-Security-Policy."""

    template_name = "core/swagger_ui.html"
