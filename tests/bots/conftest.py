"""Test configuration for the bots: their shared game-playing helpers live beside this file."""

import sys
from pathlib import Path

# `from bot_games import ...` in the bot tests: the helpers are in this directory.
sys.path.insert(0, str(Path(__file__).parent))
