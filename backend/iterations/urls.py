from django.urls import path

from backend.iterations.apis import IterationListApi

urlpatterns = [
    path(
        "projects/<int:project_id>/iterations/",
        IterationListApi.as_view(),
        name="iteration-list",
    ),
]
