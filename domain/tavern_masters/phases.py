"""A round: Day (buy Goods, hire Staff), Night (play Patrons), Counting the Till, the hand limit.

Day and Night are simultaneous: every seat acts against the one state and says Done; the phase
ends when all are Done and no trade offer is open.
"""

from __future__ import annotations

from domain.kernel import Rng, require
from domain.tavern_masters import events as ev
from domain.tavern_masters.builder import Builder
from domain.tavern_masters.commands import DiscardCard, PlayCard, PlayPatron, TMCommand
from domain.tavern_masters.content import card
from domain.tavern_masters.effects import allows_nobles, hires_free, is_tavern_card, stays, wants_met
from domain.tavern_masters.scoring import end_of_round, incomes
from domain.tavern_masters.state import State, next_server
from domain.tavern_masters.terms import any_matches

DEAL = 3  # Tavern cards each Day after the first, Patron cards each Night
HAND_LIMIT = 5


def hand_limit(state: State) -> int:
    return HAND_LIMIT + (1 if state.dirty_deeds else 0)


# --- Day ----------------------------------------------------------------------------------------


def play_price(state: State, seat: int, card_id: str, free: bool) -> int:
    """The Gold a Goods purchase or Staff hire costs; refuses what may not be played."""
    player = state.players[seat]
    require(state.phase == "day", "not_day", "Goods and Staff are played in the Day phase")
    require(not player.done, "already_done", "you are done for this phase")
    require(card_id in player.hand, "card_not_in_hand", "that card is not in your hand")
    require(is_tavern_card(card_id), "not_goods_or_staff", "only Goods and Staff are played by day")
    if free:
        require(hires_free(card_id, player.tavern), "hire_condition_not_met", "nothing in your Tavern hires it free")
        return 0
    cost = card(card_id).cost
    require(player.gold >= cost, "cannot_afford", "it costs {cost} Gold", cost=cost)
    return cost


def decide_play(state: State, command: PlayCard, seat: int) -> list:
    paid = play_price(state, seat, command.card, command.free)
    return [ev.CardPlayed(seat=seat, card=command.card, paid=paid)]


def legal_day(state: State, seat: int) -> list[TMCommand]:
    player = state.players[seat]
    out: list[TMCommand] = []
    for c in player.hand:
        if not is_tavern_card(c):
            continue
        if player.gold >= card(c).cost:
            out.append(PlayCard(card=c))
        if hires_free(c, player.tavern):
            out.append(PlayCard(card=c, free=True))
    return out


# --- Night --------------------------------------------------------------------------------------


def decide_patron(state: State, command: PlayPatron, seat: int) -> list:
    player = state.players[seat]
    require(state.phase == "night", "not_night", "Patrons are played in the Night phase")
    require(not player.done, "already_done", "you are done for this phase")
    require(command.card in player.hand, "card_not_in_hand", "that card is not in your hand")
    defn = card(command.card)
    require(defn.kind == "patron", "not_a_patron", "only Patrons are played at night")
    require(any_matches(player.tavern, defn.wants), "wants_not_in_tavern", "your Tavern has no {wants}",
            wants=defn.wants)
    require(not defn.noble or allows_nobles(player.tavern), "noble_not_allowed", "nothing in your Tavern allows Nobles")
    return [ev.CardPlayed(seat=seat, card=command.card, paid=0)]


def legal_night(state: State, seat: int) -> list[TMCommand]:
    player = state.players[seat]
    return [PlayPatron(card=c) for c in player.hand if card(c).kind == "patron" and wants_met(c, player.tavern)]


def decide_done(state: State, seat: int) -> list:
    require(state.phase in ("day", "night"), "nothing_to_finish", "Done ends a Day, a Night or a Dirty Deeds turn")
    require(not state.players[seat].done, "already_done", "you are already done for this phase")
    require(not any(d.by == seat for d in state.drafts), "offer_unsent", "send or withdraw the offer you are writing")
    return [ev.SeatDone(seat=seat)]


def phase_finished(state: State) -> bool:
    return all(p.done for p in state.players) and not state.offers


def settle_day(b: Builder, rng: Rng) -> bool:
    if not phase_finished(b.state):
        return False
    b.emit(ev.PhaseBegan(phase="night"))
    b.deal_all("patron", DEAL, "hand", rng)
    return True


# --- Counting the Till, the end check, the hand limit -------------------------------------------


def count_till(b: Builder) -> None:
    """Income, then the end check; if play goes on, Patrons who Like nothing seen leave."""
    b.emit(ev.IncomeCounted(gains=incomes(b.state)))
    ending = end_of_round(b.state)
    if ending is not None and ending[1] == "tie":
        b.emit(ev.TieRound(count=b.state.tie_rounds + 1))
    elif ending is not None:
        b.emit(ev.MatchEnded(winners=ending[0], reason=ending[1]))
        return
    for seat, player in enumerate(b.state.players):
        for c in player.tavern:
            if card(c).kind == "patron" and not stays(c, player.seen):
                b.emit(ev.CardMoved(card=c, owner=seat, src="tavern", dest_owner=seat, dest="discard"))
    b.emit(ev.PhaseBegan(phase="till"))


def decide_discard(state: State, command: DiscardCard, seat: int) -> list:
    player = state.players[seat]
    require(state.phase == "till", "not_end_of_round", "cards are discarded to the hand limit at the end of a round")
    require(len(player.hand) > hand_limit(state), "hand_within_limit", "your hand is within the limit")
    require(command.card in player.hand, "card_not_in_hand", "that card is not in your hand")
    return [ev.CardMoved(card=command.card, owner=seat, src="hand", dest_owner=seat, dest="discard")]


def legal_till(state: State, seat: int) -> list[TMCommand]:
    hand = state.players[seat].hand
    return [DiscardCard(card=c) for c in hand] if len(hand) > hand_limit(state) else []


def start_round(b: Builder, number: int, server: int, rng: Rng) -> None:
    b.emit(ev.RoundBegan(round=number, server=server), ev.PhaseBegan(phase="day"))
    if number > 1:
        b.deal_all("tavern", DEAL, "hand", rng)


def settle_till(b: Builder, rng: Rng) -> bool:
    """Everyone within the hand limit: the Server passes left and the next round begins."""
    state = b.state
    if any(len(p.hand) > hand_limit(state) for p in state.players):
        return False
    start_round(b, state.round + 1, next_server(state), rng)
    return True
