from django.urls import path

from backend.ratings.apis import (
    AssignedStudyListApi,
    RateApi,
    RaterNextApi,
    StudyDetailApi,
    StudyListApi,
    StudyResultsApi,
    UndoApi,
)

STUDIES = "projects/<id:project_id>/rating-studies/"
STUDY = f"{STUDIES}<id:study_id>/"

urlpatterns = [
    path(STUDIES, StudyListApi.as_view(), name="rating-studies"),
    path(f"{STUDIES}assigned/", AssignedStudyListApi.as_view(), name="rating-studies-assigned"),
    path(STUDY, StudyDetailApi.as_view(), name="rating-study"),
    path(f"{STUDY}results/", StudyResultsApi.as_view(), name="rating-study-results"),
    path(f"{STUDY}next/", RaterNextApi.as_view(), name="rating-study-next"),
    path(f"{STUDY}ratings/", RateApi.as_view(), name="rating-study-rate"),
    path(f"{STUDY}undo/", UndoApi.as_view(), name="rating-study-undo"),
]
