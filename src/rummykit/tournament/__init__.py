"""Tournaments between bots in duplicate sets (``rummy sim``): play them, then sum them up.

A duplicate set is one deck order for every deal, played once per seat rotation, so the
luck of the cards cancels. The modules, one job each:

- ``config``: the settings of a tournament, checked (``SimConfig``, ``SimError``);
- ``play``: duplicate deck orders, seat rotations, sets in parallel (``run_sim``);
- ``tally``: the running counts by position; ``stats``: intervals and percentiles;
- ``results``: the summed-up figures and the ``--json`` object (``SimResult``);
- ``report``: the results table; ``plot``: the picture (matplotlib);
- ``cli``: the ``rummy sim`` and ``rummy bots`` sub-commands.

>>> config = SimConfig.from_options(["basic", "random"], games=2, seed=1, deals_only=True)
>>> result = run_sim(config)
>>> result.games, sum(p.games_won for p in result.positions) + result.ties + result.cut_games
(2, 2)
"""

from rummykit.core.presets import DEFAULT_PRESET
from rummykit.tournament.config import SimConfig, SimError
from rummykit.tournament.play import play_set, record_name, run_sim, seat_players
from rummykit.tournament.results import TIMING_FIELDS, PositionResult, SimResult

__all__ = [
    "DEFAULT_PRESET",
    "TIMING_FIELDS",
    "PositionResult",
    "SimConfig",
    "SimError",
    "SimResult",
    "play_set",
    "record_name",
    "run_sim",
    "seat_players",
]
