"""The engine without the site: a bare install (``pip install rummykit``) replays, simulates,
reviews and hints, and imports no web, database or wire library to do it.

The site (``rummykit[server]``) and the network client (``rummykit[client]``) are extras; a
command that needs one says which to install.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "records" / "classic.json"
MIDWAY = "MIDWAY"
"""Stands for the classic record stopped at its first deal's tenth action (``midway``)."""

NOT_FOR_THE_ENGINE = (
    "starlette",
    "uvicorn",
    "websockets",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "psycopg_pool",
    "redis",
    "pydantic",
    "openskill",
    "zxcvbn",
    "confusable_homoglyphs",
    "httpx",
)
"""Libraries of the site and the client, which the engine's commands must not load."""

ENGINE_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",),
    ("replay", str(RECORD)),
    ("hint", MIDWAY),
    ("sim", "basic", "random", "--games", "2", "--jobs", "1"),
    # a review of the record's first ten actions: the whole 41-deal record took 14 s a run
    ("review", MIDWAY, "--seat", "0", "--samples", "2", "--json"),
    ("rules", "classic"),
)

_PROBE = """
import json, sys
from rummykit.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as stop:
    code = stop.code
loaded = sorted({name.split(".")[0] for name in sys.modules} & set(json.loads(%r)))
print("\\nLOADED " + json.dumps(loaded), file=sys.stderr)
sys.exit(code or 0)
"""


@pytest.fixture(scope="module")
def midway(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A record of a game under way: a position to ask a hint of, and a short review."""
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    record["deals"] = record["deals"][:1]
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:10]
    path = tmp_path_factory.mktemp("records") / "midway.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def _with(args: tuple[str, ...], midway: str) -> tuple[str, ...]:
    return tuple(midway if arg == MIDWAY else arg for arg in args)


def _loaded_by(args: tuple[str, ...]) -> tuple[int, list[str], str]:
    probe = _PROBE % json.dumps(NOT_FOR_THE_ENGINE)
    done = subprocess.run(
        [sys.executable, "-c", probe, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    line = done.stderr.rsplit("LOADED ", 1)[-1]
    return done.returncode, json.loads(line), done.stderr


@pytest.mark.parametrize("args", ENGINE_COMMANDS, ids=lambda args: args[0])
def test_the_engines_commands_load_nothing_of_the_site(args: tuple[str, ...], midway: str) -> None:
    code, loaded, stderr = _loaded_by(_with(args, midway))
    assert code == 0, stderr
    assert loaded == [], f"`rummy {' '.join(args)}` loaded {loaded}"


def test_importing_the_command_line_loads_nothing_of_the_site() -> None:
    probe = (
        "import json, sys; import rummykit.cli, rummykit.client.cli, rummykit.protocol; "
        "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert not set(json.loads(done.stdout)) & set(NOT_FOR_THE_ENGINE)


def test_the_protocols_plain_facts_load_no_message_model() -> None:
    probe = (
        "import sys; from rummykit.protocol import BOT_LEVELS, MAX_PACE_MS, TURN_TIMERS; "
        "print('pydantic' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


@pytest.fixture(scope="module")
def bare_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with ``pip install rummykit`` and no extra: its ``bin``."""
    home = tmp_path_factory.mktemp("bare")
    venv.create(home / "venv", with_pip=True)
    bin_dir = home / "venv" / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", str(ROOT)],
        check=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
    )
    return bin_dir


def _bare(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(bin_dir / "rummy"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
        cwd=bin_dir,
    )


def test_a_bare_install_brings_only_the_engines_few_libraries(bare_install: Path) -> None:
    listed = subprocess.run(
        [str(bare_install / "python"), "-m", "pip", "list", "--format=json"],
        capture_output=True,
        text=True,
        check=True,
    )
    names = {entry["name"].lower().replace("_", "-") for entry in json.loads(listed.stdout)}
    site = {name.replace("_", "-") for name in NOT_FOR_THE_ENGINE}
    assert not names & site, names & site
    assert {"rummykit", "rich", "platformdirs"} <= names


@pytest.mark.parametrize("args", ENGINE_COMMANDS, ids=lambda args: args[0])
def test_a_bare_install_runs_the_engines_commands(
    bare_install: Path, args: tuple[str, ...], midway: str
) -> None:
    done = _bare(bare_install, *_with(args, midway))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("serve", "--port", "0"), "server"),
        (("join", "ABCDEF", "--server", "http://127.0.0.1:9", "--bot", "basic"), "client"),
        (("account", "show"), "client"),
        (("puzzles", "show", "puzzles.json"), "client"),  # a puzzle is a seat's view: pydantic
    ],
    ids=["serve", "join", "account", "puzzles"],
)
def test_a_bare_install_says_which_extra_a_command_needs(
    bare_install: Path, args: tuple[str, ...], extra: str
) -> None:
    done = _bare(bare_install, *args)
    assert done.returncode == 2, done.stderr
    assert f"pip install 'rummykit[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr
