"""The site assembled from the wings: its settings, the ASGI app, and serving it on an address."""

from rummykit.server.site.app import create_app
from rummykit.server.site.config import ConfigError, ServerConfig
from rummykit.server.site.run import PortInUse, default_store_path, free_port, serve

__all__ = [
    "ConfigError",
    "PortInUse",
    "ServerConfig",
    "create_app",
    "default_store_path",
    "free_port",
    "serve",
]
