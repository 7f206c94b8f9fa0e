"""A finished tournament summed up: each position's rates and points with 95% intervals.

``SimResult.to_json`` is the ``rummy sim --json`` object; ``report.result_table`` draws
the same figures as a table.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Final

from rummykit.core.presets import describe_rules
from rummykit.core.rules import Scoring
from rummykit.tournament.config import SimConfig
from rummykit.tournament.stats import mean, mean_interval, percentile, wilson_interval
from rummykit.tournament.tally import SetTally


@dataclasses.dataclass(frozen=True, slots=True)
class PositionResult:
    """The results of one position (one bot as given on the command line)."""

    position: int
    bot: str
    games_won: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    points_per_deal: float
    """The mean over duplicate sets of its mean points per deal in each set."""
    points_per_deal_ci95: tuple[float, float]
    deals_won: int
    """Deals it went out in (rummy included)."""
    decisive_deal_win_rate: float
    """Its share of the deals someone went out in."""
    decisive_deal_win_rate_ci95: tuple[float, float]
    going_out_rate: float
    """Deals it went out in (rummy included) over deals played."""
    going_rummy_rate: float
    decisions: int
    decision_ms_p50: float
    decision_ms_p99: float
    deal_points: tuple[int, ...]
    """Its points in every completed deal (for the plot)."""


@dataclasses.dataclass(frozen=True, slots=True)
class SimResult:
    """A finished tournament: the configuration, the tallies, and per-position results."""

    config: SimConfig
    tally: SetTally
    seconds: float
    """Wall-clock time it took."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.tally.games

    @property
    def ties(self) -> int:
        """Games with no single winner (cut games not included)."""
        return self.tally.ties

    @property
    def cut_games(self) -> int:
        """Games ended early by a deal cut at the action cap."""
        return self.tally.cut_games

    @property
    def decisive_deals(self) -> int:
        """Completed deals that someone went out in."""
        return self.tally.deals - self.tally.blocked_deals

    @property
    def lower_is_better(self) -> bool:
        """Whether points are penalties (penalty scoring): then fewer points are better."""
        return self.config.rules.scoring is Scoring.PENALTY

    @property
    def positions(self) -> list[PositionResult]:
        """The results by position, in the order the bots were given."""
        tally = self.tally
        deals = tally.deals
        results = []
        for index, (bot, position) in enumerate(
            zip(self.config.bots, tally.positions, strict=True)
        ):
            set_means = [means[index] for means in tally.set_points_per_deal]
            milliseconds = [seconds * 1000 for seconds in position.decision_seconds]
            results.append(
                PositionResult(
                    position=index,
                    bot=bot,
                    games_won=position.games_won,
                    win_rate=position.games_won / tally.games if tally.games else math.nan,
                    win_rate_ci95=wilson_interval(position.games_won, tally.games),
                    points_per_deal=mean(set_means),
                    points_per_deal_ci95=mean_interval(set_means),
                    deals_won=position.deals_won,
                    decisive_deal_win_rate=(
                        position.deals_won / self.decisive_deals
                        if self.decisive_deals
                        else math.nan
                    ),
                    decisive_deal_win_rate_ci95=wilson_interval(
                        position.deals_won, self.decisive_deals
                    ),
                    going_out_rate=position.deals_won / deals if deals else math.nan,
                    going_rummy_rate=position.rummies / deals if deals else math.nan,
                    decisions=len(position.decision_seconds),
                    decision_ms_p50=percentile(milliseconds, 50),
                    decision_ms_p99=percentile(milliseconds, 99),
                    deal_points=tuple(position.deal_points),
                )
            )
        return results

    def to_json(self) -> dict[str, Any]:
        """The ``rummy sim --json`` object (NaN written as ``null``)."""
        config = self.config
        tally = self.tally
        deals = tally.deals
        seats = [
            {
                "bot": result.bot,
                "position": result.position,
                "games_won": result.games_won,
                "win_rate": _number(result.win_rate),
                "win_rate_ci95": _pair(result.win_rate_ci95),
                "points_per_deal": _number(result.points_per_deal),
                "points_per_deal_ci95": _pair(result.points_per_deal_ci95),
                "deals_won": result.deals_won,
                "decisive_deal_win_rate": _number(result.decisive_deal_win_rate),
                "decisive_deal_win_rate_ci95": _pair(result.decisive_deal_win_rate_ci95),
                "going_out_rate": _number(result.going_out_rate),
                "going_rummy_rate": _number(result.going_rummy_rate),
                "decisions": result.decisions,
                "decision_ms_p50": _number(result.decision_ms_p50),
                "decision_ms_p99": _number(result.decision_ms_p99),
            }
            for result in self.positions
        ]
        return {
            "bots": list(config.bots),
            "rules": describe_rules(config.preset, config.rules),
            "seed": config.seed,
            "games": tally.games,
            "duplicate_sets": config.sets,
            "ties": tally.ties,
            "cut_games": tally.cut_games,
            "deals": deals,
            "cut_deals": tally.cut_deals,
            "blocked_deals": tally.blocked_deals,
            "decisive_deals": self.decisive_deals,
            "turns_per_deal": _number(tally.turns / deals if deals else math.nan),
            "actions_per_deal": _number(tally.actions / deals if deals else math.nan),
            "deal_action_cap": config.action_cap,
            "lower_is_better": self.lower_is_better,
            "seconds": round(self.seconds, 3),
            "seats": seats,
        }


TIMING_FIELDS: Final = ("seconds", "decision_ms_p50", "decision_ms_p99")
"""The ``--json`` fields that measure time, so differ between runs of the same seed."""


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)


def _pair(values: tuple[float, float]) -> list[float | None]:
    return [_number(values[0]), _number(values[1])]
