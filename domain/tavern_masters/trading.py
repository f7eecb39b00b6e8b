"""Trading between seats during the Day and the Night (seeds/tavern-masters/RULINGS.md 22-27).

The 2018 rules: "players may offer to trade Tavern cards with one another. Only Tavern cards or
Gold may be traded". A trade here is any mix of Goods and Staff cards (from a hand or a Tavern, on
either side) and any Gold either way up to the payer's purse. So that every seat's list of legal
commands stays complete, finite and short, an offer is written in steps: open it to a seat, put
cards in one at a time, set the Gold once, then send it (or withdraw it). The other seat accepts
or declines a sent offer. Each seat opens at most one offer to each other seat a phase (so at most
one is open per ordered pair at a time, and a table of random players ends its phases).

A hand is hidden: a seat may ask for a card in another seat's hand only once that seat has shown
it, by putting it in an offer between the two; and it may go on asking for it as long as it cannot
know the card has gone (a trade with a third seat, a steal: moves out of its sight), so that its
choices show nothing of those moves. Such an offer may be sent, and accepted: the trade then falls
through (a decline), which is when the seat learns it.
In competitive play a trade moves something each way; in co-operative play a gift (Gold or cards one
way) is a trade too, the team's Gold being what wins. Acceptance checks the offer again: each card
must still be its seat's (a hand card played meanwhile goes to the receiver's Tavern) and the payer
must still have the Gold.
"""

from __future__ import annotations

from domain.kernel import require
from domain.tavern_masters import events as ev
from domain.tavern_masters.commands import (
    AddToOffer,
    AnswerOffer,
    MakeOffer,
    OpenOffer,
    SetOfferGold,
    TMCommand,
    WithdrawOffer,
)
from domain.tavern_masters.effects import is_tavern_card
from domain.tavern_masters.state import State, gives, takes


def may_trade(state: State, seat: int) -> bool:
    return state.phase in ("day", "night") and state.seats > 1 and not state.players[seat].done


def _pair_used(state: State, by: int, to: int) -> bool:
    return (by, to) in state.opened


def _zone(state: State, seat: int, card_id: str) -> str:
    player = state.players[seat]
    return "hand" if card_id in player.hand else "tavern" if card_id in player.tavern else ""


def shown_to(state: State, seat: int, owner: int, card_id: str) -> bool:
    """Whether ``seat`` was shown this card in ``owner``'s hand and has not seen it move since."""
    return (card_id, seat, owner) in state.shown


def knows(state: State, seat: int, owner: int, card_id: str) -> bool:
    """May ``seat`` name ``owner``'s card? Its own, any in a Tavern, a hand card once shown."""
    zone = _zone(state, owner, card_id)
    if seat == owner:
        return bool(zone)
    return zone == "tavern" or shown_to(state, seat, owner, card_id)


def _draft(state: State, offer_id: int, seat: int) -> ev.Offer:
    draft = next((d for d in state.drafts if d.id == offer_id), None)
    require(draft is not None, "no_such_offer", "there is no such offer being written")
    assert draft is not None
    require(draft.by == seat, "not_your_offer", "that offer is not yours")
    require(may_trade(state, seat), "no_trading_now", "trades are made in the Day and the Night, before Done")
    return draft


def _addable(state: State, draft: ev.Offer) -> list[tuple[str, int, str]]:
    """(card, owner, zone) that the writer of ``draft`` may still put in it: a Goods or Staff of either
    seat that the writer may name (``knows``), not yet in it."""
    named = {*gives(draft), *takes(draft)}
    out = []
    for owner in (draft.by, draft.to):
        player = state.players[owner]
        # the other seat's shown cards in a fixed order: its hand's order is hidden from the writer
        shown = sorted(c for c, to, o in state.shown if (to, o) == (draft.by, owner))
        hand = player.hand if owner == draft.by else shown
        for zone, cards in (("hand", hand), ("tavern", player.tavern)):
            out += [(c, owner, zone) for c in cards if c not in named and is_tavern_card(c)]
    return out


def still_valid(state: State, offer: ev.Offer, knower: int | None = None) -> bool:
    """Every card still its seat's, and the payer still has the Gold. As ``knower`` (one seat of the
    trade) can know it: a card it was shown in the other seat's hand counts as there until it has
    seen it move."""

    def there(owner: int, card_id: str) -> bool:
        return bool(_zone(state, owner, card_id)) or (knower is not None and shown_to(state, knower, owner, card_id))

    payer, price = (offer.by, offer.gold) if offer.gold >= 0 else (offer.to, -offer.gold)
    return (
        all(there(offer.by, c) for c in gives(offer))
        and all(there(offer.to, c) for c in takes(offer))
        and state.players[payer].gold >= price
    )


