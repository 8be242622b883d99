"""`field__in=[ids]` on PostgreSQL as one array parameter, `field = ANY(%s)`, instead of one
placeholder per id.

Selectors that go through a whole project read a batch of 200 documents at a time
(`backend.core.ids.IDS_PER_BATCH`), a few queries per batch, each with an IN list of up to
200 ids. psycopg binds parameters client-side for Django and splits every query on its
placeholders with a regular expression, caching only short queries: for a 2,000-document
export preview that splitting cost about a fifth of the request's time. One array parameter
makes each such query short and the same text whatever the batch's size. PostgreSQL plans
`IN (...)` and `= ANY(array)` alike, so rows and plans are unchanged; other values (None,
strings, subqueries, expressions) and other databases keep Django's own IN.
"""

from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db.models import Field
from django.db.models.fields.related import ForeignObject
from django.db.models.fields.related_lookups import RelatedIn
from django.db.models.lookups import In


class IntegersIn(In):
    """A list of integers rendered for PostgreSQL as one array."""

    def as_postgresql(self, compiler: Any, connection: Any) -> tuple[str, Any]:
        values = self._integer_values()
        if values is None:
            return self.as_sql(compiler, connection)
        lhs, lhs_params = self.process_lhs(compiler, connection)
        return f"{lhs} = ANY(%s)", (*lhs_params, values)

    def _integer_values(self) -> list[int] | None:
        if not self.rhs_is_direct_value():
            return None
        values = [value for value in self.rhs if value is not None]
        if not all(type(value) is int for value in values):
            return None
        if not values:
            raise EmptyResultSet
        return list(dict.fromkeys(values))


class RelatedIntegersIn(RelatedIn, IntegersIn):
    """`document_id__in` and `document__in`: the related lookup's preparation of its values
    (instances to ids) first, then the same rendering."""


def register() -> None:
    Field.register_lookup(IntegersIn)
    ForeignObject.register_lookup(RelatedIntegersIn)
