"""Page-number pagination for list endpoints that are plain APIViews (the HackSoft way).

A paginated view declares `pagination_class = StandardPagination` (through `PaginatedApi`):
`paginated_response` pages with that class, and the OpenAPI schema reads the same attribute to
declare the list as `{count, next, previous, results}` with its `page` and `page_size`
parameters, so the schema cannot say "array" where the API answers with a page.
"""

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView


class StandardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's page schema, with every key required: the answer always carries all four."""
        page = super().get_paginated_response_schema(schema)
        page["required"] = ["count", "next", "previous", "results"]
        return page


class PaginatedApi(APIView):
    """A view whose GET answers with one page of a list."""

    pagination_class: type[PageNumberPagination] = StandardPagination


def paginated_response(
    *,
    queryset: QuerySet[Any] | Sequence[Any],
    serializer_class: type[Serializer],
    request: Request,
    view: PaginatedApi,
) -> Response:
    paginator = view.pagination_class()
    page: list[Any] | None = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)
