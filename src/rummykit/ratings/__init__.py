"""Ratings for ranked play: openskill's BradleyTerryFull over each game's final order.

A game counts in proportion to how well its players are known apart from each other
(``trust``), and less each time the same accounts meet again (``repeat_weight``).

Pure functions only: the server stores ratings and calls these in the transaction that
finishes a game.

>>> from rummykit.ratings import Rating, display, final_order, rate
>>> ranks = final_order([150, 80, 150], lower_wins=False)
>>> [display(rating) for rating in rate([Rating()] * 3, ranks)]
['1658?', '1184?', '1658?']
"""

from rummykit.ratings.drift import DRIFT_PER_DAY, drifted
from rummykit.ratings.eligibility import (
    LEADERBOARD_GAMES,
    LEADERBOARD_IDLE_DAYS,
    LEADERBOARD_OPPONENTS,
    is_rated,
    leaderboard_eligible,
)
from rummykit.ratings.errors import RatingInputError
from rummykit.ratings.order import final_order
from rummykit.ratings.pairing import (
    ANYONE_AFTER_S,
    START_RANGE,
    WIDEN_PER_S,
    Seeker,
    rating_range,
    tables_to_make,
)
from rummykit.ratings.pool import Pool
from rummykit.ratings.rating import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    SETTLED_SIGMA,
    Rating,
    display,
    display_value,
    is_settled,
)
from rummykit.ratings.repeats import REPEAT_WINDOW_DAYS, repeat_weight, times_played_recently
from rummykit.ratings.trust import (
    NETWORK_WINDOW_DAYS,
    TRUSTED_DAYS,
    TRUSTED_GAMES,
    TRUSTED_OPPONENTS,
    Standing,
    pair_trust,
    shares_network,
    trust,
    trust_weight,
)
from rummykit.ratings.update import rate
from rummykit.ratings.waits import ranked_wait

__all__ = [
    "ANYONE_AFTER_S",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "DRIFT_PER_DAY",
    "LEADERBOARD_GAMES",
    "LEADERBOARD_IDLE_DAYS",
    "LEADERBOARD_OPPONENTS",
    "NETWORK_WINDOW_DAYS",
    "REPEAT_WINDOW_DAYS",
    "SETTLED_SIGMA",
    "START_RANGE",
    "TRUSTED_DAYS",
    "TRUSTED_GAMES",
    "TRUSTED_OPPONENTS",
    "WIDEN_PER_S",
    "Pool",
    "Rating",
    "RatingInputError",
    "Seeker",
    "Standing",
    "display",
    "display_value",
    "drifted",
    "final_order",
    "is_rated",
    "is_settled",
    "leaderboard_eligible",
    "pair_trust",
    "ranked_wait",
    "rate",
    "rating_range",
    "repeat_weight",
    "shares_network",
    "tables_to_make",
    "times_played_recently",
    "trust",
    "trust_weight",
]
