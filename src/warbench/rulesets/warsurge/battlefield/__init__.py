"""The WARSURGE battlefield: bases, terrain, zones and every measurement the rules make
(Core Rules 001_d3f5e425c5e1196d.txt §1.3, §3.6, §4, §5.3-5.6, §5.9, §5.13, §6, §10).

Geometry only: this package knows nothing about units' stats, the game's flow or dice. The
game engine passes positions as ``(point, radius)`` discs in inches and gets answers and
reasons back. Methods and data formats: ``docs/battlefield.md``; readings of the rules:
``docs/rulings.md`` ("WARSURGE battlefield").
"""

from __future__ import annotations

from warbench.rulesets.warsurge.battlefield.geometry import Blocker, BoardGeometry
from warbench.rulesets.warsurge.battlefield.io import (
    board_from_data,
    board_to_data,
    dump_board,
    load_board,
    sample_board,
    sample_boards,
)
from warbench.rulesets.warsurge.battlefield.measure import (
    COHERENCY,
    coherency_groups,
    coherent,
    distance_matrix,
    edge_distance,
    in_base_contact,
    overlaps,
    unit_distance,
)
from warbench.rulesets.warsurge.battlefield.model import (
    INCH_PER_MM,
    Base,
    Board,
    DangerousSpec,
    DeploymentLayout,
    DeploymentSpec,
    Disc,
    Point,
    Terrain,
    Zone,
    deployment_zones,
)
from warbench.rulesets.warsurge.battlefield.movement import (
    MoveCheck,
    check_move,
    difficult_allowance,
    move_towards,
)
from warbench.rulesets.warsurge.battlefield.placement import place_near, restore_coherency
from warbench.rulesets.warsurge.battlefield.render import render_png, render_svg, render_text
from warbench.rulesets.warsurge.battlefield.sight import (
    COVER_RAYS,
    LOS_SAMPLES,
    CoverReport,
    attackers_in_sight,
    cover_bonus,
    cover_report,
    line_of_sight,
    obscured_fraction,
    sight_matrix,
    visible_models,
)

__all__ = [
    "COHERENCY",
    "COVER_RAYS",
    "INCH_PER_MM",
    "LOS_SAMPLES",
    "Base",
    "Blocker",
    "Board",
    "BoardGeometry",
    "CoverReport",
    "DangerousSpec",
    "DeploymentLayout",
    "DeploymentSpec",
    "Disc",
    "MoveCheck",
    "Point",
    "Terrain",
    "Zone",
    "attackers_in_sight",
    "board_from_data",
    "board_to_data",
    "check_move",
    "coherency_groups",
    "coherent",
    "cover_bonus",
    "cover_report",
    "deployment_zones",
    "difficult_allowance",
    "distance_matrix",
    "dump_board",
    "edge_distance",
    "in_base_contact",
    "line_of_sight",
    "load_board",
    "move_towards",
    "obscured_fraction",
    "overlaps",
    "place_near",
    "render_png",
    "render_svg",
    "render_text",
    "restore_coherency",
    "sample_board",
    "sample_boards",
    "sight_matrix",
    "unit_distance",
    "visible_models",
]
