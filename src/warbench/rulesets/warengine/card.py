"""Profile cards laid out like the book's WarpEyes card (004_f4ea5693af0644ce.txt lines 955-963)
and an itemised cost listing."""

from __future__ import annotations

from warbench.rulesets.warengine.costs import FigureCost, figure_cost
from warbench.rulesets.warengine.models import Figure, Weapon

_HEAD = ("T", "Mv", "Df", "Mn", "CR", "HP")
_WHEAD = ("Weapon", "R", "AV", "AE", "AET")


def _weapon_rows(w: Weapon, indent: str = "") -> list[tuple[str, ...]]:
    if w.profiles:
        rows: list[tuple[str, ...]] = [(f"{indent}{w.name}", "", "", "", "")]
        rows.append((f"{indent}  {', '.join(w.tweaks)}", "", "", "", ""))
        for p in w.profiles:
            rows.extend(_weapon_rows(p, indent + "  / "))
        return rows
    name = f"SP:{w.power}" if w.power and not w.name.startswith("SP") else w.name
    rows = [(f"{indent}{name}", w.range, w.av or "-", w.ae or "-", w.aet or "-")]
    if w.tweaks:
        rows.append((f"{indent}  {', '.join(w.tweaks)}", "", "", "", ""))
    return rows


def _form_card(fig: Figure, hero_points: int, points: int | None) -> list[str]:
    lines = []
    title = fig.name
    lines.append(f"{title:<60}{'' if points is None else f'{points} pts':>12}")
    if fig.tweaks:
        lines.append(", ".join(fig.tweaks))
    stats = (fig.type, fig.mv, fig.df, fig.mn, fig.cr, str(hero_points))
    wrows = [r for w in fig.weapons for r in _weapon_rows(w)] or [("-", "", "", "", "")]
    width = max(len(_WHEAD[0]), *(len(r[0]) for r in wrows))
    head = "  ".join(f"{h:<4}" for h in _HEAD)
    lines.append(
        f"{head}  {_WHEAD[0]:<{width}}  {_WHEAD[1]:<4}  {_WHEAD[2]:<4}  {_WHEAD[3]:<3}  {_WHEAD[4]}"
    )
    blank = "  ".join(f"{'':<4}" for _ in _HEAD)
    for i, r in enumerate(wrows):
        left = "  ".join(f"{s:<4}" for s in stats) if i == 0 else blank
        lines.append(f"{left}  {r[0]:<{width}}  {r[1]:<4}  {r[2]:<4}  {r[3]:<3}  {r[4]}".rstrip())
    return lines


def profile_card(fig: Figure, cost: FigureCost | None = None) -> str:
    """A plain-text profile card; a Shapechanger shows one block per form."""
    cost = cost or figure_cost(fig)
    blocks = [_form_card(fig, fig.hero_points, cost.points)]
    for form in fig.forms:
        blocks.append(["-- other form --", *_form_card(form, fig.hero_points, None)])
    return "\n".join("\n".join(b) for b in blocks)


def itemised(cost: FigureCost) -> str:
    """The itemised cost, one line per item, with tweak points and the totals."""
    lines = [f"{cost.name}: {cost.points} points, {cost.tweak_points} tweak points"]
    for item in cost.items:
        tp = f"  [{item.tweak_points} tp]" if item.tweak_points else ""
        lines.append(f"  {item.points:>+5}  {item.label}{tp}")
    for w in cost.weapons:
        lines.append(f"  weapon {w.name} ({w.weapon_class}): {w.points} points")
        for item in w.items:
            tp = f"  [{item.tweak_points} tp]" if item.tweak_points else ""
            lines.append(f"    {item.points:>+5}  {item.label}{tp}")
    lines.append(f"  basic characteristics {cost.basic}")
    return "\n".join(lines)
