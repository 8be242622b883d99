from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from backend.accounts.keys import KEY_PREFIX, hash_key, new_key
from backend.accounts.models import ApiToken
from backend.audit.services import record_event
from backend.core.errors import InvalidInput, NotFound

MAX_ACTIVE_TOKENS = 20


@transaction.atomic
def api_token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """Returns the token and its raw key, which is shown once and never stored."""
    name = name.strip()
    if not name:
        raise InvalidInput("A token needs a name.")
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise InvalidInput(f"You already have {MAX_ACTIVE_TOKENS} active tokens; revoke one.")
    raw_key = new_key()
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw_key[: len(KEY_PREFIX) + 4], key_hash=hash_key(raw_key)
    )
    record_event(actor=user, action="api_token.create", target=token, name=name)
    return token, raw_key


@transaction.atomic
def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound(f"You have no token {token_id}.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        record_event(actor=user, action="api_token.revoke", target=token, name=token.name)
    return token
