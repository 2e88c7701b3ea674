"""What each move of «Проба» does to the game data ``g`` (checked here; ``IllegalAction`` else).

The data is ``state.State``: ``phase`` names where it stands, ``acted`` who has answered the
current simultaneous call.
"""

from __future__ import annotations

from engine.core.model import Action, IllegalAction

from .state import Card, Phase, State, Token

CARD_VALUES: dict[Card, int] = {"ember": 1, "frost": 2, "gale": 3, "thorn": 4, "void": 5}
TOKENS: list[Token] = ["coin", "gem", "crown"]
TOKEN_VALUES: dict[Token, int] = {"coin": 1, "gem": 2, "crown": 3}
BIDS = (0, 1, 2)

G = State


def check_card(card: object) -> Card:
    """``card`` as a card of the game, or ``IllegalAction``."""
    if card not in CARD_VALUES:
        raise IllegalAction(f"{card!r} is not a card of «Проба»")
    return card


def value(card: Card | None) -> int:
    """A card's value (0 for no card)."""
    return 0 if card is None else CARD_VALUES[card]


def acted(g: G, seat: int, next_phase: Phase) -> bool:
    """Mark ``seat``; once every seat has acted the call is over and ``next_phase`` begins."""
    g["acted"][seat] = True
    if all(g["acted"]):
        g["acted"] = [False] * g["seats"]
        g["phase"] = next_phase
        return True
    return False


def seal(g: G, seat: int, action: Action) -> None:
    commits = action.get("commit")
    if not isinstance(commits, list) or len(commits) > 1:
        raise IllegalAction("seal carries at most one commitment")
    if commits:
        g["sealed"][seat] = g["commits"][seat]
        g["commits"][seat] += 1
    acted(g, seat, "pass")


def pass_card(g: G, seat: int, action: Action) -> None:
    slot = action.get("slot")
    if slot not in g["hands"][seat]:
        raise IllegalAction("that slot is not in the seat's hand")
    g["passes"][seat] = slot
    if acted(g, seat, "open"):
        seats = g["seats"]
        passed = [given for given in g["passes"] if given is not None]
        if len(passed) != seats:
            raise KeyError("every seat has acted but not every seat has passed a card")
        for giver, given in enumerate(passed):
            g["hands"][giver].remove(given)
        for giver, given in enumerate(passed):
            g["hands"][(giver + 1) % seats].append(given)


def open_seal(g: G, seat: int, action: Action) -> None:
    opened = action.get("open")
    if not isinstance(opened, list) or len(opened) > 1:
        raise IllegalAction("open carries at most one opening")
    if opened:
        entry = opened[0]
        if not isinstance(entry, dict) or entry.get("index") != g["sealed"][seat]:
            raise IllegalAction("that is not the seat's sealed commitment")
        slot = entry.get("slot")
        if slot not in g["hands"][seat]:
            raise IllegalAction("the sealed card is no longer in hand")
        card = check_card(entry.get("card"))
        g["hands"][seat].remove(slot)
        g["opened"][seat] = card
        g["revealed"][str(slot)] = card
    acted(g, seat, "die")


def reseal(g: G, seat: int, action: Action) -> None:
    commits = action.get("commit")
    limit = 0 if g["redealt"][seat] is None else 1
    if not isinstance(commits, list) or len(commits) > limit:
        raise IllegalAction("reseal carries at most one commitment, for a redealt card")
    g["resealed"][seat] = bool(commits)
    acted(g, seat, "reopen")


def reopen(g: G, seat: int, action: Action) -> None:
    opened = action.get("open")
    if not isinstance(opened, list) or len(opened) > 1:
        raise IllegalAction("open carries at most one opening")
    if opened:
        entry = opened[0]
        slot = g["redealt"][seat]
        if not isinstance(entry, dict) or entry.get("index") != 0 or not g["resealed"][seat]:
            raise IllegalAction("that is not the seat's resealed commitment")
        if entry.get("slot") != slot or slot not in g["hands"][seat]:
            raise IllegalAction("the resealed card is not the redealt one")
        card = check_card(entry.get("card"))
        g["hands"][seat].remove(slot)
        g["opened2"][seat] = card
        g["revealed"][str(slot)] = card
    acted(g, seat, "reveal2")


def bid(g: G, seat: int, action: Action) -> None:
    amount = action.get("amount")
    if amount not in BIDS or isinstance(amount, bool):
        raise IllegalAction("bid must be 0, 1 or 2")
    g["bids"][seat] = amount
    g["turn"] += 1
    if g["turn"] == g["seats"]:
        g["phase"] = "over"


def redeal(g: G) -> None:
    """The recycled slots, re-shuffled, are dealt again: the i-th to seat i + 1, the last stays."""
    recycled = g["recycled"]
    seats = g["seats"]
    for i in range(min(seats, len(recycled) - 1)):
        g["hands"][(i + 1) % seats].append(recycled[i])
        g["redealt"][(i + 1) % seats] = recycled[i]
    g["top2_slot"] = recycled[-1]
    g["phase"] = "reseal"


def scores(g: G) -> list[int]:
    """Final scores (meaningful once the game is over)."""
    bids = [b or 0 for b in g["bids"]]
    winner = max(range(g["seats"]), key=lambda s: (bids[s], -s))
    top = g["top"]
    out = []
    for seat in range(g["seats"]):
        card = g["opened"][seat]
        score = value(card) - bids[seat]
        if card is not None and card == top:
            score += CARD_VALUES[top]
        if seat == winner:
            token = g["token"]
            score += (g["die"] or 0) + (0 if token is None else TOKEN_VALUES[token])
        if g.get("reshuffle"):
            score += value(g["opened2"][seat])
        out.append(score)
    return out
