"""What ``rummy party new`` and ``rummy join`` print: sentences for people, or JSON lines.

With ``--json`` every line on standard output is one JSON object, flushed at once, so a
program reading the pipe sees each as it happens:

- ``{"code": C, "url": U}`` first (``rummy party new`` only): the party's code and link;
- ``{"deal": N, "result": R, "winner": S, "points": [...], "scores": [...]}`` per deal over;
- ``{"acked": ACTION, "v": V, "table": T, "seat": S}`` per action of this seat the table
  applied (the version it made);
- ``{"table": T, "seat": S, "scores": [...], "winner": S, "rejoined": B}`` last, at game over.

``rummy bot`` prints those of each game it plays, and its own: ``{"online": NAME}``,
``{"accepted": ID, "code": C}``, ``{"declined": ID, "code": C, "reason": R}``,
``{"withdrawn": ID}``, ``{"game_started": T, "code": C}``, ``{"game_ended": T, "code": C}``
and ``{"offline": NAME, "games": N}`` last.

Without it, a line per deal and the final scores, and what happens to the connection on
standard error.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from rummykit.protocol import SeatView

BOT_MARK = "BOT"
"""The mark of a program's account, wherever the command line shows its name."""


def with_bot_mark(name: str, bot: bool) -> str:
    """``name``, marked ``[BOT]`` when it is a program's account's."""
    return f"{name} [{BOT_MARK}]" if bot else name


def _names(view: SeatView) -> list[str]:
    return [player.name for player in view.players]


def deal_sentence(view: SeatView) -> str:
    """One line for a deal just over: how it ended and what each seat scored."""
    result = view.deal_result
    names = _names(view)
    number = view.deal + 1
    if result is None:
        return f"Deal {number} is over."
    if result.winner is None:
        how = "was blocked (the stock ran out)"
    else:
        verb = {
            "rummy": "went rummy",
            "knock": "won the knock",
            "undercut": "undercut the knock",
        }.get(result.result or "", "went out")
        how = f"{names[result.winner]} {verb}"
    points = ", ".join(
        f"{name} {point:+d}" for name, point in zip(names, result.points, strict=True)
    )
    totals = ", ".join(f"{name} {score}" for name, score in zip(names, view.scores, strict=True))
    return f"Deal {number}: {how}. Points: {points}. Totals: {totals}."


class Report:
    """The program's output: sentences, or one JSON object a line (``as_json``)."""

    def __init__(self, as_json: bool, out: TextIO | None = None, err: TextIO | None = None):
        self.as_json = as_json
        self.out = out or sys.stdout
        self.err = err or sys.stderr

    def _line(self, data: dict[str, Any]) -> None:
        self.out.write(json.dumps(data, ensure_ascii=False) + "\n")
        self.out.flush()

    def say(self, text: str) -> None:
        """A sentence for a person on standard output (none with ``--json``)."""
        if not self.as_json:
            print(text, file=self.out, flush=True)

    def event(self, data: dict[str, Any], sentence: str) -> None:
        """Something that happened: ``data`` as a JSON line, or ``sentence`` for a person."""
        if self.as_json:
            self._line(data)
        else:
            self.say(sentence)

    def note(self, text: str) -> None:
        """What happens to the connection: on standard error, with or without ``--json``."""
        print(text, file=self.err, flush=True)

    def invite(self, code: str, url: str) -> None:
        """The party's code and link, first of all."""
        if self.as_json:
            self._line({"code": code, "url": url})
        else:
            self.say(f"Party {code}. Invite link: {url}")
            self.say(f"Others join with: rummy join {code} --server ...")

    def deal_over(self, view: SeatView) -> None:
        """A deal has ended."""
        if self.as_json:
            result = view.deal_result
            self._line(
                {
                    "deal": view.deal,
                    "result": result.result if result else None,
                    "winner": result.winner if result else None,
                    "points": list(result.points) if result else [],
                    "scores": list(view.scores),
                }
            )
        else:
            self.say(deal_sentence(view))

    def acked(self, view: SeatView, version: int, action: str) -> None:
        """The table applied an action of this seat, making ``version``."""
        if self.as_json:
            self._line({"acked": action, "v": version, "table": view.table, "seat": view.seat})

    def finished(self, view: SeatView, *, rejoined: bool) -> None:
        """The game is over: the final line."""
        if self.as_json:
            self._line(
                {
                    "table": view.table,
                    "seat": view.seat,
                    "scores": list(view.scores),
                    "winner": view.winner,
                    "rejoined": rejoined,
                }
            )
            return
        names = _names(view)
        table = Table(title=f"Final scores (table {view.table})")
        table.add_column("seat")
        table.add_column("player")
        table.add_column("score", justify="right")
        for seat, (player, score) in enumerate(zip(view.players, view.scores, strict=True)):
            mark = " (you)" if seat == view.seat else ""
            table.add_row(str(seat), with_bot_mark(player.name, player.program) + mark, str(score))
        Console(file=self.out, width=80).print(table)
        winner = "a tie" if view.winner is None else f"{names[view.winner]} wins"
        self.say(f"Game over: {winner}." + (" (This program rejoined its seat.)" * rejoined))
