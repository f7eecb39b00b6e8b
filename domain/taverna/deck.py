"""The spell draw pile: drawing, with the Curse struck at once when it turns up."""

from __future__ import annotations

from domain.taverna import events as ev
from domain.taverna.content import SPELLS
from domain.taverna.state import Ctx

CURSE_COINS = 2  # ours: the Curse's effect is not in the rulebook


def draw_spell(ctx: Ctx, seat: int) -> None:
    """Draw the top spell; the Curse is not a spell: it strikes at once and the player draws again.
    An empty pile gives nothing (sold spells are not reshuffled)."""
    while ctx.state.spell_deck:
        card = ctx.state.spell_deck[0]
        if SPELLS[card].curse:
            ctx.emit(ev.CurseDrawn(seat=seat, card=card, coins=min(CURSE_COINS, ctx.state.players[seat].coins)))
            continue
        ctx.emit(ev.SpellDrawn(seat=seat, card=card))
        return
