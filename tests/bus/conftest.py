"""Fixtures for the lease and bus tests: the test Redis, and each backend in turn."""

import pytest

from bus_backends import Backend
from redis_service import RedisService, redis_server

__all__ = ["backend", "redis_server"]


@pytest.fixture(params=["memory", "redis"])
def backend(request: pytest.FixtureRequest) -> Backend:
    """The in-memory backend, then the Redis one (on the session's test Redis)."""
    if request.param == "memory":
        return Backend("memory", None)
    service: RedisService = request.getfixturevalue("redis_server")
    return Backend("redis", service)
