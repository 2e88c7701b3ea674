"""«Невермор» magic cards in English: each card's text and its text for a player in raven form
(our own wording of the catalog's Russian texts), and the windows' names."""

from __future__ import annotations

WINDOWS = {
    "before_draft": "Before the Draft",
    "draft_pass": "While passing cards in the Draft",
    "before_resolution": "Before the Resolution",
    "before_token": "In the Resolution, before a token is turned",
    "attacked": "When attacked",
    "end_resolution": "At the end of the Resolution",
    "any_time": "Any time",
    "light_played": "When a Light card is played",
    "rescue": "Lethal damage (a rescue)",
    "damaged": "An opponent deals damage",
}
SUITS = {
    "attack": "Suit of Attack (a sword).",
    "healing": "Suit of Healing (a heart).",
    "radiance": "Suit of Radiance (a white swirl).",
    "victory": "Suit of Victory (a chalice).",
    "raven": "Suit of the Raven (a raven).",
}
TEXTS: dict[str, str] = {
    "add_healing": "Add this HEALING to your cards. Played before the Resolution.",
    "add_radiance": "Add this RADIANCE to your cards. Played before the Resolution.",
    "add_victory": "Add this VICTORY to your cards. Played before the Resolution.",
    "aid": "Aid. Played before the Draft. Reveal the Resolution tokens this turn. Gain 1 health.",
    "bolster": "Bolster. Played when you are attacked. Instead of taking the damage, gain that "
    "much health.",
    "brilliance": "Brilliance. Played before the Resolution. Discard 1 RAVEN without its effect.",
    "empower": "Empower. Played before the Resolution. Take a card from the main deck and add it "
    "to yours.",
    "foretell": "Foretell. Played before the Resolution. Name «Attack», «Healing» or «Radiance». "
    "If no opponent has a pair or more of it, gain 1 VP and a Light magic card.",
    "fortune": "Fortune. Played before the Resolution. Discard 2 cards and draw 2 new ones.",
    "freeze": "Freeze. Played before the Draft. Everyone keeps their cards: skip the Draft this "
    "round.",
    "heal": "Heal. Played any time. Gain 2 health. In answer to damage or to turning into a Raven "
    "only if your health ends above 0.",
    "illuminate": "Illuminate. Played before the Resolution. Everyone discards their RAVENS "
    "without effect.",
    "justice": "Justice. Played before the Resolution. Everyone passes their cards to the player "
    "they got cards from this turn.",
    "passthrough": "Passthrough. Played in any round of the Draft. Skip passing cards: the cards "
    "you would get go on to the next player.",
    "penance": "Penance. Put in your hand before the Resolution. Each hidden RAVEN this round "
    "deals 1 damage to its player.",
    "punish": "Punish. Played before the Resolution. This round ravens destroy a whole suit "
    "instead of single cards.",
    "renew": "Renew. Played before the Resolution. Gain 1 health. Discard a card, then draw a new "
    "one from the main deck.",
    "add_raven": "Add this Raven to any player's cards before the Resolution.",
    "acquire": "Acquire. Played before the Resolution. Take a random card from another player. "
    "Magic cards cannot be taken.",
    "add_attack": "Add this ATTACK card to your cards. Played before the Resolution.",
    "betrayal": "Betrayal. Played in the Resolution before the next token is turned. That suit's "
    "effect is reversed: Attack heals opponents, Healing deals damage, Radiance makes players "
    "discard Light magic cards, Victory takes VP away.",
    "blooding": "Blooding. Played when a player is damaged. Adds 1 damage. If that makes the "
    "damage lethal, gain 1 VP.",
    "dominate": "Dominate. Put in your hand before the Resolution. Take 1 VICTORY card from an "
    "opponent once they are revealed. Cards destroyed by RAVENS cannot be taken.",
    "drain": "Drain. Put in your hand before the Resolution. When HEALING is scored, take as many "
    "health from the player with the most health. If that turns them into a Raven, gain VP.",
    "enrage": "Enrage. Put in your hand before the Resolution. Take 1 ATTACK card from an "
    "opponent once they are revealed. Cards destroyed by RAVENS cannot be taken.",
    "entomb": "Entomb. Played at the end of the Resolution. No LIGHT MAGIC card can be played "
    "next round.",
    "entrap": "Entrap. Played before the Resolution. Swap cards with the player who passed you "
    "cards this round.",
    "extinguish": "Extinguish. Played before the Resolution. Everyone discards their RADIANCE "
    "cards.",
    "gambit": "Gambit. Played before the Draft. The Draft has a single pass: pass two cards to "
    "an opponent and go on to the Resolution.",
    "impair": "Impair. Played before the Resolution. Everyone discards their HEALING cards. "
    "Healing is still turned and resolved.",
    "nightmare": "Nightmare. Played before the Resolution. The player you choose discards their "
    "cards, takes 1 random card from each other player (but you), then draws up to 4.",
    "reap": "Reap. Played before the Resolution. Everyone passes their cards to the opponent they "
    "passed cards to in the Draft.",
    "retribution": "Retribution. Played when you are attacked. Deal 2 damage to the attacker.",
    "scrye": "Scrye. Played before the Draft. Secretly look at the order of the Resolution "
    "tokens. For 1 health or 1 VP you may change it.",
    "spite": "Spite. Played at the end of the Resolution. Give up 1 VP. Deal 2 damage to an "
    "opponent.",
    "summon": "Summon. Played before the Resolution. Give up 1 health. Draw 3 cards, add 1 to "
    "your hand and discard the rest.",
    "syphon": "Syphon. Put in your hand before the Resolution. Take 1 HEALING card from an "
    "opponent when they are revealed. Cards destroyed by RAVENS cannot be taken.",
    "darkening": "The Darkening. Played before the Resolution. Your RAVEN cards do not cancel "
    "the effects of other cards.",
    "tax": "Tax. Put in your hand before the Resolution. When an opponent gets Light magic cards "
    "this round, choose one of them and keep it.",
    "waning_light": "Waning Light. Put in your hand before the Resolution. The player with the "
    "most Radiance takes 1 damage for each Light magic card they get. If that turns them into "
    "a Raven, gain VP.",
    "withering": "Withering. Played at the end of the Resolution. Deal 1 damage to every "
    "opponent. Lethal damage gives you VP.",
}
RAVEN_TEXTS: dict[str, str] = {
    "aid": "Reveal the Resolution tokens. Nobody can gain Healing this round; Healing is still "
    "turned and resolved.",
    "bolster": "Played before the Resolution. Nobody can attack this turn; Attack is still "
    "turned and resolved.",
    "foretell": "Name «Attack», «Healing» or «Radiance». If no opponent has a pair or more of "
    "it, you return to your true form.",
    "heal": "Cancels the effect of a Light magic card.",
    "punish": "Hidden ravens bring no Shadow magic cards this round.",
    "renew": "Draw 2 cards from the main deck, then discard 1 card from your hand.",
    "retribution": "Played when anyone is attacked: deal 2 damage to the attacker.",
    "spite": "Deal 1 damage to every opponent.",
    "summon": "Draw 2 cards and add them to yours.",
}


def text(card_id: str, russian: str, raven: bool = False) -> str:
    """A card's English text (its raven text for a player in raven form)."""
    if raven and card_id in RAVEN_TEXTS:
        return RAVEN_TEXTS[card_id]
    return TEXTS.get(card_id) or SUITS.get(card_id) or russian
