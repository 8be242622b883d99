"""The lead's dashboards: each endpoint is one chart's data. Lead (or administrator) only."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.agreement.selectors import agreement_by_iteration, annotator_quality
from backend.agreement.serializers import AgreementFiguresSerializer, AgreementMeasuresSerializer
from backend.core.ids import parse_id
from backend.core.pagination import PaginatedApi, paginated_response
from backend.dashboards.selectors import (
    accuracy_by_iteration,
    active_jobs,
    annotator_effort,
    corpus_growth,
    document_effort,
    tuning_run_for,
)
from backend.iterations.models import IterationStatus
from backend.iterations.selectors import RECORD_METRICS
from backend.iterations.serializers import (
    AccuracySerializer,
    CorpusCountsSerializer,
    DistributionSerializer,
    TuningBriefSerializer,
)
from backend.jobs.apis import JobOutputSerializer
from backend.projects.permissions import LEAD_OR_ADMIN
from backend.projects.selectors import project_get
from backend.tuning.selectors import tuning_candidates
from backend.tuning.serializers import CANDIDATE_ORDERING_PARAMETER, CandidateOutputSerializer
from workers.align.annotation.agreement import MEASURES as AGREEMENT_MEASURES

DocumentAccuracySerializer = type(
    "DocumentAccuracySerializer",
    (serializers.Serializer,),
    {
        "document": serializers.IntegerField(),
        "name": serializers.CharField(),
        # WindowDiff is null where a document's window rounds to 0 (undefined).
        **{
            metric: serializers.FloatField(allow_null=metric == "windowdiff")
            for metric in RECORD_METRICS
        },
    },
)


class ReliabilityBinSerializer(serializers.Serializer):
    low = serializers.FloatField(help_text="The bin's confidences are from this value on.")
    high = serializers.FloatField(help_text="...up to this one (1 included in the last bin).")
    predicted = serializers.FloatField(help_text="Mean confidence of the bin's turns.")
    observed = serializers.FloatField(help_text="Share of the bin's turns the gold kept.")
    count = serializers.IntegerField()


class ReliabilitySerializer(serializers.Serializer):
    turns = serializers.IntegerField(
        help_text="Gold turns whose pre-alignment confidence is known."
    )
    expected_calibration_error = serializers.FloatField(
        allow_null=True, help_text="Count-weighted mean gap between predicted and observed."
    )
    auroc = serializers.FloatField(
        allow_null=True,
        help_text="Probability that a turn the gold kept has a higher confidence than one it "
        "changed (ties count half); null when the gold kept all turns or none.",
    )
    bins = ReliabilityBinSerializer(many=True, help_text="Ten equal bins; empty ones left out.")


class AccuracyDashboardApi(APIView):
    """Human-evaluated and automatic accuracy per iteration: values per document (box plot,
    histogram) and their count, mean, median, quartiles and extremes."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class IterationSerializer(serializers.Serializer):
            iteration = serializers.IntegerField(source="iteration.pk")
            number = serializers.IntegerField(source="iteration.number")
            status = serializers.ChoiceField(
                source="iteration.status", choices=IterationStatus.choices
            )
            documents = DocumentAccuracySerializer(many=True)
            summary = AccuracySerializer()
            reliability = ReliabilitySerializer(
                help_text="The pre-alignment's reliability diagram against the iteration's gold."
            )

        metrics = serializers.ListField(child=serializers.ChoiceField(choices=RECORD_METRICS))
        iterations = IterationSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        rows = accuracy_by_iteration(project_id=project_id)
        return Response(self.OutputSerializer({"metrics": RECORD_METRICS, "iterations": rows}).data)


class TuningDashboardApi(PaginatedApi):
    """The candidate table (the paper's Table 1) of the latest tuning run, or of
    `?iteration=<id>`'s; `?ordering=` any figure, best first (`-` for worst first); paginated."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        """A page of candidates, and the run they belong to."""

        count = serializers.IntegerField()
        next = serializers.URLField(allow_null=True)
        previous = serializers.URLField(allow_null=True)
        results = CandidateOutputSerializer(many=True)
        run = TuningBriefSerializer()

    @extend_schema(
        parameters=[
            OpenApiParameter("iteration", int),
            CANDIDATE_ORDERING_PARAMETER,
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses=OutputSerializer,
    )
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        run = tuning_run_for(project_id=project_id, iteration_id=_optional_id(request, "iteration"))
        response = paginated_response(
            queryset=tuning_candidates(
                run=run, ordering=request.query_params.get("ordering", "rank")
            ),
            serializer_class=CandidateOutputSerializer,
            request=request,
            view=self,
        )
        response.data["run"] = TuningBriefSerializer(run).data
        return response


def _optional_id(request: Request, name: str) -> int | None:
    value = request.query_params.get(name)
    if value in (None, ""):
        return None
    return parse_id(value, field=name)


class AnnotationEffortSerializer(serializers.Serializer):
    """One annotator's effort on one document."""

    turns_changed = serializers.IntegerField()
    turns_reviewed = serializers.IntegerField(
        help_text="Visited, confirmed or changed in the editor."
    )
    turns_spot_checked = serializers.IntegerField(
        help_text="Of the turns reviewed, those drawn for the spot check after review."
    )
    turns_accepted_without_review = serializers.IntegerField(
        help_text="Taken unread as pre-aligned when the review mode's submission accepted the rest."
    )
    seconds_spent = serializers.IntegerField(help_text="Active time in the editor.")
    submitted = serializers.BooleanField()


