"""``rummy bot``: keep a program's account online, answer its invitations, play what it accepts.

The account's stream (``/ws/bot``, docs/PROTOCOL.md §7) brings invitations; each is accepted
or declined by the limits given on the command line (``decline_reason``, the rule the server
documents), and each accepted one is played in a thread of its own as ``rummy join`` plays a
seat: joined by its link as the account, ready, played to the game's end by the bot named. The
stream reconnects after a drop (``Backoff``) and goes on; a session the server refuses, or
another program taking the account's stream over, ends it.

The first Ctrl+C takes the account offline and lets the games being played finish; a second
one stops at once. With ``--stop-after N`` the program stops by itself once N games are over.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Final

from pydantic import ValidationError
from websockets.sync.client import ClientConnection

from rummykit.client.commands import AccountProblem, SeatOptions, join, signed_options
from rummykit.client.report import Report
from rummykit.client.servers import Servers, reconnect_note, signed_for
from rummykit.client.sockets import (
    FATAL_CLOSES,
    Backoff,
    SeatLost,
    bot_socket_url,
    keep_trying,
    opened,
)
from rummykit.client.web import invite_link
from rummykit.protocol import (
    BOT_SERVER_MESSAGES,
    Accept,
    AcceptData,
    BotHello,
    BotHelloData,
    BotLimits,
    CloseCode,
    Decline,
    DeclineData,
    GameEnded,
    GameStarted,
    Invitation,
    InvitationGone,
    InvitationView,
    RefusedMessage,
    Welcome,
    decline_reason,
    party_text,
)

STREAM_CLOSES: Final[dict[int, str]] = {
    **FATAL_CLOSES,
    CloseCode.NOT_A_PROGRAM: "The server refused the session: it is not a program's account's, "
    "or it has ended (rummy account signin mends that).",
    CloseCode.REPLACED: "Another program took over this account's stream.",
}
"""Closes of the stream after which trying again cannot help."""

START_WITHIN_S: Final = 600.0
"""A party joined whose host has not started it within ten minutes is left: its game no
longer counts against the games the program plays at once."""

POLL_S: Final = 0.5
"""How often the stream's reader looks up from waiting to see which games are over."""

PlayOne = Callable[[InvitationView], int]
"""Plays the game of one accepted invitation to its end: its exit code (0: played)."""


@dataclasses.dataclass(frozen=True, slots=True)
class BotOptions:
    """``rummy bot``'s own options."""

    limits: BotLimits = dataclasses.field(default_factory=BotLimits)
    stop_after: int | None = None
    """Stop once this many games are over (``None``: run until stopped)."""


def limits_sentence(limits: BotLimits) -> str:
    """What the account takes, in one line: ``classic, party; 30 or 60 s a turn; ...``."""
    presets = ", ".join(limits.presets) if limits.presets else "any house rules"
    timers = " or ".join(str(seconds) for seconds in limits.turn_timers) or "any"
    timer = f"{timers} s a turn" + ("" if limits.untimed else " (no untimed games)")
    kinds = (("ranked", limits.ranked), ("friendly", limits.friendly))
    taken = [kind for kind, takes in kinds if takes]
    games = "1 game" if limits.games == 1 else f"{limits.games} games"
    return (
        f"{presets}; {timer}; parties of up to {limits.max_seats}; "
        f"{' and '.join(taken) or 'no'} games; {games} at once"
    )


def invitation_sentence(invitation: InvitationView) -> str:
    """An invitation in a few words: ``Ada's challenge: classic, ranked, 60 s a turn``."""
    what = "challenge" if invitation.challenge else "invitation"
    kind = "ranked" if invitation.ranked else "friendly"
    timer = "no timer" if invitation.turn_timer is None else f"{invitation.turn_timer} s a turn"
    return f"{invitation.host}'s {what} ({invitation.code}): {invitation.preset}, {kind}, {timer}"


