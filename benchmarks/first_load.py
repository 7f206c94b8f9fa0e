"""The first load of a table page: bytes over the wire, and the time to the first dealt hand.

A real ``rummy serve`` process on loopback (a fresh store), and Debian's Chromium under
Playwright. Each load is a fresh browser context (an empty cache, as a player's first visit)
holding the seat of a table just made (``POST /api/tables``: classic, one basic computer
player), opening ``/#/table/ID`` at 1280x800. It counts:

- **bytes**: every HTTP response of the load as Chromium's network layer received it
  (``Network.loadingFinished``'s ``encodedDataLength``: headers and body, compressed if the
  server compressed it), until the network is idle after the hand shows; the socket's frames
  are counted apart. The goal is under 300 KB with no build step (issue 10).
- **first hand**: from the start of the navigation (``performance.now()``'s origin) to the
  moment the first card of the hand is in the page (a ``MutationObserver`` set before any of
  the page's own scripts run).

    .venv/bin/python benchmarks/first_load.py --loads 20 --json benchmarks/results/first_load.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

# run as a script: the repository (for benchmarks.*) and tests/ (the server process, Chromium)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests"))
from benchmarks.engine import machine_info, render

from rummykit.server.site.run import free_port
from server_process import ServerProcess
from web.conftest import CHROMIUM, CHROMIUM_ARGS, INSTALL_CHROMIUM

BUDGET_BYTES = 300 * 1024
"""The first load of a table stays under 300 KB (issue 10), with no build step."""

VIEWPORT = {"width": 1280, "height": 800}
HAND_CARD = "[data-testid=hand-card]"

WATCH_FIRST_HAND = """
window.__rummyFirstHandMs = null;
new MutationObserver((changes, observer) => {
  if (document.querySelector('[data-testid=hand-card]')) {
    window.__rummyFirstHandMs = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""
"""Set before the page's scripts run: when the first card of the hand enters the page."""


def kind_of(url: str, mime: str) -> str:
    """A response's kind for the breakdown: script, style, page, api or other."""
    if "/api/" in url:
        return "api"
    if "javascript" in mime:
        return "script"
    if "css" in mime:
        return "style"
    if "html" in mime:
        return "page"
    return "other"


def one_load(browser: Any, server: ServerProcess, locale: str = "en-GB") -> dict[str, Any]:
    """Open a new table's page in a fresh context whose browser asks for ``locale`` (the
    page loads that language's words only); its bytes, requests and first-hand time."""
    table_id, token = server.create_table()
    context = browser.new_context(viewport=VIEWPORT, locale=locale)
    try:
        seat = json.dumps([f"rummykit.seat.{table_id}", token])
        context.add_init_script(f"try {{ localStorage.setItem(...{seat}); }} catch {{}}")
        context.add_init_script(WATCH_FIRST_HAND)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        kinds: dict[str, str] = {}
        by_kind: Counter[str] = Counter()
        socket_bytes = [0]

        def responded(event: dict[str, Any]) -> None:
            response = event["response"]
            kinds[event["requestId"]] = kind_of(response["url"], response.get("mimeType", ""))

        def finished(event: dict[str, Any]) -> None:
            by_kind[kinds.get(event["requestId"], "other")] += int(event["encodedDataLength"])

        def frame(event: dict[str, Any]) -> None:
            socket_bytes[0] += len(event["response"]["payloadData"].encode())

        cdp.on("Network.responseReceived", responded)
        cdp.on("Network.loadingFinished", finished)
        cdp.on("Network.webSocketFrameReceived", frame)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.goto(f"{server.url}/#/table/{table_id}")
        page.wait_for_function("() => window.__rummyFirstHandMs !== null", timeout=30_000)
        first_hand_ms = float(page.evaluate("window.__rummyFirstHandMs"))
        page.wait_for_load_state("networkidle")
        return {
            "bytes": sum(by_kind.values()),
            "requests": len(kinds),
            "by_kind": dict(sorted(by_kind.items())),
            "socket_bytes": socket_bytes[0],
            "first_hand_ms": round(first_hand_ms, 1),
        }
    finally:
        context.close()


def summary(loads: list[dict[str, Any]]) -> dict[str, Any]:
    """The median load, and the spread of the time to the first hand."""
    times = [load["first_hand_ms"] for load in loads]
    sizes = [load["bytes"] for load in loads]
    return {
        "loads": len(loads),
        "bytes_median": statistics.median(sizes),
        "bytes_max": max(sizes),
        "within_budget": max(sizes) < BUDGET_BYTES,
        "requests_median": statistics.median(load["requests"] for load in loads),
        "socket_bytes_median": statistics.median(load["socket_bytes"] for load in loads),
        "first_hand_ms": {
            "median": round(statistics.median(times), 1),
            "min": min(times),
            "max": max(times),
        },
        "by_kind_median": {
            kind: statistics.median(load["by_kind"].get(kind, 0) for load in loads)
            for kind in sorted({kind for load in loads for kind in load["by_kind"]})
        },
    }


def measure(loads: int, locale: str = "en-GB") -> dict[str, Any]:
    """``loads`` first loads against one fresh server process; the report."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is missing: {INSTALL_CHROMIUM}")
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        server = ServerProcess(where / "tables.sqlite3", free_port(), where / "server.log")
        with server, sync_playwright() as playwright:
            server.start()
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                one_load(browser, server, locale)  # warm-up: the server's first imports and pages
                results = [one_load(browser, server, locale) for _ in range(loads)]
            finally:
                browser.close()
    return {
        "machine": machine_info(None),
        "locale": locale,
        "summary": summary(results),
        "loads": results,
    }


def report(result: dict[str, Any]) -> None:
    """The figures as a table on stdout."""
    figures = result["summary"]
    kinds = ", ".join(
        f"{kind} {size / 1024:.1f}" for kind, size in figures["by_kind_median"].items()
    )
    rows = [
        ["browser language", result["locale"]],
        ["loads", str(figures["loads"])],
        ["bytes (median, KB)", f"{figures['bytes_median'] / 1024:.1f}"],
        ["bytes (largest, KB)", f"{figures['bytes_max'] / 1024:.1f}"],
        ["under 300 KB", "yes" if figures["within_budget"] else "NO"],
        ["by kind (median, KB)", kinds],
        ["requests (median)", str(figures["requests_median"])],
        ["socket bytes to the hand (median, KB)", f"{figures['socket_bytes_median'] / 1024:.1f}"],
        ["first hand (median, ms)", str(figures["first_hand_ms"]["median"])],
        [
            "first hand (min-max, ms)",
            f"{figures['first_hand_ms']['min']}-{figures['first_hand_ms']['max']}",
        ],
    ]
    render("First load of a table page", ["figure", "value"], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--loads", type=int, default=10, help="loads measured (default 10)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON here too")
    parser.add_argument(
        "--locale",
        default="en-GB",
        help="the browser's language (default en-GB; ja-JP loads the Japanese words instead)",
    )
    args = parser.parse_args(argv)
    result = measure(max(1, args.loads), args.locale)
    report(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0 if result["summary"]["within_budget"] else 1


if __name__ == "__main__":
    sys.exit(main())
