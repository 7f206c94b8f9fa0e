"""Seating players found together (a pool's, a challenge's, an arena's) at a started table.

The table is an ordinary party's, made with the players as its members (the first hosts it),
everyone ready, and started at once: its turn timer, its drop grace for whoever does not come
and its ranked checks are a party's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from rummykit.protocol import NewParty, PairedView, RuleValue, TurnTimer
from rummykit.server.parties import Lobby, PartyError
from rummykit.server.runtime import note_gone_past
from rummykit.server.store import Account


@dataclasses.dataclass(frozen=True, slots=True)
class Terms:
    """The game the players are seated to."""

    preset: str
    turn_timer: TurnTimer | None
    ranked: bool
    rules: Mapping[str, RuleValue] = dataclasses.field(default_factory=dict)


async def seat_together(
    lobby: Lobby, terms: Terms, players: Sequence[tuple[str, Account | None]]
) -> list[PairedView]:
    """Make and start the party of ``players`` (name, account); each one's seat, in order.

    ``PartyError`` when it cannot be made: a ranked check that failed late, or the store out
    of reach (``pairing_failed``, logged).
    """
    (host_name, host_account), *others = players
    request = NewParty(
        name=host_name,
        preset=terms.preset,
        rules=dict(terms.rules) or None,
        turn_timer=terms.turn_timer,
        ranked=terms.ranked,
    )
    try:
        party, host, host_token = await lobby.new_party(request, host_account)
        seats = [(host.id, host_token)]
        for name, account in others:
            member, token = await party.join(name, account)
            await party.set_ready(member.id, True)
            seats.append((member.id, token))
        table = await party.start(host.id, lobby.make_party_table)
    except PartyError:
        raise
    except Exception as error:
        note_gone_past("seating players together", error)
        raise PartyError("pairing_failed") from error
    url = party.view(None).url
    return [
        PairedView(
            code=party.code, member=member, token=token, url=url, table=table, ranked=terms.ranked
        )
        for member, token in seats
    ]
