from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse


def frontend_app(request: HttpRequest) -> HttpResponse:
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
