"""The magic cards as data: one ``Spell`` entry per catalog card, whose kind, raven form and round
effects agree with the catalog's texts and with what the entry's code does."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.games.nevermore import light, shadow
from engine.games.nevermore.cards import load_catalog
from engine.games.nevermore.flow import Flow
from engine.games.nevermore.magic import SPELLS, Magic
from engine.games.nevermore.spell import Play
from engine.games.nevermore.state import fresh_effects, new_state

CAT = load_catalog()
# how the catalog's texts say each window (its own words: the check reads them, not a copy)
WINDOW_WORDS = {
    "before_draft": ("до начала фазы Драфта", "перед началом фазы Драфта"),
    "draft_pass": ("фазы Драфта",),
    "before_resolution": (
        "до начала фазы Раскрытия",
        "перед началом фазы Раскрытия",
        "до фазы Раскрытия",
        "перед фазой Раскрытия",
    ),
    "before_token": ("в фазе Раскрытия перед вскрытием",),
    "attacked": ("при атаке", "при нанесении повреждений", "когда кто-либо атакован"),
    "end_resolution": ("в конце фазы Раскрытия",),
    "any_time": ("в любое время",),
}


def test_every_magic_card_has_one_entry_in_its_deck() -> None:
    assert set(light.CARDS) == {c["id"] for c in CAT.raw["light"]}
    assert set(shadow.CARDS) == {c["id"] for c in CAT.raw["shadow"]}
    assert set(SPELLS) == set(CAT.magic) and len(SPELLS) == 41


@pytest.mark.parametrize("cid", sorted(CAT.magic))
def test_the_text_says_the_window_and_the_kind(cid: str) -> None:
    info, spell = CAT.magic[cid], SPELLS[cid]
    text = info["text"].lower()
    assert any(words.lower() in text for words in WINDOW_WORDS[info["window"]]), cid
    kept = "помещается на руку" in text or "поместите на руку" in text
    added = text.startswith("добавьте") and "к своим картам" in text
    assert spell.kind == ("passive" if kept else "add" if added else "play"), cid
    assert (spell.effect is None) == (spell.kind != "play"), cid
    if info.get("raven_text"):
        raven = info["raven_text"].lower()
        named = {w for w, words in WINDOW_WORDS.items() for x in words if x.lower() in raven}
        assert named <= {info["raven_window"]}, (cid, named)
    else:
        assert spell.raven is None, f"{cid}: a raven effect without a raven text"


def scratch() -> dict[str, Any]:
    """A game in its first round, dealt, with an attack on seat 0 under way."""
    g = new_state(4, ["А", "Б", "В", "Г"], 8)
    g.update(round=1, dealer=3, hp=[3, 4, 4, 4], vp=[2, 0, 0, 0])
    g["hand"] = [[0, 1], [2, 3], [4, 5], [6, 7]]
    g["attack"] = {
        "attacker": 1,
        "targets": [0],
        "amounts": [2],
        "amount": 2,
        "why": "атака",
        "is_attack": True,
        "all": False,
        "bolster": [],
        "retribution": [],
        "blooding": [],
    }
    return g


def changed_effects(cid: str, raven: bool) -> set[str]:
    """The round effects (``g["fx"]`` keys) that playing ``cid`` in that form changes now."""
    magic = Magic(Flow(CAT))
    g = scratch()
    g["raven"][0] = raven
    before = copy.deepcopy(g["fx"])
    effect = SPELLS[cid].effect_for(raven)
    assert effect is not None
    effect(magic, g, Play(0, 100, CAT.window(cid, raven)))
    return {k for k in g["fx"] if g["fx"][k] != before[k]}


def test_the_round_effects_a_card_sets_are_the_ones_it_declares() -> None:
    declared: set[str] = set()
    for cid, spell in SPELLS.items():
        if spell.kind != "play":
            assert not spell.sets, cid
            continue
        done = changed_effects(cid, False) | changed_effects(cid, True)
        assert done <= set(spell.sets) | {"foretell"}, (cid, done)
        assert set(spell.sets) - {"foretell"} <= done, (cid, done)
        declared |= set(spell.sets)
    # every round effect but the kept cards' list is some card's, and only the cards set them
    assert declared == set(fresh_effects()) - {"passive"}
