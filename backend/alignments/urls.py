from django.urls import path

from backend.alignments.apis import (
    AlignerListApi,
    AnnotationApi,
    AnnotationReopenApi,
    AnnotationSubmitApi,
    EditorApi,
    ParameterSetListApi,
    PreAlignmentStartApi,
    ReadingPositionApi,
)

DOCUMENT = "projects/<id:project_id>/documents/<id:document_id>/"

urlpatterns = [
    path("aligners/", AlignerListApi.as_view(), name="aligner-list"),
    path(f"{DOCUMENT}editor/", EditorApi.as_view(), name="document-editor"),
    path(f"{DOCUMENT}annotation/", AnnotationApi.as_view(), name="annotation"),
    path(f"{DOCUMENT}position/", ReadingPositionApi.as_view(), name="reading-position"),
    path(f"{DOCUMENT}annotation/submit/", AnnotationSubmitApi.as_view(), name="annotation-submit"),
    path(f"{DOCUMENT}annotation/reopen/", AnnotationReopenApi.as_view(), name="annotation-reopen"),
    path(
        "projects/<id:project_id>/parameter-sets/",
        ParameterSetListApi.as_view(),
        name="parameter-set-list",
    ),
    path(
        "projects/<id:project_id>/pre-alignments/",
        PreAlignmentStartApi.as_view(),
        name="pre-alignment-start",
    ),
]
