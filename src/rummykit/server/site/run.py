"""Starting the server: where its database lives, and serving on an address."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import secrets
import signal
import socket
import threading
import time
import webbrowser
from collections.abc import Iterator, Sequence
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Final

import uvicorn
from starlette.applications import Starlette

from rummykit.data_folder import data_folder
from rummykit.protocol import MAX_SOCKET_MESSAGE_BYTES
from rummykit.server.cluster import Cluster
from rummykit.server.http import (
    Heartbeat,
    defer_full_collections,
    freeze_startup_objects,
    guarded_http,
    guarded_websockets,
    is_loopback,
    loopback_hosts,
)
from rummykit.server.runtime import WorkerPool
from rummykit.server.site.app import create_app
from rummykit.server.site.config import ServerConfig


def default_store_path() -> Path:
    """The database, in the data folder (``RUMMY_DATA_DIR`` if set; made when first opened)."""
    return data_folder() / "tables.sqlite3"


def answered_hosts(
    host: str, port: int, allowed_hosts: Sequence[str] | None
) -> Sequence[str] | None:
    """The ``Host`` names a server listening on ``host:port`` answers (``None``: any).

    The host's ``allowed_hosts`` if given; else, on a loopback address, only the loopback
    names at ``port``: a page of another site whose name was rebound to 127.0.0.1 (DNS
    rebinding) sends its own name, and is refused. Elsewhere any name (the host names it).
    """
    if allowed_hosts:
        return allowed_hosts
    return loopback_hosts(port) if is_loopback(host) else None


LISTENING_PORTS: Final = range(20_000, 32_768)
"""Where ``free_port`` looks first: below the ports the system gives outgoing connections
(Linux's default 32768-60999). A port from that range, free when chosen, could be taken by any
connection before the server binds it (or binds it again after a restart); one from here is
only ever taken by a listener."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody listens on right now, out of the way of outgoing connections."""
    for _ in range(64):
        port = LISTENING_PORTS.start + secrets.randbelow(len(LISTENING_PORTS))
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue  # in use: another
            return port
    with socket.socket() as probe:  # a crowded range: any the system gives
        probe.bind((host, 0))
        given: int = probe.getsockname()[1]
        return given


class PortInUse(RuntimeError):
    """Another program listens on the address the server was asked to serve."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, or ``PortInUse``.

    Bound before the server says where it serves, so what it prints is already true (uvicorn
    bound later: a taken port printed the address, then a traceback). ``SO_REUSEADDR`` as
    uvicorn sets it: a server started again at once takes its port back from ``TIME_WAIT``.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=2048)
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        raise PortInUse(
            f"another program already listens on {host}:{port}: stop it, or choose another --port"
        ) from None


def uvicorn_config(
    app: Starlette,
    host: str,
    port: int,
    *,
    trusted_proxies: Sequence[str] = (),
    **options: object,
) -> uvicorn.Config:
    """How uvicorn serves ``app`` (made by ``create_app``), under the app's own limits.

    Socket frames past ``MAX_SOCKET_MESSAGE_BYTES`` are refused unread, HTTP connections
    are guarded by ``rummykit.server.http.connections`` and sockets' frames by
    ``rummykit.server.http.frame_guard``, and every socket is pinged as the app's
    ``Heartbeat`` says (a socket that stops answering is closed: uvicorn's 20 s and 20 s
    noticed a dead connection only after 20 to 40 s). ``options`` go to ``uvicorn.Config``.

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read only from the ``trusted_proxies``
    (addresses or networks, like ``127.0.0.1`` for an nginx on the same machine); with none, a
    request's address is its connection's. uvicorn trusted 127.0.0.1 by default, so anyone on
    the server's machine could name any address and escape the limits per address.
    """
    limits = app.state.limiter.limits
    heartbeat: Heartbeat = app.state.heartbeat
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_SOCKET_MESSAGE_BYTES,
        ws_ping_interval=heartbeat.ping_s,
        ws_ping_timeout=heartbeat.ping_timeout_s,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies),
        http=guarded_http(limits),
        ws=guarded_websockets(),
        **options,  # type: ignore[arg-type]
    )


@dataclasses.dataclass
class CtrlC:
    """Whether a Ctrl+C (SIGINT) came while ``ctrl_c_for_this_process_only`` held it."""

    pressed: bool = False


@contextlib.contextmanager
def ctrl_c_for_this_process_only() -> Iterator[CtrlC]:
    """Keep Ctrl+C from the worker processes started inside, for the server to handle alone.

    Ctrl+C in a terminal reaches the whole process group. A worker ignores it once started
    (``rummykit.server.runtime.workers``), but one still starting (importing, a second or more)
    printed
    a traceback of its own. Inside, SIGINT is blocked in this thread, so every thread made here
    and every process they start has it blocked from its first instruction; one thread made
    before, which only waits, takes the signal, and Python still runs the handler (uvicorn's,
    or ``KeyboardInterrupt``) in the main thread. It yields a ``CtrlC`` that says, once the
    block is left, whether a Ctrl+C came.
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "pthread_sigmask"
    ):
        yield CtrlC()  # no signals to manage here (a test's server thread; Windows)
        return
    # multiprocessing's resource tracker unblocks SIGINT in the thread that first starts it:
    # started now, before the block, it leaves the block alone
    resource_tracker.ensure_running()
    done = threading.Event()
    taker = threading.Thread(target=done.wait, name="ctrl-c", daemon=True)
    taker.start()  # made before the block, so it alone may take the signal
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    ctrl_c = CtrlC()
    try:
        yield ctrl_c
    except KeyboardInterrupt:
        ctrl_c.pressed = True
        raise
    finally:
        # uvicorn raises the Ctrl+C it stopped for again, in this thread, where it waits
        # blocked: the server has stopped for it, so it is taken here and not raised twice
        if signal.SIGINT in signal.sigpending():
            signal.sigwait({signal.SIGINT})
            ctrl_c.pressed = True
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        done.set()


