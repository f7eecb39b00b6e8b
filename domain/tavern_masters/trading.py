"""Trading between seats during the Day and the Night: an offer, then the other seat's answer.

Ruling (to keep every seat's list of commands finite and short): a trade is one Tavern card (Goods
or Staff) for 1 to 3 Gold. A seat may offer to sell a card from its hand, or to buy a card in play
in the other seat's Tavern (a hand is hidden, so it cannot be asked for). Each seat makes at most
one offer a round, by Day or by Night. Acceptance checks the offer again: the seller must still own the card (a card
played meanwhile goes to the buyer's Tavern) and the buyer must still have the Gold.
"""

from __future__ import annotations

from domain.kernel import Command, require
from domain.tavern_masters import events as ev
from domain.tavern_masters.commands import AnswerOffer, OfferTrade
from domain.tavern_masters.content import is_card
from domain.tavern_masters.effects import is_tavern_card
from domain.tavern_masters.state import State

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
    require((command.give == "") != (command.take == ""), "bad_offer", "a trade is one card for Gold")
    require(1 <= command.gold <= MAX_GOLD, "bad_gold", f"a trade is for 1 to {MAX_GOLD} Gold")
    selling = command.give != ""
    giver, taker = (seat, command.to) if selling else (command.to, seat)
    item = command.give or command.take
    require(is_card(item), "no_such_card", "there is no such card")
    require(is_tavern_card(item), "not_tradeable", "only Goods and Staff (and Gold) are traded")
    if selling:
        require(item in state.players[seat].hand, "card_not_in_hand", "you may sell a card from your hand")
    else:
        require(item in state.players[giver].tavern, "card_not_in_their_tavern", "that card is not in their Tavern")
    require(state.players[taker].gold >= command.gold, "cannot_afford", "the buyer lacks the Gold")
    from_hand = item in state.players[giver].hand
    return [ev.Offer(id=state.next_offer, giver=giver, taker=taker, by=seat, card=item, from_hand=from_hand,
                     gold=command.gold)]


def answerer(offer: ev.Offer) -> int:
    return offer.taker if offer.by == offer.giver else offer.giver


def still_valid(state: State, offer: ev.Offer) -> bool:
    return owns(state, offer.giver, offer.card) and state.players[offer.taker].gold >= offer.gold


def decide_answer(state: State, command: AnswerOffer, seat: int) -> list:
    offer = next((o for o in state.offers if o.id == command.offer), None)
    require(offer is not None, "no_such_offer", "there is no such open offer")
    assert offer is not None
    require(answerer(offer) == seat, "not_your_offer", "that offer is not made to you")
    if command.accept:
        require(still_valid(state, offer), "offer_no_longer_valid", "the card or the Gold is no longer there")
    return [ev.OfferAnswered(offer=offer.id, accepted=command.accept)]


def legal_trading(state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    for offer in state.offers:
        if answerer(offer) == seat:
            if still_valid(state, offer):
                out.append(AnswerOffer(offer=offer.id, accept=True))
            out.append(AnswerOffer(offer=offer.id, accept=False))
    if not may_offer(state, seat):
        return out
    me = state.players[seat]
    mine = [c for c in me.hand if is_tavern_card(c)]
    for other in range(state.seats):
        if other == seat:
            continue
        them = state.players[other]
        golds = range(1, MAX_GOLD + 1)
        out += [OfferTrade(to=other, give=c, take="", gold=g) for c in mine for g in golds if g <= them.gold]
        theirs = [c for c in them.tavern if is_tavern_card(c)]
        out += [OfferTrade(to=other, give="", take=c, gold=g) for c in theirs for g in golds if g <= me.gold]
    return out