class EffortDocumentSerializer(serializers.Serializer):
    document = serializers.IntegerField()
    name = serializers.CharField()
    turns = serializers.IntegerField()


class EffortDashboardApi(APIView):
    """Annotator effort per iteration: turns changed, turns reviewed, turns accepted without
    review and active time, per document and in total."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class RowSerializer(serializers.Serializer):
            class DocumentSerializer(EffortDocumentSerializer, AnnotationEffortSerializer):
                pass

            iteration = serializers.IntegerField()
            number = serializers.IntegerField()
            annotator = serializers.IntegerField()
            username = serializers.CharField()
            documents = DocumentSerializer(many=True)
            document_count = serializers.IntegerField()
            submitted_count = serializers.IntegerField()
            turns = serializers.IntegerField(help_text="Of the annotator's documents.")
            turns_changed = serializers.IntegerField()
            turns_reviewed = serializers.IntegerField()
            turns_spot_checked = serializers.IntegerField()
            turns_accepted_without_review = serializers.IntegerField()
            seconds_spent = serializers.IntegerField(help_text="Active time in the editor.")
            turns_changed_per_document = serializers.FloatField()
            seconds_per_document = serializers.FloatField()

        rows = RowSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        rows = annotator_effort(project_id=project_id)
        return Response(self.OutputSerializer({"rows": rows}).data)


class DocumentEffortDashboardApi(APIView):
    """Effort per document: each document of each iteration (`?iteration=<id>`: of that one
    only) with every annotator's turns changed, reviewed and accepted without review, and
    active time; a document nobody opened has no annotation."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class IterationSerializer(serializers.Serializer):
            class DocumentSerializer(EffortDocumentSerializer):
                class AnnotationSerializer(AnnotationEffortSerializer):
                    annotator = serializers.IntegerField()
                    username = serializers.CharField()

                annotations = AnnotationSerializer(many=True)

            iteration = serializers.IntegerField()
            number = serializers.IntegerField()
            documents = DocumentSerializer(many=True)

        iterations = IterationSerializer(many=True)

    @extend_schema(parameters=[OpenApiParameter("iteration", int)], responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        iterations = document_effort(
            project_id=project_id, iteration_id=_optional_id(request, "iteration")
        )
        return Response(self.OutputSerializer({"iterations": iterations}).data)


class CorpusDashboardApi(APIView):
    """Gold pairs and trusted automatic pairs as each iteration closed, and now."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        class IterationSerializer(CorpusCountsSerializer):
            iteration = serializers.IntegerField()
            number = serializers.IntegerField()
            closed_at = serializers.DateTimeField()

        iterations = IterationSerializer(many=True)
        now = CorpusCountsSerializer()

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        growth = corpus_growth(project=project_get(project_id=project_id))
        return Response(self.OutputSerializer(growth).data)


class JobsDashboardApi(APIView):
    """Queued and running jobs with their progress, oldest first; poll it."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        jobs = JobOutputSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        jobs = active_jobs(project_id=project_id)
        return Response(self.OutputSerializer({"jobs": jobs}).data)


class DocumentAgreementSerializer(AgreementFiguresSerializer):
    document = serializers.IntegerField()
    name = serializers.CharField()
    pairs = AgreementFiguresSerializer(many=True)


AgreementSummarySerializer = type(
    "AgreementSummarySerializer",
    (serializers.Serializer,),
    {measure: DistributionSerializer() for measure in AGREEMENT_MEASURES},
)


class AgreementIterationSerializer(serializers.Serializer):
    iteration = serializers.IntegerField(source="iteration.pk")
    number = serializers.IntegerField(source="iteration.number")
    status = serializers.ChoiceField(source="iteration.status", choices=IterationStatus.choices)
    documents = DocumentAgreementSerializer(many=True)
    summary = AgreementSummarySerializer()
    overall = AgreementFiguresSerializer()
    pairs = AgreementFiguresSerializer(many=True)


class AgreementDashboardApi(APIView):
    """Agreement between annotators per iteration, on documents two or more of them submitted:
    each document's figures and their distribution (a box per iteration), and the figures
    pooled over the iteration, overall and per pair of annotators."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        measures = serializers.ListField(
            child=serializers.ChoiceField(choices=list(AGREEMENT_MEASURES))
        )
        iterations = AgreementIterationSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        rows = agreement_by_iteration(project_id=project_id)
        return Response(
            self.OutputSerializer({"measures": list(AGREEMENT_MEASURES), "iterations": rows}).data
        )


class AnnotatorQualityRowSerializer(serializers.Serializer):
    iteration = serializers.IntegerField()
    number = serializers.IntegerField()
    annotator = serializers.IntegerField()
    username = serializers.CharField()
    submitted_documents = serializers.IntegerField()
    seconds_spent = serializers.IntegerField()
    seconds_per_document = serializers.FloatField()
    against_gold = AgreementMeasuresSerializer(
        allow_null=True, help_text="On the documents an adjudication decided; null without."
    )


class AnnotatorQualityDashboardApi(APIView):
    """Per iteration and annotator: submitted documents, time per document, and agreement
    with the adjudicated gold (null while no document they submitted was adjudicated)."""

    permission_classes = LEAD_OR_ADMIN

    class OutputSerializer(serializers.Serializer):
        rows = AnnotatorQualityRowSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, project_id: int) -> Response:
        project_get(project_id=project_id)
        rows = annotator_quality(project_id=project_id)
        return Response(self.OutputSerializer({"rows": rows}).data)
