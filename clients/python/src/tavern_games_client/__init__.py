"""tavern-games-client: a typed client of the Tavern board-game service's HTTP API v1, sync
(``Tavern``) and asyncio (``AsyncTavern``), over httpx, with the match's streams (Server-Sent
Events and the WebSocket) as iterators that resume after a cut."""

from tavern_games_client.client import (
    AsyncMatchSocket,
    AsyncTavern,
    MatchLost,
    MatchSocket,
    StreamItem,
    Tavern,
    TavernError,
)
from tavern_games_client.models import (
    Accepted,
    ErrorBody,
    ErrorDetail,
    Joined,
    MatchCreated,
    PlayerCreated,
    PresenceFrame,
    ScoreLine,
    SeatToken,
    Started,
    TablePlayer,
    ViewEnvelope,
    WsAnswerFrame,
    WsPresenceFrame,
    WsServerFrame,
    WsViewFrame,
)

API_VERSION = "1"  # the API's version these models describe (info.version of /openapi.json)

__all__ = [
    "API_VERSION",
    "Accepted",
    "AsyncMatchSocket",
    "AsyncTavern",
    "ErrorBody",
    "ErrorDetail",
    "Joined",
    "MatchCreated",
    "MatchLost",
    "MatchSocket",
    "PlayerCreated",
    "PresenceFrame",
    "ScoreLine",
    "SeatToken",
    "Started",
    "StreamItem",
    "TablePlayer",
    "Tavern",
    "TavernError",
    "ViewEnvelope",
    "WsAnswerFrame",
    "WsPresenceFrame",
    "WsServerFrame",
    "WsViewFrame",
]