class BotAccount:
    """One program's account online: its stream, and the games it plays."""

    def __init__(
        self,
        options: SeatOptions,
        bot: BotOptions,
        report: Report,
        *,
        play: PlayOne | None = None,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Online as ``options.account`` (signed: ``options.signed``), playing with ``options.bot``.

        ``play`` plays one accepted game (default: ``rummy join``'s way, by its link).
        """
        self.options = dataclasses.replace(options, start_within_s=START_WITHIN_S)
        self.bot = bot
        self.report = report
        self.servers = Servers(options.servers)
        self.play = play or self._join
        self.backoff = backoff or Backoff()
        self.sleep = sleep
        self.games = concurrent.futures.ThreadPoolExecutor(
            bot.limits.games, thread_name_prefix="rummy-bot-game"
        )
        self.playing: dict[int, concurrent.futures.Future[int]] = {}
        """The games accepted and not over, by invitation."""
        self.over = 0
        """Games over (played to the end, or lost)."""
        self.stopping = threading.Event()

    # ----- the games ---------------------------------------------------------------------

    def _join(self, invitation: InvitationView) -> int:
        link = invite_link(self.servers.current, invitation.url)
        return join(self.options, link, self.report)

    def _count_over(self) -> None:
        for number, game in list(self.playing.items()):
            if game.done():
                del self.playing[number]
                self.over += 1
                status = game.exception() or game.result()
                if status != 0:
                    self.report.note(f"A game ended early ({status}).")
        if self.bot.stop_after is not None and self.over >= self.bot.stop_after:
            self.stopping.set()

    def _answer(self, invitation: InvitationView, connection: ClientConnection) -> None:
        reason = decline_reason(self.bot.limits, invitation, len(self.playing))
        stop = self.bot.stop_after
        if reason is None and stop is not None and self.over + len(self.playing) >= stop:
            reason = "busy"  # the games it will play are all taken
        if reason is not None:
            declined = DeclineData(invitation=invitation.id, reason=reason)
            connection.send(Decline(t="decline", v=0, d=declined).model_dump_json())
            self.report.event(
                {"declined": invitation.id, "code": invitation.code, "reason": reason},
                # the sentence the person who invited is shown, from the server's words
                f"{invitation_sentence(invitation)}. "
                + party_text(f"declined_{reason}", {"name": self.options.name}),
            )
            return
        accepted = Accept(t="accept", v=0, d=AcceptData(invitation=invitation.id))
        connection.send(accepted.model_dump_json())
        self.report.event(
            {"accepted": invitation.id, "code": invitation.code},
            f"Accepted {invitation_sentence(invitation)}.",
        )
        self.playing[invitation.id] = self.games.submit(self.play, invitation)

    # ----- the stream --------------------------------------------------------------------

    def run(self) -> int:
        """Online until stopped; the exit code.

        0 once ``stop_after`` games are over, or after Ctrl+C with the games finished; 1 when
        the stream is refused for good.
        """
        try:
            keep_trying(self._attempt, self.backoff, self.sleep, self._dropped)
        except SeatLost as error:
            self.report.note(f"rummy bot: {error.message}")
            self.games.shutdown(wait=True)
            return 1
        except KeyboardInterrupt:
            self.report.note(
                f"Offline: finishing {len(self.playing)} game(s) (Ctrl+C again stops them)."
            )
        try:
            self.games.shutdown(wait=True)
        except KeyboardInterrupt:
            self.report.note("Stopped: the server's computer plays the seats left.")
            sys.stdout.flush()
            os._exit(130)  # the games' threads cannot be stopped; their seats are kept
        self._count_over()
        name = self.options.account or self.options.name
        self.report.event(
            {"offline": name, "games": self.over}, f"Offline after {self.over} game(s)."
        )
        return 0

    def _dropped(self, why: str, wait: float) -> None:
        self.servers.move_on()
        self.report.note(reconnect_note("bot stream", why, wait, self.servers))

    def _attempt(self) -> bool:
        signed = signed_for(self.options.signed, self.servers.current)
        with opened(bot_socket_url(self.servers.current), signed, STREAM_CLOSES) as connection:
            hello = BotHello(t="hello", v=0, d=BotHelloData(limits=self.bot.limits))
            connection.send(hello.model_dump_json())
            while not self.stopping.is_set():
                self._count_over()
                try:
                    text = connection.recv(timeout=POLL_S)
                except TimeoutError:
                    continue
                self._take(text, connection)
            return True

    def _take(self, text: str | bytes, connection: ClientConnection) -> None:
        try:
            message = BOT_SERVER_MESSAGES.validate_json(text)
        except ValidationError as error:
            self.report.note(f"Ignored a stream message that cannot be read: {error}")
            return
        match message:
            case Welcome():
                self.backoff.reset()
                self.report.event(
                    {"online": message.d.name},
                    f"Online as {message.d.name}, playing with the {self.options.bot} bot: "
                    f"takes {limits_sentence(message.d.limits)}.",
                )
            case Invitation():
                self._answer(message.d, connection)
            case InvitationGone():
                number = message.d.invitation
                self.report.event(
                    {"withdrawn": number}, f"Invitation {number} was withdrawn (no answer in time)."
                )
            case GameStarted():
                game = message.d
                self.report.event(
                    {"game_started": game.table, "code": game.code},
                    f"Game started at table {game.table} ({game.code}).",
                )
            case GameEnded():
                game = message.d
                self.report.event(
                    {"game_ended": game.table, "code": game.code},
                    f"Game over at table {game.table} ({game.code}).",
                )
            case RefusedMessage():
                self.report.note(f"The server refused: {message.d.message}")


def run_bot(options: SeatOptions, bot: BotOptions, report: Report) -> int:
    """``rummy bot``: the account signed in, then online until stopped; the exit code."""
    try:
        signed = signed_options(options)
    except AccountProblem as error:
        report.note(f"rummy bot: {error.message}")
        return error.status
    except ValueError as error:
        report.note(f"rummy bot: {error}")
        return 2
    return BotAccount(signed, bot, report).run()
