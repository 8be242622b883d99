from django.contrib.auth.models import User
from django.db.models import QuerySet

from backend.accounts.models import ApiToken


def api_token_list(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user)
