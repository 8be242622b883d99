"""The bootstrap loop over HTTP: leads open, close and promote; members read."""

from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from backend.alignments.serializers import AlignmentParamsSerializer
from backend.core.authentication import Permission, SignedInRequest
from backend.core.pagination import PaginatedApi, paginated_response
from backend.core.serializers import IdField
from backend.documents.models import Document
from backend.documents.selectors import document_get_for_write, documents_by_ids
from backend.iterations.double_annotation import DoubleAnnotation
from backend.iterations.models import StartingParameters
from backend.iterations.proposals import DEFAULT_POLICY, batch_proposal
from backend.iterations.review import document_review, iteration_review
from backend.iterations.selectors import (
    accuracy_summary,
    iteration_documents,
    iteration_get,
    iteration_list,
    iteration_record,
    promotable_candidate,
    promotable_parameter_set,
)
from backend.iterations.serializers import (
    AccuracySerializer,
    BatchDocumentSerializer,
    IterationDetailSerializer,
    IterationOutputSerializer,
    RecordDetailSerializer,
)
from backend.iterations.services import (
    iteration_add_documents,
    iteration_cancel,
    iteration_close,
    iteration_open,
    iteration_pre_align_again,
    iteration_promote,
    iteration_review_set,
    iteration_tune_again,
)
from backend.iterations.spot_check import document_spot_check_draw
from backend.projects.permissions import LEAD_OR_ADMIN, MEMBER_OR_ADMIN, sees_only_assigned
from backend.projects.selectors import project_get
from backend.tuning.serializers import GridField
from workers.align.annotation.selection import SelectionPolicy

MAX_BATCH = 1000


def _detail(request: SignedInRequest, project_id: int, iteration_id: int) -> dict:
    """Leads see the whole batch; an annotator only what is theirs (see iteration_documents)."""
    iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
    annotator = request.user if sees_only_assigned(request, iteration.project_id) else None
    batch = iteration_documents(iteration=iteration, annotator=annotator)
    return {
        **IterationOutputSerializer(iteration).data,
        "accuracy": AccuracySerializer(accuracy_summary(iteration, annotator=annotator)).data,
        "documents": BatchDocumentSerializer(batch, many=True).data,
    }


def _double_annotation(data: dict | None) -> DoubleAnnotation | None:
    if data is None:
        return None
    return DoubleAnnotation(
        share=data.get("share"),
        documents=tuple(data["documents"]) if "documents" in data else None,
        seed=data.get("seed"),
        annotators=tuple(data.get("annotators", ())),
    )


class AssignmentSerializer(serializers.Serializer):
    document = IdField()
    annotators = serializers.ListField(child=IdField(), max_length=100)


def _assignments(data: dict) -> dict[int, list[int]]:
    return {item["document"]: item["annotators"] for item in data.get("assignments", [])}


