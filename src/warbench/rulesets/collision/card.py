"""The printable Collision character card (HTML, Jinja2 template ``data/card.html.j2``).

A satellite of the rules: it reads a :class:`Card` and renders the front (core stats and
weapons, L234-250) and the back (tarot, restrictions, race, effects and abilities with their
glossary cost and text, L252-258), one card or a whole battle group per page, with print CSS.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from warbench.rulesets.collision.glossary import Glossary
from warbench.rulesets.collision.models import Arcana, Card

__all__ = ["card_context", "render_cards"]

TEMPLATE = "card.html.j2"
_NUMBER_NAMES = {1: "Ace", 11: "Page", 12: "Knight", 13: "Queen", 14: "King"}


def number_name(number: int) -> str:
    """A Minor Arcana number as the card names it: 1 ``Ace``, 11 ``Page`` ... 14 ``King``."""
    return _NUMBER_NAMES.get(number, str(number))


def tarot_label(card: Card) -> str:
    """``Major Arcana: Rhona`` or ``Seven of Swords``-like text (``7 of swords``)."""
    t = card.tarot
    if t.arcana is Arcana.MAJOR:
        return f"Major Arcana: {t.name}"
    n = t.number or 0
    return f"{number_name(n)} of {t.suit.value if t.suit else '?'}"


def card_context(card: Card) -> dict[str, Any]:
    """The plain values the template shows for one card (no rules logic in the template)."""
    glossary = Glossary.load()

    def lines(names: list[str]) -> list[dict[str, str]]:
        out = []
        for n in names:
            e = glossary.get(n)
            out.append(
                {
                    "name": n,
                    "cost": "" if e.cost is None else str(e.cost),
                    "reaction": "(RE)" if e.kind.value == "reaction" else "",
                    "text": e.text.removeprefix(f"Cost: {e.cost.as_printed}").strip()
                    if e.cost
                    else e.text,
                    "source": e.source,
                }
            )
        return out

    s = card.stats
    return {
        "name": card.name,
        "points": card.points,
        "stats": [
            ("S-Pow", s.s_pow),
            ("Att.", s.att),
            ("Str.", s.strength),
            ("Def.", s.defense),
            ("Arm.", s.armor),
            ("Tuf.", s.toughness),
            ("End.", s.endure),
            ("Mana", s.mana),
            ("Comm.", s.command),
            ("Move", s.move),
        ],
        "weapons": [
            {
                "name": w.name,
                "ec": w.ec,
                "type": w.type.value,
                "w_att": w.w_att,
                "w_pow": w.w_pow,
                "reach": w.reach,
                "crit": w.crit or "-",
                "special": ", ".join(w.special) or "-",
            }
            for w in card.weapons
        ],
        "tarot": tarot_label(card),
        "restrictions": ", ".join(card.restrictions) or "-",
        "race": card.race,
        "attributes": ", ".join(card.attributes) or "-",
        "effects": lines(card.effects),
        "abilities": lines(card.abilities),
    }


def render_cards(cards: list[Card], title: str | None = None) -> str:
    """One or more cards as a standalone HTML page (print with the browser)."""
    import jinja2

    text = resources.files("warbench.rulesets.collision").joinpath("data", TEMPLATE)
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(text.read_text("utf-8"))
    return template.render(
        title=title or (cards[0].name if len(cards) == 1 else "Collision cards"),
        cards=[card_context(c) for c in cards],
    )
