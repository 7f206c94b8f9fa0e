"""Alembic's environment: the migrations run on the connection the store hands over."""

from rummykit.server.store.migrate import run_environment

run_environment()
