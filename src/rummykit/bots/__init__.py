"""Computer players: each gets a seat's observation, never the game, and picks an action."""

from rummykit.bots.base import BOTS, Bot, make_bot
from rummykit.bots.basic import BasicBot
from rummykit.bots.expert import ExpertBot
from rummykit.bots.master import MasterBot
from rummykit.bots.random_bot import RandomBot
from rummykit.bots.strong import StrongBot

__all__ = [
    "BOTS",
    "BasicBot",
    "Bot",
    "ExpertBot",
    "MasterBot",
    "RandomBot",
    "StrongBot",
    "make_bot",
]
