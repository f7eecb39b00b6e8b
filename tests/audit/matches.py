"""Finished matches exported by the service itself (the gateway on fakeredis, bots in every seat)."""

from __future__ import annotations

import asyncio
import uuid

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.games import get_game
from services.gateway.app import create_app
from services.ops.settings import Settings

# the service's signing key in these tests (TAVERN_SIGNING_KEY): its public half is what an auditor
# would fetch from /.well-known/tavern-signing-key
SIGNER = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
KEY = SIGNER.public_key()


async def _export(game_id: str, seats: int, timeout: float) -> bytes:
    settings = Settings(redis_url=None, queue_url=None, queue_name=f"audit-{uuid.uuid4().hex[:8]}", lease_s=1.0,
                        signing_key=bytes(range(32)).hex())
    app = create_app(settings, embedded_worker=True)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://tavern") as api:
            asked = {"game": game_id, "seats": seats, "bots": list(range(seats)), "bot": "random"}
            created = (await api.post("/v1/matches", json=asked)).json()
            url = f"/v1/matches/{created['match_id']}"
            auth = {"Authorization": f"Bearer {created['spectator_token']}"}
            deadline = asyncio.get_running_loop().time() + timeout
            while (await api.get(f"{url}/view", headers=auth)).json()["status"] != "finished":
                assert asyncio.get_running_loop().time() < deadline, f"{game_id}: the bots did not finish"
                await asyncio.sleep(0.02)
            answer = await api.get(f"{url}/export", headers=auth)
            assert answer.status_code == 200, answer.text
            return answer.content


def exported(game_id: str, seats: int | None = None, timeout: float = 120.0) -> bytes:
    """The export file of one whole match of ``game_id`` played by the service's random bots."""
    game = get_game(game_id)
    # at least two seats where the game allows it, so that a command can be forged onto another seat
    return asyncio.run(_export(game_id, seats or max(game.min_seats, min(2, game.max_seats)), timeout))
