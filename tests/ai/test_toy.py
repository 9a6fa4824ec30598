"""The search player is ruleset-neutral: Dice Duel (warbench.play.toy), with secret stances,
hidden shields and HP and a continuous move, through the same player and its toy hooks."""

from __future__ import annotations

from warbench.ai import Seats, get_hooks
from warbench.play import SetupArgs, get_ruleset, run_batch, run_game
from warbench.play.toy import SAMPLE_SETUP

SETUP = SetupArgs(
    tuple(SAMPLE_SETUP["rosters"]), SAMPLE_SETUP["board"], dict(SAMPLE_SETUP["options"])
)


def test_a_duel_determinisation_agrees_with_the_view_and_hides_nothing_it_shows() -> None:
    """toy §1, §3: what the duellist sees is kept; the foe's shields and HP are drawn."""
    duel = get_ruleset("toy-duel")
    seats = Seats(("scripted", "scripted"), "toy-duel", SETUP)
    states: list[object] = []
    run_game(duel, SETUP, [seats(1, 0), seats(1, 1)], 1, on_step=lambda s, e: states.append(s))
    hooks = get_hooks(duel)
    checked = 0
    for s in states:
        for d in duel.pending(s):
            if d.is_chance:
                continue
            view = duel.view(s, d.player)
            made = hooks.determinizer(view, d.player, SETUP)(7)
            assert duel.view(made, d.player) == view
            assert any(x.player == d.player for x in duel.pending(made))
            checked += 1
    assert checked > 10


def test_search_beats_the_scripted_duellist() -> None:
    rows = []
    for kinds, me in ((("search:2", "scripted"), 0), (("scripted", "search:2"), 1)):
        batch = run_batch("toy-duel", SETUP, range(10), players=Seats(kinds, "toy-duel", SETUP))
        rows += [(r.winner, me) for r in batch]
    wins = sum(w == me for w, me in rows)
    losses = sum(w is not None and w != me for w, me in rows)
    assert wins >= 2 * losses + 4, (wins, losses)
