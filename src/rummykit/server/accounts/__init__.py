"""Accounts, sign-ins, ratings, the leaderboard and the player pages."""
