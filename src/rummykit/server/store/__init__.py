"""Where everything lives between requests and restarts: SQLite or PostgreSQL, migrated."""
