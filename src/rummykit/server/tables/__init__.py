"""One task per table: its turns, its seats, its computer players, what it says."""
