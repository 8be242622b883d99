from django.conf import settings
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.views.defaults import page_not_found, server_error
from drf_spectacular.views import SpectacularSwaggerSplitView

from backend.core.errors import NotFound
from backend.core.help_pages import help_image_path


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


def help_image(request: HttpRequest, name: str) -> FileResponse:
    """A screenshot the help pages show (docs/screenshots/), to anyone, as the pages are."""
    try:
        path = help_image_path(name=name)
    except NotFound as error:
        raise Http404(error.message) from error
    return FileResponse(path.open("rb"), content_type="image/png")


def help_markdown(request: HttpRequest, name: str) -> HttpResponseRedirect:
    """The address help pages had when they were served as Markdown: the page in the app."""
    return HttpResponseRedirect(f"/help/{name}")


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
