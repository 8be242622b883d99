"""Token keys and their stored form; free of DRF so the authentication class can load early."""

import hashlib
import secrets

KEY_PREFIX = "tdm_"


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(raw_key: str) -> str:
    """A plain SHA-256 suffices: keys carry 256 random bits, so there is nothing to brute-force."""
    return hashlib.sha256(raw_key.encode()).hexdigest()
