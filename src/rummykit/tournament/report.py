"""A finished tournament as a rich table: a row a position, the totals in its caption."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rummykit.core.presets import describe_rules
from rummykit.tournament.results import SimResult

if TYPE_CHECKING:
    from rich.table import Table


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{100 * value:.1f}%"


def _percent_interval(values: tuple[float, float]) -> str:
    low, high = values
    if math.isnan(low):
        return ""
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def _points(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.2f}"


def _points_interval(values: tuple[float, float]) -> str:
    low, high = values
    if math.isnan(low):
        return "[n/a: one set]"
    return f"[{low:+.2f}, {high:+.2f}]"


def _milliseconds(value: float) -> str:
    if math.isnan(value):
        return "-"
    return f"{value:.3f}" if value < 1 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def result_table(result: SimResult) -> Table:
    """The results as a rich table: a row a position, the totals in its caption."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    config = result.config
    tally = result.tally
    rules_text = describe_rules(config.preset, config.rules)
    rules_name = rules_text if isinstance(rules_text, str) else _rules_line(rules_text)
    table = Table(
        title=(
            f"rummy sim: {tally.games} games, {config.sets} duplicate sets of {config.seat_count}, "
            f"{rules_name}, seed {config.seed}"
        ),
        box=box.SIMPLE_HEAD,
        title_justify="left",
        caption_justify="left",
    )
    points_header = "points/deal (lower is better)" if result.lower_is_better else "points/deal"
    table.add_column("bot")
    table.add_column("games won", justify="right")
    table.add_column("win rate [95%]", justify="right")
    table.add_column(f"{points_header} [95%]", justify="right")
    table.add_column("decisive deals won [95%]", justify="right")
    table.add_column("out", justify="right")
    table.add_column("rummy", justify="right")
    table.add_column("ms p50/p99", justify="right")
    for position in result.positions:
        table.add_row(
            f"{position.position} {position.bot}",
            str(position.games_won),
            f"{_percent(position.win_rate)} {_percent_interval(position.win_rate_ci95)}",
            # escaped: rich reads "[n/a: one set]" as markup and would drop it
            escape(f"{_points(position.points_per_deal)} ")
            + escape(_points_interval(position.points_per_deal_ci95)),
            f"{_percent(position.decisive_deal_win_rate)} "
            f"{_percent_interval(position.decisive_deal_win_rate_ci95)}",
            _percent(position.going_out_rate),
            _percent(position.going_rummy_rate),
            f"{_milliseconds(position.decision_ms_p50)}/{_milliseconds(position.decision_ms_p99)}",
        )
    deals = tally.deals
    turns = f"{tally.turns / deals:.1f}" if deals else "-"
    actions = f"{tally.actions / deals:.1f}" if deals else "-"
    table.caption = (
        f"{deals} deals: {result.decisive_deals} decisive, {tally.blocked_deals} blocked; "
        f"{turns} turns ({actions} actions) a deal.\n"
        f"Ties {tally.ties}; cut games {tally.cut_games} ({tally.cut_deals} deals cut at "
        f"{config.action_cap} actions, not counted above). {result.seconds:.1f} s.\n"
        "Points/deal: mean over duplicate sets, 95% t-interval over sets. Win rates: Wilson "
        "95%.\nout: deals gone out in (rummy included) / deals; rummy likewise; ms: time "
        "per decision."
    )
    return table


def _rules_line(rules: Mapping[str, object]) -> str:
    preset = rules.get("preset")
    changed = ", ".join(f"{name}={value}" for name, value in rules.items() if name != "preset")
    return f"{preset} ({changed})"
