"""Who creates a match: with API keys set (``TAVERN_API_KEYS``), only a caller sending one of them
in ``X-API-Key`` may; without, anyone may (the embedded default), known by address only."""

from __future__ import annotations

import hmac

from services.gateway.access import ApiError
from services.ops.limits import Limits


def identify(api_key: str | None, limits: Limits) -> str | None:
    """The caller's API key, None without keys set; the API's 401 if keys are set and none matches."""
    if not limits.api_keys:
        return None
    given = (api_key or "").encode("utf-8", "replace")
    # compared in constant time, each: a refusal's timing says nothing of how close a guess was
    if api_key and any(hmac.compare_digest(given, key.encode()) for key in limits.api_keys):
        return api_key
    raise ApiError(401, "api_key_required", "creating a match needs a valid X-API-Key")
