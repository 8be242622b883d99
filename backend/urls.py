from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView

from backend.accounts.auth_apis import SessionApi
from backend.core.apis import HealthApi, HelpIndexApi, HelpPageApi, HelpSearchApi
from backend.core.ids import IdConverter
from backend.core.views import ApiDocsView, frontend_app, help_image, help_markdown

# Before the apps' URL modules below are imported: their patterns name `<id:...>`.
register_converter(IdConverter, "id")

api_v1: list[URLPattern | URLResolver] = [
    path("health/", HealthApi.as_view(), name="health"),
    path("auth/session/", SessionApi.as_view(), name="session"),
    path("help/", HelpIndexApi.as_view(), name="help-index"),
    path("help/search/", HelpSearchApi.as_view(), name="help-search"),
    re_path(r"^help/(?P<name>[a-z0-9-]+)/$", HelpPageApi.as_view(), name="help-page"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", ApiDocsView.as_view(url_name="schema"), name="swagger-ui"),
    path("auth/", include("backend.accounts.urls")),
    path("", include("backend.projects.urls")),
    path("", include("backend.documents.urls")),
    path("", include("backend.alignments.urls")),
    path("", include("backend.curation.urls")),
    path("", include("backend.iterations.urls")),
    path("", include("backend.dashboards.urls")),
    path("", include("backend.jobs.urls")),
    path("", include("backend.vectors.urls")),
    path("", include("backend.tuning.urls")),
    path("", include("backend.exports.urls")),
    path("", include("backend.ratings.urls")),
    path("", include("backend.salience.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    re_path(r"^help/screenshots/(?P<name>[^/]+)$", help_image, name="help-image"),
    re_path(r"^help/(?P<name>[a-z0-9-]+)\.md$", help_markdown, name="help-markdown"),
    re_path(r"^(?!api/|admin/|static/|media/|help/screenshots/).*$", frontend_app, name="frontend"),
]

handler404 = "backend.core.views.not_found"
handler500 = "backend.core.views.internal_error"
