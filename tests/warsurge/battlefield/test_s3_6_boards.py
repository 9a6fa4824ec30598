"""Boards, Deployment Zones and board files: Core Rules 001_d3f5e425c5e1196d.txt §2.1, §2.2,
§3.3, §3.6, §4.6, §4.8, §10.2."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.kernel.errors import DataFileError, ProfileError, UnknownNameError
from warbench.rulesets.warsurge.battlefield import (
    Board,
    DangerousSpec,
    Terrain,
    board_from_data,
    deployment_zones,
    dump_board,
    load_board,
    render_png,
    render_svg,
    render_text,
    sample_board,
    sample_boards,
)


def test_s2_2_thirds_deployment_of_the_sample_game() -> None:
    # "the players decided the Battlefield would be divided into thirds, 14" from the vertical
    # board edge (the battlefield size is 42" x 32")"; red is "on the right-hand side".
    left, right = deployment_zones("thirds", 42, 32)
    assert left.polygon == [(0, 0), (14, 0), (14, 32), (0, 32)]
    assert right.polygon == [(28, 0), (42, 0), (42, 32), (28, 32)]
    assert sample_board("open_field_42x32").zones == [left, right]


@pytest.mark.parametrize(
    ("layout", "w", "h", "players", "areas"),
    [
        ("thirds", 42, 32, 3, [448, 448, 448]),
        ("long-edge", 48, 48, 2, [576, 576]),
        ("long-edge", 72, 48, 2, [864, 864]),
        ("short-edge", 72, 48, 2, [864, 864]),
        ("quarters", 48, 48, 4, [576] * 4),
        ("quarters", 48, 48, 2, [576] * 2),
        ("diagonal", 72, 48, 2, [432, 432]),
    ],
)
def test_s3_6_deployment_layouts(
    layout: str, w: float, h: float, players: int, areas: list[float]
) -> None:
    import shapely

    zones = deployment_zones(layout, w, h, players=players)  # type: ignore[arg-type]
    polys = [shapely.Polygon(z.polygon) for z in zones]
    assert [round(p.area) for p in polys] == areas
    for i, p in enumerate(polys):  # zones never overlap
        for q in polys[i + 1 :]:
            assert p.intersection(q).area == pytest.approx(0)


def test_s3_6_short_edge_zones_are_on_the_short_edges() -> None:
    west, _east = deployment_zones("short-edge", 72, 48)
    assert west.polygon == [(0, 0), (18, 0), (18, 48), (0, 48)]
    south, _north = deployment_zones("long-edge", 72, 48, depth=10)
    assert south.polygon == [(0, 0), (72, 0), (72, 10), (0, 10)]


def test_s3_6_bad_deployment_is_reported() -> None:
    with pytest.raises(ProfileError, match="players"):
        deployment_zones("long-edge", 48, 48, players=3)
    with pytest.raises(ProfileError, match="depth"):
        deployment_zones("thirds", 42, 32, depth=30)
    with pytest.raises(ProfileError, match="layout"):
        deployment_zones("spiral", 42, 32)  # type: ignore[arg-type]


def test_sample_boards_load_and_round_trip(tmp_path: Path) -> None:
    assert sample_boards() == [
        "city_72x48",
        "hive_city_72x48",
        "hive_city_armed_72x48",
        "open_field_42x32",
        "ruins_48x48",
    ]
    for name in sample_boards():
        b = sample_board(name)
        assert len(b.zones) == 2
        for suffix in (".yaml", ".json"):
            path = tmp_path / f"{name}{suffix}"
            dump_board(b, path)
            assert load_board(path) == b


def test_ruins_board_has_every_kind_of_terrain() -> None:
    b = sample_board("ruins_48x48")
    assert sum(t.blocks_los for t in b.terrain) >= 3
    assert any(t.difficult and t.cover for t in b.terrain)
    assert any(t.dangerous is not None for t in b.terrain)
    assert any(t.impassable for t in b.terrain)


def test_s4_6_dangerous_ground_is_a_roll_or_a_weapon() -> None:
    assert DangerousSpec().kind == "roll"
    with pytest.raises(ValueError, match="weapon"):
        DangerousSpec(kind="weapon")
    city = sample_board("city_72x48")
    depot = city.terrain_named("Fuel depot")
    assert depot.dangerous is not None and depot.dangerous.weapon == {
        "name": "Burning fuel",
        "attacks": 1,
        "power": 3,
    }


def test_s10_2_terrain_profile_and_transport_are_kept_as_data() -> None:
    bunker = sample_board("city_72x48").terrain_named("Bunker")
    assert bunker.transport == 300
    t = Terrain(name="Tower", rect=[0, 0, 2, 2], connected_to=["Tower top"])  # type: ignore[call-arg]
    assert t.connected_to == ["Tower top"] and t.polygon[2] == (2.0, 2.0)


def test_board_errors_name_file_field_and_value(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nwidth: 48\nterrain:\n  - {name: A, rect: [0, 0, 1, 1]}\n")
    with pytest.raises(ProfileError) as e:
        load_board(bad)
    assert e.value.field == "height" and str(bad) in str(e.value)
    bad.write_text("width: 10\nheight: 10\nterrain:\n  - {name: A, rect: [5, 5, 12, 6]}\n")
    with pytest.raises(ProfileError, match="off the 10 x 10 board"):
        load_board(bad)
    bad.write_text("width: 10\nheight: 10\nterrain:\n  - {name: A, polygon: [[0, 0], [1, 1]]}\n")
    with pytest.raises(ProfileError) as e:
        load_board(bad)
    assert e.value.field == "terrain[0].polygon"
    bad.write_text("width: 10\nheight: 10\nterain: []\n")
    with pytest.raises(ProfileError) as e:
        load_board(bad)
    assert e.value.field == "terain"
    bad.write_text("width: 10\nheight: [\n")
    with pytest.raises(DataFileError, match="line"):
        load_board(bad)
    with pytest.raises(DataFileError, match="not found"):
        load_board(tmp_path / "missing.yaml")


def test_s4_6_dangerous_weapon_is_checked_as_a_weapon_profile() -> None:
    data = {
        "width": 10,
        "height": 10,
        "terrain": [
            {
                "name": "Mines",
                "rect": [1, 1, 3, 3],
                "dangerous": {"kind": "weapon", "weapon": {"attacks": 1, "power": 40}},
            }
        ],
    }
    with pytest.raises(ProfileError) as e:
        board_from_data(data, "mines.yaml")
    assert e.value.field == "terrain[0].dangerous.weapon.power"


def test_duplicate_terrain_names_and_unknown_sample() -> None:
    with pytest.raises(ValueError, match="unique"):
        Board(
            width=10,
            height=10,
            terrain=[Terrain(name="A", rect=[0, 0, 1, 1]), Terrain(name="A", rect=[2, 2, 3, 3])],  # type: ignore[call-arg]
        )
    with pytest.raises(UnknownNameError, match="ruins_48x48"):
        sample_board("ruins_48")


def test_render_text_svg_png(tmp_path: Path) -> None:
    b = sample_board("ruins_48x48")
    units = [
        ("Dead Dogs", 0, [((10, 5), 0.5), ((11.2, 5), 0.5)]),
        ("Troopers", 1, [((30, 40), 0.5)]),
    ]
    text = render_text(b, units)
    lines = text.splitlines()
    assert lines[0] == 'Ruins (48" x 48")' and len(lines[1]) == 48
    assert "A: Dead Dogs (player 1, 2 models)" in text and "B: Troopers (player 2" in text
    assert "#" in text and "X" in text and "!" in text and "~" in text
    svg = render_svg(b, units, tmp_path / "ruins.svg")
    assert svg.read_text().lstrip().startswith("<?xml")
    png = render_png(b, units, tmp_path / "ruins.png", dpi=40)
    assert png.read_bytes()[:4] == b"\x89PNG"
