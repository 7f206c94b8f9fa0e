"""Parties: people who play one table after another; the lobby that finds them."""
