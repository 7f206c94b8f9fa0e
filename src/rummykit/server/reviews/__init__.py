"""Post-game reviews, computed once on the worker pool and kept with the game."""