class IterationListApi(PaginatedApi):
    permission_classes = MEMBER_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        class DoubleAnnotationSerializer(serializers.Serializer):
            share = serializers.FloatField(min_value=0, max_value=1, required=False)
            documents = serializers.ListField(child=IdField(), required=False, max_length=MAX_BATCH)
            seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
            annotators = serializers.ListField(child=IdField(), required=False, max_length=100)

            def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
                if ("share" in attrs) == ("documents" in attrs):
                    raise serializers.ValidationError(
                        "Ask for a `share` of the batch or name its `documents`, one of the two."
                    )
                return attrs

        name = serializers.CharField(max_length=200, required=False, allow_blank=True)
        starting_parameters = serializers.ChoiceField(
            choices=StartingParameters.choices,
            default=StartingParameters.SHIPPED,
            help_text="What pre-aligns the batch while no parameters are in use yet (the "
            "first iteration): the shipped defaults, or the diagonal as in the paper. Later "
            "iterations use the parameters in use, and this is ignored.",
        )
        documents = serializers.ListField(child=IdField(), min_length=1, max_length=MAX_BATCH)
        assignments = AssignmentSerializer(many=True, required=False)
        double_annotation = DoubleAnnotationSerializer(
            required=False,
            help_text="Give a share of the batch (drawn with a recorded seed) or the documents "
            "named a second annotator, from `annotators` or the project's annotators.",
        )

    def get_permissions(self) -> Sequence[Permission]:
        if self.request.method == "POST":
            return [permission() for permission in LEAD_OR_ADMIN]
        return super().get_permissions()

    @extend_schema(responses=IterationOutputSerializer(many=True))
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        project_get(project_id=project_id)
        return paginated_response(
            queryset=iteration_list(project_id=project_id),
            serializer_class=IterationOutputSerializer,
            request=request,
            view=self,
        )

    @extend_schema(request=InputSerializer, responses={201: IterationDetailSerializer})
    def post(self, request: SignedInRequest, project_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        project = project_get(project_id=project_id)
        iteration = iteration_open(
            actor=request.user,
            project=project,
            documents=documents_by_ids(project_id=project_id, document_ids=data["documents"]),
            assignments=_assignments(data),
            double=_double_annotation(data.get("double_annotation")),
            name=data.get("name", ""),
            starting=data["starting_parameters"],
        )
        detail = _detail(request, project_id, iteration.pk)
        return Response(detail, status=status.HTTP_201_CREATED)


class IterationDetailApi(APIView):
    """Everything about one iteration, past or present: its batch with assignees and
    annotations, the parameters it was pre-aligned with, its records and its tuning."""

    permission_classes = MEMBER_OR_ADMIN

    @extend_schema(responses=IterationDetailSerializer)
    def get(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        return Response(_detail(request, project_id, iteration_id))


class IterationCloseApi(APIView):
    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        tune = serializers.BooleanField(default=True)
        grid = GridField(required=False)

    @extend_schema(request=InputSerializer, responses=IterationDetailSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration_close(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            tune=serializer.validated_data["tune"],
            grid=serializer.validated_data.get("grid"),
        )
        return Response(_detail(request, project_id, iteration_id))


class IterationCancelApi(APIView):
    """Gives up an open iteration: its documents are freed for the next batch."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=None, responses=IterationDetailSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        iteration_cancel(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
        )
        return Response(_detail(request, project_id, iteration_id))


class IterationDocumentsApi(APIView):
    """Adds documents to an open iteration; they are pre-aligned like the rest of its batch."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        documents = serializers.ListField(child=IdField(), min_length=1, max_length=MAX_BATCH)
        assignments = AssignmentSerializer(many=True, required=False)

    @extend_schema(request=InputSerializer, responses=IterationDetailSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        iteration_add_documents(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            documents=documents_by_ids(project_id=project_id, document_ids=data["documents"]),
            assignments=_assignments(data),
        )
        return Response(_detail(request, project_id, iteration_id))


class IterationPreAlignApi(APIView):
    """Starts a failed or cancelled pre-alignment of the batch again."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(request=None, responses=IterationDetailSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        iteration_pre_align_again(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
        )
        return Response(_detail(request, project_id, iteration_id))


class IterationTuneApi(APIView):
    """Starts a failed, cancelled or skipped tuning of a closed iteration again."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        grid = GridField(required=False)

    @extend_schema(request=InputSerializer, responses=IterationDetailSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration_tune_again(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            grid=serializer.validated_data.get("grid"),
        )
        return Response(_detail(request, project_id, iteration_id))


class IterationPromoteApi(APIView):
    """Promote the proposal (empty body), another candidate of the iteration's tuning run,
    or any parameter set of the project."""

    permission_classes = LEAD_OR_ADMIN

    class InputSerializer(serializers.Serializer):
        candidate = IdField(required=False)
        parameter_set = IdField(required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "candidate" in attrs and "parameter_set" in attrs:
                raise serializers.ValidationError("Name a candidate or a parameter set, not both.")
            return attrs

    class OutputSerializer(serializers.Serializer):
        promoted_parameter_set = serializers.IntegerField(source="pk")
        name = serializers.CharField()
        params = AlignmentParamsSerializer()

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def post(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
        parameter_set = iteration_promote(
            actor=request.user,
            iteration=iteration,
            candidate=promotable_candidate(iteration=iteration, candidate_id=data.get("candidate")),
            parameter_set=promotable_parameter_set(
                project_id=project_id, parameter_set_id=data.get("parameter_set")
            ),
        )
        return Response(self.OutputSerializer(parameter_set).data)


class IterationRecordApi(APIView):
    """One document's record with its label arrays: the pre-alignment as shown and the gold."""

    permission_classes = LEAD_OR_ADMIN

    @extend_schema(responses=RecordDetailSerializer)
    def get(
        self, request: SignedInRequest, project_id: int, iteration_id: int, document_id: int
    ) -> Response:
        iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
        record = iteration_record(iteration=iteration, document_id=document_id)
        return Response(RecordDetailSerializer(record).data)


class BatchProposalApi(APIView):
    """Tandem's proposal of the next batch by a policy: the documents and why each was
    chosen. A read: it opens nothing, and the lead may take it or leave it."""

    permission_classes = LEAD_OR_ADMIN

    class FilterSerializer(serializers.Serializer):
        policy = serializers.ChoiceField(
            choices=[policy.value for policy in SelectionPolicy],
            default=DEFAULT_POLICY.value,
            help_text="random (a seeded draw), uncertainty (most wrong turns expected from the "
            "current pre-alignment's confidences) or diversity (least like the gold so far).",
        )
        size = serializers.IntegerField(min_value=1, max_value=MAX_BATCH)
        seed = serializers.IntegerField(
            min_value=0,
            max_value=2**31 - 1,
            required=False,
            help_text="The random draw's seed; drawn and returned when not given.",
        )

    class OutputSerializer(serializers.Serializer):
        class ProposedSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            name = serializers.CharField()
            score = serializers.FloatField(
                help_text="What the policy ranked by: expected wrong turns (uncertainty), "
                "cosine with the nearest gold or batch document (diversity), 0 (random)."
            )
            reason = serializers.CharField()

        class UnrankedSerializer(serializers.Serializer):
            id = serializers.IntegerField()
            name = serializers.CharField()
            reason = serializers.CharField()

        policy = serializers.ChoiceField(choices=[policy.value for policy in SelectionPolicy])
        size = serializers.IntegerField()
        candidates = serializers.IntegerField(
            help_text="Documents the batch could take: imported, in no iteration yet."
        )
        gold_documents = serializers.IntegerField()
        seed = serializers.IntegerField(allow_null=True)
        documents = ProposedSerializer(many=True, help_text="In the order chosen.")
        unranked = UnrankedSerializer(
            many=True,
            help_text="Candidates uncertainty could not rank (no pre-alignment yet); empty for "
            "the other policies.",
        )

    @extend_schema(parameters=[FilterSerializer], responses=OutputSerializer)
    def get(self, request: SignedInRequest, project_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        proposal = batch_proposal(
            project=project_get(project_id=project_id), **filters.validated_data
        )
        return Response(self.OutputSerializer(proposal).data)


class ReviewPlanSerializer(serializers.Serializer):
    threshold = serializers.FloatField()
    shown_share = serializers.FloatField(help_text="Turns the review mode shows / all turns.")
    estimated_residual_error = serializers.FloatField(
        help_text="Expected wrong labels among the turns accepted unread / all turns."
    )


class AfterReviewSerializer(serializers.Serializer):
    documents = serializers.IntegerField(help_text="Submitted documents with confidences.")
    turns = serializers.IntegerField()
    turns_read = serializers.IntegerField(help_text="Turns an annotator read or changed.")
    shown_read = serializers.IntegerField(
        help_text="Turns the review mode showed that were read: what the re-estimate reads."
    )
    read_kept = serializers.FloatField(
        help_text="Share of the shown turns read whose pre-aligned label was kept."
    )
    read_expected_kept = serializers.FloatField(
        help_text="The same share as the confidences expected it."
    )
    estimated_residual_error = serializers.FloatField(
        help_text="Expected wrong labels among the unread turns / all turns of the submitted "
        "documents, their confidences shifted by what the shown turns' review found."
    )
    estimated_residual_error_sd = serializers.FloatField(
        help_text="How far that estimate may miss the residual error: a standard deviation, as "
        "a share of the turns, larger on fewer documents."
    )
    spot_checked_documents = serializers.IntegerField(
        help_text="Submitted documents whose turns left unread were spot-checked (or that left "
        "none unread)."
    )
    spot_checked_turns = serializers.IntegerField(help_text="Turns drawn for those spot checks.")
    estimated_residual_error_spot_checked = serializers.FloatField(
        allow_null=True,
        help_text="The estimate above weighed with the spot checks' own, by their variances; "
        "null unless every submitted document counts in spot_checked_documents.",
    )
    estimated_residual_error_spot_checked_sd = serializers.FloatField(
        allow_null=True,
        help_text="How far that estimate may miss the residual error: a standard deviation, as "
        "a share of the turns; null with it.",
    )


class SpotCheckPrecisionSerializer(serializers.Serializer):
    share = serializers.FloatField(
        help_text="The spot check's share of the turns left unread: the one set, or the "
        "suggested one while none is."
    )
    turns_drawn = serializers.IntegerField(
        help_text="Turns it would draw of those the threshold in force leaves unread."
    )
    model_error_sd = serializers.FloatField(
        help_text="How far the estimate without it typically misses the residual error "
        "(a standard deviation, as a share of the batch's turns)."
    )
    combined_error_sd = serializers.FloatField(
        help_text="The same for the estimate weighed with the spot check's sample."
    )


class CalibrationsSerializer(serializers.Serializer):
    learned = serializers.IntegerField(
        help_text="Pre-alignments calibrated by a decision learned on the project's gold."
    )
    prior = serializers.IntegerField(
        help_text="Pre-alignments calibrated by the shipped prior, fitted on public_meetings."
    )
    none = serializers.IntegerField(
        help_text="Pre-alignments with no calibration known: the engine's own confidence, "
        "or a file's."
    )


class IterationReviewApi(APIView):
    """The iteration's review threshold, and what it (or another) implies over the batch's
    pre-alignments: the share of turns the review mode shows and the estimated residual
    error of the gold when the rest is accepted unread."""

    permission_classes = LEAD_OR_ADMIN

    class FilterSerializer(serializers.Serializer):
        threshold = serializers.FloatField(
            required=False, min_value=0, max_value=1, help_text="A threshold to preview."
        )
        target = serializers.FloatField(
            required=False,
            min_value=0,
            max_value=1,
            help_text="A residual error to aim at: previews the lowest threshold whose "
            "estimate meets it.",
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if "threshold" in attrs and "target" in attrs:
                raise serializers.ValidationError(
                    "Preview a threshold or a target residual error, not both."
                )
            return attrs

    class InputSerializer(serializers.Serializer):
        threshold = serializers.FloatField(
            required=False,
            allow_null=True,
            min_value=0,
            max_value=1,
            help_text="Null for auto; left as it is when absent.",
        )
        spot_check = serializers.FloatField(
            required=False,
            allow_null=True,
            min_value=0,
            max_value=1,
            help_text="The share of the turns left unread after review drawn for a spot check "
            "before the rest may be accepted; null for none; left as it is when absent.",
        )

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError("Send a threshold, a spot_check, or both.")
            return attrs

    class OutputSerializer(serializers.Serializer):
        threshold = serializers.FloatField(allow_null=True, help_text="Null: auto.")
        spot_check = serializers.FloatField(
            allow_null=True, help_text="A spot check's share of the turns left unread; null: none"
        )
        target = serializers.FloatField(help_text="The residual error auto aims at.")
        documents = serializers.IntegerField(help_text="Pre-alignments with confidences.")
        turns = serializers.IntegerField()
        calibrations = CalibrationsSerializer(
            help_text="What made the confidences of the batch's pre-alignments probabilities."
        )
        current = ReviewPlanSerializer(help_text="What the threshold in force implies.")
        automatic = ReviewPlanSerializer(help_text="Auto's threshold and what it implies.")
        preview = ReviewPlanSerializer(
            allow_null=True,
            help_text="What the previewed threshold implies, or the lowest that meets the "
            "previewed target.",
        )
        spot_check_precision = SpotCheckPrecisionSerializer(
            help_text="What a spot check would draw at the threshold in force, and how far the "
            "estimate may miss with it."
        )
        after_review = AfterReviewSerializer(
            allow_null=True,
            help_text="The submitted documents' review and the residual error it leaves; "
            "null before any is submitted.",
        )

    @extend_schema(parameters=[FilterSerializer], responses=OutputSerializer)
    def get(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        iteration = iteration_get(project_id=project_id, iteration_id=iteration_id)
        review = iteration_review(
            iteration=iteration,
            preview=filters.validated_data.get("threshold"),
            preview_target=filters.validated_data.get("target"),
        )
        return Response(self.OutputSerializer(review).data)

    @extend_schema(request=InputSerializer, responses=OutputSerializer)
    def put(self, request: SignedInRequest, project_id: int, iteration_id: int) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        iteration = iteration_review_set(
            actor=request.user,
            iteration=iteration_get(project_id=project_id, iteration_id=iteration_id),
            changes=serializer.validated_data,
        )
        return Response(self.OutputSerializer(iteration_review(iteration=iteration)).data)


class DocumentReviewSerializer(serializers.Serializer):
    """What the review mode shows of one document to the caller."""

    iteration = serializers.IntegerField(allow_null=True)
    threshold = serializers.FloatField(
        allow_null=True, help_text="Null: no review mode (no iteration or no confidences)."
    )
    automatic = serializers.BooleanField(help_text="The threshold is the iteration's auto.")
    turns = serializers.ListField(
        child=serializers.IntegerField(), help_text="The turns to review, from 0, in order."
    )
    estimated_residual_error = serializers.FloatField(
        allow_null=True,
        help_text="Expected share of this document's turns left wrong when the rest is "
        "accepted unread.",
    )
    spot_check = serializers.FloatField(
        allow_null=True,
        help_text="The share of the turns left unread after review that a spot check "
        "draws before the rest may be accepted; null: no spot check.",
    )
    spot_check_turns = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The turns drawn for the caller's spot check, from 0, in order; empty "
        "before the draw.",
    )


class _DocumentReviewBase(APIView):
    """What the editor's review mode reads of a document, for whoever may open it in the
    editor."""

    permission_classes = MEMBER_OR_ADMIN

    def _document(self, request: SignedInRequest, project_id: int, document_id: int) -> Document:
        return document_get_for_write(
            project_id=project_id,
            document_id=document_id,
            user=request.user,
            only_assigned=sees_only_assigned(request, project_id),
        )


class DocumentReviewApi(_DocumentReviewBase):
    """The turns the editor's review mode shows of a document: those its pre-alignment is
    less sure of than its iteration's review threshold, and the caller's spot check."""

    @extend_schema(responses=DocumentReviewSerializer)
    def get(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        document = self._document(request, project_id, document_id)
        review = document_review(document=document, annotator=request.user)
        return Response(DocumentReviewSerializer(review).data)


class DocumentSpotCheckApi(_DocumentReviewBase):
    """Draws the caller's spot check once their review of the turns shown is done: a share,
    set by the iteration, of the turns still unread, chosen by the server at random. Asking
    again returns the same draw."""

    @extend_schema(request=None, responses=DocumentReviewSerializer)
    def post(self, request: SignedInRequest, project_id: int, document_id: int) -> Response:
        document = self._document(request, project_id, document_id)
        review = document_spot_check_draw(annotator=request.user, document=document)
        return Response(DocumentReviewSerializer(review).data)
