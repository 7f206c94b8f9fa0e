"""Count how many points a won deal brings between good players, into ``deal_points.json``.

``equity.game_equity`` needs the spread of a won deal's points. It is read from the duplicate
sets that a two-seat tournament keeps (``benchmarks/bots.py --checkpoint DIR`` or
``rummy sim --checkpoint DIR``): every deal that someone won counts once, for the points it
brought. The shipped file counts the 200 games to 100 of ``master`` against ``expert``
(``classic``) in ``benchmarks/README.md``. Deals between searchers are won by about twice
what deals between two ``strong`` players are (they keep their melds in hand longer), so the
spread comes from the searchers' own games. Rerun it on a newer tournament's folder:

    .venv/bin/python -m rummykit.bots.deal_points_fit runs/master-inferred
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from rummykit.bots.equity import DEAL_POINTS_FILE


def won_points(folder: Path) -> tuple[Counter[int], int, int]:
    """The points of every won deal kept under ``folder``; how many deals, and sets, in all."""
    won: Counter[int] = Counter()
    deals = 0
    sets = sorted(folder.rglob("set-*.json"))
    for path in sets:
        positions = json.loads(path.read_text("utf-8"))["positions"]
        if len(positions) != 2:
            raise ValueError(f"{path} is not a two-seat tournament's set.")
        # Each deal is listed once a seat: the winner's positive points, the other's 0.
        deals += len(positions[0]["deal_points"])
        for position in positions:
            won.update(points for points in position["deal_points"] if points > 0)
    return won, deals, len(sets)


def main(argv: list[str] | None = None) -> None:
    """Count the kept sets' won deals and write the spread next to this module."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a tournament's --checkpoint folder")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).with_name(DEAL_POINTS_FILE),
        help="where to write (default: the package's own file)",
    )
    args = parser.parse_args(argv)
    won, deals, sets = won_points(args.folder)
    if not won:
        parser.error(f"No won deal in the sets under {args.folder}.")
    total = sum(won.values())
    data = {
        "about": "Points of each won deal of a two-seat tournament's kept sets: written by "
        "python -m rummykit.bots.deal_points_fit FOLDER.",
        "folder": args.folder.name,
        "sets": sets,
        "deals": deals,
        "unwon": deals - total,
        "won": {str(points): won[points] for points in sorted(won)},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    mean = sum(points * count for points, count in won.items()) / total
    print(f"{args.out}: {total} won deals of {deals}, {mean:.2f} points a won deal")


if __name__ == "__main__":
    main()
