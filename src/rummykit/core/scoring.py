"""What a deal scores, and when the game is over: pure functions of the rules and the hands.

>>> from rummykit.core.rules import Rules, RummyBonus
>>> out_points(Rules(rummy_bonus=RummyBonus.DOUBLE), [0, 12, 5], seat=0, rummy=True)
[34, 0, 0]
>>> blocked_points(Rules(blocked="lowest_collects"), [9, 4, 20])
[0, 21, 0]
>>> knock_points(Rules(melding="knock"), [6, 4, 20], knocker=0)
(1, [0, 28, 0])
>>> melds_points(Rules(scoring="melds"), [40, 12, 0], [0, 25, 3], seat=0, rummy=False)
[40, -13, -3]
"""

from __future__ import annotations

from collections.abc import Sequence

from rummykit.core.cards import Card, Rank
from rummykit.core.melds import MeldKind, TableMeld
from rummykit.core.rules import Blocked, DealerRotation, Rules, RummyBonus, Scoring


def with_bonus(value: int, bonus: RummyBonus) -> int:
    """``value`` with the going-rummy bonus applied."""
    if bonus is RummyBonus.DOUBLE:
        return value * 2
    if bonus is RummyBonus.PLUS10:
        return value + 10
    return value


def out_points(rules: Rules, values: Sequence[int], seat: int, *, rummy: bool) -> list[int]:
    """Each seat's points when ``seat`` goes out; ``values`` are the hands' costs."""
    bonus = rules.rummy_bonus if rummy else RummyBonus.NONE
    points = [0] * len(values)
    if rules.scoring is Scoring.WINNER:
        points[seat] = with_bonus(sum(values), bonus)
    elif rules.scoring is Scoring.MELDS:
        raise ValueError("Under meld points a deal is scored by melds_points.")
    else:
        for other, value in enumerate(values):
            if other != seat:
                points[other] = with_bonus(value, bonus)
    return points


def placed_points(rules: Rules, meld: TableMeld, stood: Card) -> int:
    """What the card standing for ``stood`` in ``meld`` scores on the table (meld points).

    A joker scores the card it stands for. An ace scores ``low_ace_points`` as the lowest
    card of a run (A-2-3), and its cost (``ace_points``) anywhere else.
    """
    if stood.rank is Rank.ACE:
        lowest = meld.kind is MeldKind.RUN and meld.stands_for[0] == stood
        return rules.low_ace_points if lowest else rules.ace_points
    return rules.card_points(stood.code)


def meld_points(rules: Rules, meld: TableMeld) -> int:
    """What every card of ``meld`` scores on the table, as it lies now (meld points)."""
    return sum(placed_points(rules, meld, stood) for stood in meld.stands_for)


def melds_points(
    rules: Rules,
    table: Sequence[int],
    values: Sequence[int],
    seat: int | None,
    *,
    rummy: bool,
) -> list[int]:
    """Each seat's deal points under meld points: its table points less its hand's cost.

    ``table`` holds what each seat laid this deal, ``values`` its hand's cost; ``seat`` went
    out (``None``: the deal was blocked), with the going-rummy bonus on its points if
    ``rummy``.
    """
    points = [laid - held for laid, held in zip(table, values, strict=True)]
    if seat is not None and rummy:
        points[seat] = with_bonus(points[seat], rules.rummy_bonus)
    return points


def blocked_points(rules: Rules, values: Sequence[int]) -> list[int]:
    """Each seat's points when the deal is blocked; ``values`` are the hands' costs."""
    points = [0] * len(values)
    if rules.blocked is not Blocked.LOWEST_COLLECTS:
        return points
    lowest = min(values)
    if list(values).count(lowest) != 1:
        return points  # a tie for lowest scores nothing
    if rules.scoring is Scoring.WINNER:
        points[list(values).index(lowest)] = sum(value - lowest for value in values)
        return points
    return [value - lowest for value in values]


def game_over(rules: Rules, scores: Sequence[int], deals_played: int) -> bool:
    """Whether the game ends after this many deals with these totals."""
    if rules.deals is not None:
        return deals_played >= rules.deals
    return max(scores) >= rules.target


def game_winner(rules: Rules, scores: Sequence[int]) -> int | None:
    """The seat with the best total (highest, or lowest under penalty); ``None`` on a tie."""
    best = min(scores) if rules.scoring is Scoring.PENALTY else max(scores)
    return list(scores).index(best) if list(scores).count(best) == 1 else None


def next_dealer(rules: Rules, seats: int, dealer: int, deal_winner: int | None) -> int:
    """Who deals the next deal under the rules' rotation."""
    if rules.dealer is DealerRotation.WINNER and deal_winner is not None:
        return deal_winner
    return (dealer + 1) % seats


def knock_winners(deadwood: Sequence[int], knocker: int) -> list[int]:
    """Who wins a knock, first to the knocker's left: the lowest deadwood, ties included.

    The knocker wins alone only with the lowest deadwood of all: a player who ties the
    knocker wins instead (even at no deadwood), and players tied for the lowest share it.
    """
    seats = len(deadwood)
    others = [(knocker + step) % seats for step in range(1, seats)]
    best = min(deadwood[seat] for seat in others) if others else deadwood[knocker] + 1
    if deadwood[knocker] < best:
        return [knocker]
    return [seat for seat in others if deadwood[seat] == best]


def knock_winner(deadwood: Sequence[int], knocker: int) -> int:
    """The first winner of a knock to the knocker's left (the deal's winner in the record)."""
    return knock_winners(deadwood, knocker)[0]


def knock_points(rules: Rules, deadwood: Sequence[int], knocker: int) -> tuple[int, list[int]]:
    """The winner of a knock and each seat's points; ``deadwood`` is each hand's deadwood.

    Every other seat owes the winners the difference between its deadwood and theirs. A
    knocker beaten by a lower count owes the ``undercut_penalty`` on top (tied, it owes
    only the difference, which is nothing); a knocker who wins with no deadwood is owed the
    ``knock_bonus`` by each. Winner collects: the winners share all they are owed, a point
    left over going to the first of them to the knocker's left, and so on; penalty scoring:
    each other seat scores what it owes. The winner returned is the first to the knocker's
    left.
    """
    winners = knock_winners(deadwood, knocker)
    low = deadwood[winners[0]]
    owed = [0 if seat in winners else value - low for seat, value in enumerate(deadwood)]
    if winners == [knocker] and low == 0:
        owed = [
            0 if seat == knocker else value + rules.knock_bonus for seat, value in enumerate(owed)
        ]
    elif winners != [knocker] and deadwood[knocker] > low:
        owed[knocker] += rules.undercut_penalty
    if rules.scoring is Scoring.WINNER:
        points = [0] * len(deadwood)
        share, left = divmod(sum(owed), len(winners))
        for place, seat in enumerate(winners):
            points[seat] = share + (1 if place < left else 0)
        return winners[0], points
    return winners[0], owed
