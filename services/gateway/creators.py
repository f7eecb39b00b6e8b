"""Who creates a match: the API key it sends (``TAVERN_API_KEYS``: trusted frontends), the
registered player whose token it bears, or nobody known but its address; which of these a creation
needs (``TAVERN_CREATE_IDENTITY``); and whose open-matches quotas it counts in (docs/LIMITS.md)."""

from __future__ import annotations

import hmac

from services.commands.open_matches import Holder, holder
from services.gateway.access import ApiError
from services.ops.limits import Limits


def identify(api_key: str | None, limits: Limits) -> str | None:
    """The API key sent, if it is one of the keys set; None without one; the API's 401 for a key
    that is none of them (and for none sent where only a key will do)."""
    if limits.identity_needed != "key" and (api_key is None or not limits.api_keys):
        return None  # none sent, or none to check it against: known by address (or player) only
    known = known_key(api_key, limits)
    if known is None:
        raise ApiError(401, "api_key_required", "creating a match needs a valid X-API-Key")
    return known


def require(api_key: str | None, player: str | None, limits: Limits) -> None:
    """Where a creation must name who makes it: a player's token or an API key, else the API's 401."""
    if limits.identity_needed == "player" and api_key is None and player is None:
        raise ApiError(401, "identity_required", "creating a match needs a player token (POST /v1/players) "
                       "or a valid X-API-Key")


def known_key(api_key: str | None, limits: Limits) -> str | None:
    """``api_key`` if it is one of the keys set, else None."""
    given = (api_key or "").encode("utf-8", "replace")
    # compared in constant time, each: a refusal's timing says nothing of how close a guess was
    if api_key and any(hmac.compare_digest(given, key.encode()) for key in limits.api_keys):
        return api_key
    return None


def holders(address: str, api_key: str | None, player: str | None, limits: Limits) -> tuple[Holder, ...]:
    """Every quota a creation counts in: its player's when it bears a player token, and its API
    key's (a trusted frontend's, larger: it creates for many people, from its own address), or
    else its client address's (registering players is free: a player token never stands in for
    the address of an anonymous caller)."""
    found = [] if player is None else [holder("player", player, limits.open_matches)]
    if api_key is not None:
        found.append(holder("key", api_key, limits.open_matches_per_api_key))
    else:
        found.append(holder("addr", address, limits.open_matches))
    return tuple(found)
