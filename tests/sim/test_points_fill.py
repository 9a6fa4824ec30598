"""How far each archetype's whole models miss its listed points (``fill``, docs/points.md §9,
"Round 13", issue 15).

The study fills each army to the round's points with whole models and scales the listed
points to match (Core Rules 001_d3f5e425c5e1196d.txt §2.2 step 8: the game is decided by the
point value left), so an army of a few dear models can hold far more, or less, than it pays
for: at 1,100 points the big army is two Behemoths that cost 1,408.
"""

from __future__ import annotations

import math

import pytest

from warbench.sim.points_study import ARCHETYPES, fill, fill_table, main, model_price, raw_price


def test_fill_is_the_whole_models_cost_over_the_points() -> None:
    f = fill("ws-points-6", 1100)
    assert list(f) == list(ARCHETYPES)
    for name, share in f.items():
        assert share == pytest.approx(raw_price(name, "ws-points-6", 1100) / 1100)
    behemoth = model_price(ARCHETYPES["big"][0][0], "ws-points-6")
    assert f["big"] == pytest.approx(2 * behemoth / 1100)  # round(1100 / 704) = 2
    assert f["big"] > 1.25 and all(abs(v - 1) < 0.02 for n, v in f.items() if n != "big")


def test_the_big_army_steps_with_the_points_and_1400_fits_it() -> None:
    """Below 1.5 Behemoths' worth the big army is one Behemoth, above it two: its fill jumps
    there, and at 1,400 points two Behemoths are within 1% of the listing."""
    behemoth = model_price(ARCHETYPES["big"][0][0], "ws-points-6")
    edge = 1.5 * behemoth
    below, above = fill("ws-points-6", math.floor(edge)), fill("ws-points-6", math.ceil(edge))
    assert below["big"] < 0.7 and above["big"] > 1.3
    assert fill("ws-points-6", 1400, ["big"]) == {"big": pytest.approx(1.006, abs=5e-4)}


def test_fill_table_names_each_level_and_its_widest_miss(
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = fill_table("ws-points-6", [1100, 1400])
    head, rule, *rows = table.splitlines()
    assert head.split(" | ")[1:-1] == list(ARCHETYPES)
    assert len(rule.split("|")) == len(head.split("|"))
    assert rows[0].startswith("| 1100 |") and rows[0].endswith("| 1.280 |")
    assert rows[1].startswith("| 1400 |") and rows[1].endswith("| 1.042 |")  # eight Paladins: 1,458
    main(["--version", "ws-points-6", "--fill", "1100", "1400"])
    assert capsys.readouterr().out.strip() == table
