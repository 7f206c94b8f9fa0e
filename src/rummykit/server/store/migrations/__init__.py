"""The store's schema migrations (Alembic), one history for SQLite and PostgreSQL.

``rummykit.server.store.migrate`` runs them when a store opens; ``env.py`` is Alembic's entry.
"""
