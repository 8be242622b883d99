from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from backend.core.apis import HealthApi
from backend.core.auth_apis import SessionApi
from backend.core.views import frontend_app

api_v1 = [
    path("health/", HealthApi.as_view(), name="health"),
    path("auth/session/", SessionApi.as_view(), name="session"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("auth/", include("backend.accounts.urls")),
    path("", include("backend.projects.urls")),
    path("", include("backend.documents.urls")),
    path("", include("backend.alignments.urls")),
    path("", include("backend.iterations.urls")),
    path("", include("backend.dashboards.urls")),
    path("", include("backend.jobs.urls")),
    path("", include("backend.vectors.urls")),
    path("", include("backend.tuning.urls")),
    path("", include("backend.audit.urls")),
    path("", include("backend.exports.urls")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    re_path(r"^(?!api/|admin/|static/|media/).*$", frontend_app, name="frontend"),
]
