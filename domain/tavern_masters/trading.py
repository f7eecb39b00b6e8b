"""Trading between seats during the Day and the Night: an offer, then the other seat's answer.

Ruling (to keep every seat's list of commands finite and short): a trade moves Tavern cards (Goods
or Staff) and Gold between two seats, in one of three shapes: sell a card from your hand for 1 to 3
Gold, buy a card in play in the other seat's Tavern for 1 to 3 Gold, or swap a card from your hand
for a card in their Tavern. A hand is hidden, so it cannot be asked for. Each seat makes at most one
offer a round, by Day or by Night. Acceptance checks the offer again: each card must still belong
to its seat (a card played meanwhile goes to the receiver's Tavern) and the payer must still have
the Gold.
"""

from __future__ import annotations

from domain.kernel import Command, require
from domain.tavern_masters import events as ev
from domain.tavern_masters.commands import AnswerOffer, OfferTrade
from domain.tavern_masters.effects import is_tavern_card
from domain.tavern_masters.state import State, payer

MAX_GOLD = 3
OFFERS_PER_ROUND = 1


def may_offer(state: State, seat: int) -> bool:
    player = state.players[seat]
    return (
        state.phase in ("day", "night")
        and state.seats > 1
        and not player.done
        and player.offers_made < OFFERS_PER_ROUND
    )


def owns(state: State, seat: int, card_id: str) -> bool:
    player = state.players[seat]
    return card_id in player.hand or card_id in player.tavern


def decide_offer(state: State, command: OfferTrade, seat: int) -> list:
    require(state.phase in ("day", "night"), "no_trading_now", "trades are made in the Day and the Night")
    require(state.seats > 1 and 0 <= command.to < state.seats and command.to != seat, "bad_trade_partner",
            "offer a trade to another seat")
    require(not state.players[seat].done, "already_done", "you are done for this phase")
    require(may_offer(state, seat), "offer_limit", "one offer a round")
    require(command.give or command.take, "bad_offer", "a trade names a card of yours, of theirs, or both")
    swap = bool(command.give and command.take)
    require(command.gold == 0 if swap else 1 <= command.gold <= MAX_GOLD, "bad_gold",
            f"a card is traded for 1 to {MAX_GOLD} Gold, or for a card and no Gold")
    for item in (command.give, command.take):
        require(not item or is_tavern_card(item), "not_tradeable", "only Goods and Staff (and Gold) are traded")
    require(not command.give or command.give in state.players[seat].hand, "card_not_in_hand",
            "you offer a card from your hand")
    require(not command.take or command.take in state.players[command.to].tavern, "card_not_in_their_tavern",
            "you may ask for a card in their Tavern")
    offer = ev.Offer(id=state.next_offer, by=seat, to=command.to, give=command.give, take=command.take,
                     gold=command.gold)
    require(state.players[payer(offer)].gold >= command.gold, "cannot_afford", "the buyer lacks the Gold")
    return [offer]


def still_valid(state: State, offer: ev.Offer) -> bool:
    return (
        (not offer.give or owns(state, offer.by, offer.give))
        and (not offer.take or owns(state, offer.to, offer.take))
        and state.players[payer(offer)].gold >= offer.gold
    )


def decide_answer(state: State, command: AnswerOffer, seat: int) -> list:
    offer = next((o for o in state.offers if o.id == command.offer), None)
    require(offer is not None, "no_such_offer", "there is no such open offer")
    assert offer is not None
    require(offer.to == seat, "not_your_offer", "that offer is not made to you")
    if command.accept:
        require(still_valid(state, offer), "offer_no_longer_valid", "a card or the Gold is no longer there")
    return [ev.OfferAnswered(offer=offer.id, accepted=command.accept)]


def legal_trading(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for offer in state.offers:
        if offer.to == seat:
            if still_valid(state, offer):
                out.append(AnswerOffer(offer=offer.id, accept=True))
            out.append(AnswerOffer(offer=offer.id, accept=False))
    if not may_offer(state, seat):
        return out
    me = state.players[seat]
    mine = [c for c in me.hand if is_tavern_card(c)]
    golds = range(1, MAX_GOLD + 1)
    for other in range(state.seats):
        if other == seat:
            continue
        them = state.players[other]
        theirs = [c for c in them.tavern if is_tavern_card(c)]
        out += [OfferTrade(to=other, give=c, take="", gold=g) for c in mine for g in golds if g <= them.gold]
        out += [OfferTrade(to=other, give="", take=c, gold=g) for c in theirs for g in golds if g <= me.gold]
        out += [OfferTrade(to=other, give=c, take=t, gold=0) for c in mine for t in theirs]
    return out