def _sendable(state: State, draft: ev.Offer) -> bool:
    """Something moves each way (competitive), or at all (co-operative: a gift); and it holds as far as
    its writer knows (the other seat checks it whole when it answers)."""
    given = bool(gives(draft)) or draft.gold > 0
    taken = bool(takes(draft)) or draft.gold < 0
    enough = given or taken if state.mode == "cooperative" else given and taken
    return enough and still_valid(state, draft, knower=draft.by)


def decide_open(state: State, command: OpenOffer, seat: int) -> list:
    require(may_trade(state, seat), "no_trading_now", "trades are made in the Day and the Night, before Done")
    require(0 <= command.to < state.seats and command.to != seat, "bad_trade_partner", "offer a trade to another seat")
    require(not _pair_used(state, seat, command.to), "offer_limit", "one offer to each seat a phase")
    return [ev.OfferOpened(id=state.next_offer, by=seat, to=command.to)]


def decide_add(state: State, command: AddToOffer, seat: int) -> list:
    draft = _draft(state, command.offer, seat)
    require(is_tavern_card(command.card), "not_tradeable", "only Goods and Staff (and Gold) are traded")
    require(command.card not in (*gives(draft), *takes(draft)), "card_in_offer", "that card is in the offer already")
    owner = next((o for o in (draft.by, draft.to) if knows(state, seat, o, command.card)), -1)
    require(owner >= 0, "card_not_tradeable_here",
            "put in a card of yours, one in their Tavern, or one they have shown you")
    zone = _zone(state, owner, command.card) or "hand"  # shown in that hand, gone from it unseen
    return [ev.OfferCardAdded(offer=draft.id, by=seat, to=draft.to, card=command.card, owner=owner, zone=zone)]


def _gold_range(state: State, draft: ev.Offer) -> range:
    return range(-state.players[draft.to].gold, state.players[draft.by].gold + 1)


def decide_gold(state: State, command: SetOfferGold, seat: int) -> list:
    draft = _draft(state, command.offer, seat)
    require(draft.gold == 0, "gold_already_set", "the Gold of an offer is set once")
    require(command.gold != 0 and command.gold in _gold_range(state, draft), "bad_gold",
            "up to your Gold that you pay (> 0), or up to theirs that they pay (< 0)")
    return [ev.OfferGoldSet(offer=draft.id, gold=command.gold)]


def decide_make(state: State, command: MakeOffer, seat: int) -> list:
    draft = _draft(state, command.offer, seat)
    require(_sendable(state, draft), "bad_offer",
            "an offer moves something each way (in co-operative play, anything), and every card and Gold in it "
            "must still be there")
    return [draft]


def decide_withdraw(state: State, command: WithdrawOffer, seat: int) -> list:
    offer = next((o for o in (*state.drafts, *state.offers) if o.id == command.offer), None)
    require(offer is not None, "no_such_offer", "there is no such open offer")
    assert offer is not None
    require(offer.by == seat, "not_your_offer", "that offer is not yours")
    require(not state.players[seat].done, "already_done", "you are done for this phase")
    return [ev.OfferWithdrawn(offer=offer.id)]


def decide_answer(state: State, command: AnswerOffer, seat: int) -> list:
    offer = next((o for o in state.offers if o.id == command.offer), None)
    require(offer is not None, "no_such_offer", "there is no such open offer")
    assert offer is not None
    require(offer.to == seat, "not_your_offer", "that offer is not made to you")
    if command.accept:
        known = still_valid(state, offer, knower=seat)
        require(known, "offer_no_longer_valid", "a card or the Gold is no longer there")
    # accepting an offer whose card has left the other hand unseen: the trade falls through, a decline
    # (RULINGS.md 26); accepting is when the seat could learn it, never before
    return [ev.OfferAnswered(offer=offer.id, accepted=command.accept and still_valid(state, offer))]


def writing(state: State, seat: int) -> bool:
    return any(d.by == seat for d in state.drafts)


def legal_trading(state: State, seat: int) -> list[TMCommand]:
    out: list[TMCommand] = []
    for offer in state.offers:
        if offer.to == seat:
            if still_valid(state, offer, knower=seat):
                out.append(AnswerOffer(offer=offer.id, accept=True))
            out.append(AnswerOffer(offer=offer.id, accept=False))
    if not may_trade(state, seat):
        return out
    for draft in state.drafts:
        if draft.by == seat:
            out += [AddToOffer(offer=draft.id, card=c) for c, _, _ in _addable(state, draft)]
            if draft.gold == 0:
                out += [SetOfferGold(offer=draft.id, gold=g) for g in _gold_range(state, draft) if g]
            if _sendable(state, draft):
                out.append(MakeOffer(offer=draft.id))
    out += [WithdrawOffer(offer=o.id) for o in (*state.drafts, *state.offers) if o.by == seat]
    out += [OpenOffer(to=to) for to in range(state.seats) if to != seat and not _pair_used(state, seat, to)]
    return out