def serve(
    host: str,
    port: int,
    config: ServerConfig,
    open_browser: bool,
    *,
    workers: int | None = None,
    trusted_proxies: Sequence[str] = (),
) -> bool:
    """Serve the site made with ``config`` until interrupted; print (and open) its address.

    Returns whether a Ctrl+C (SIGINT) stopped it (``rummy`` then exits 130, as a shell expects
    of a program that Ctrl+C ended).

    It answers the ``Host`` names of ``answered_hosts`` (on a loopback address, only the
    loopback names at ``port`` unless ``config.allowed_hosts`` says otherwise).
    ``workers`` is the number of worker processes (default: one per core).
    ``trusted_proxies``: the proxies whose ``X-Forwarded-For`` is believed (see
    ``uvicorn_config``; none by default).
    Port 0 serves on a port the system chooses, and says which.
    Raises ``FileInUse`` when another process serves ``config.store_path``, ``PortInUse``
    when another program listens on ``host:port``.
    """
    with ctrl_c_for_this_process_only() as ctrl_c:
        listener = listening_socket(host, port)
        port = listener.getsockname()[1]  # the one the system chose, for port 0
        config = dataclasses.replace(
            config, allowed_hosts=answered_hosts(host, port, config.allowed_hosts)
        )
        pool = WorkerPool(workers)
        try:
            cluster = None if config.redis_url is None else Cluster.on_redis(config.redis_url)
            app = create_app(config, workers=pool, cluster=cluster)
        except BaseException:
            pool.close()
            listener.close()
            raise
        address = f"http://{host}:{port}/"
        kept = config.store_path if config.database_url is None else "PostgreSQL"
        print(f"rummykit is serving at {address}  (games are kept in {kept}; Ctrl+C stops)")
        if open_browser:

            def open_later() -> None:
                time.sleep(0.8)
                webbrowser.open(address)

            threading.Thread(target=open_later, daemon=True).start()
        freeze_startup_objects()  # a process of its own: what lives now lives till the end
        defer_full_collections()  # and the app's keeper collects in full, at its own pace
        try:
            server = uvicorn.Server(
                uvicorn_config(app, host, port, trusted_proxies=trusted_proxies)
            )
            server.run(sockets=[listener])
        except KeyboardInterrupt:
            # uvicorn has shut down cleanly and raised the Ctrl+C again (or a second Ctrl+C
            # came while it shut down): a normal stop
            ctrl_c.pressed = True
        finally:
            pool.close()
            listener.close()
        print("rummykit stopped.")
    return ctrl_c.pressed
