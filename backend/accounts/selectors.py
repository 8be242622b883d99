from django.db.models import QuerySet

from backend.accounts.models import ApiToken


def api_token_list(*, user) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user)
