from django.urls import path

from backend.alignments.apis import (
    AnnotationApi,
    AnnotationReopenApi,
    AnnotationSubmitApi,
    EditorApi,
    ParameterSetListApi,
    PreAlignmentStartApi,
)

DOCUMENT = "projects/<int:project_id>/documents/<int:document_id>/"

urlpatterns = [
    path(f"{DOCUMENT}editor/", EditorApi.as_view(), name="document-editor"),
    path(f"{DOCUMENT}annotation/", AnnotationApi.as_view(), name="annotation"),
    path(f"{DOCUMENT}annotation/submit/", AnnotationSubmitApi.as_view(), name="annotation-submit"),
    path(f"{DOCUMENT}annotation/reopen/", AnnotationReopenApi.as_view(), name="annotation-reopen"),
    path(
        "projects/<int:project_id>/parameter-sets/",
        ParameterSetListApi.as_view(),
        name="parameter-set-list",
    ),
    path(
        "projects/<int:project_id>/pre-alignments/",
        PreAlignmentStartApi.as_view(),
        name="pre-alignment-start",
    ),
]
