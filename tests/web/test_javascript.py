"""The browser's JavaScript (``src/rummykit/web``) checked without a browser: every module
parses, ESLint passes, and the unit tests of the pure modules (``tests/web/js``) pass.

Not browser tests (no ``e2e`` marker): they run in ``make test``'s first pytest run.
They need Node.js, and ESLint from ``npm ci`` (``package.json``, ``package-lock.json``,
``eslint.config.js``). Without them they skip on a developer's machine, which needs only
Python; with ``CI`` set they fail instead (``.ci/run`` runs ``npm ci`` first).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import IN_CI

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "rummykit" / "web"
ESLINT = ROOT / "node_modules" / "eslint" / "bin" / "eslint.js"
JS_TESTS = Path(__file__).resolve().parent / "js"


def _missing(reason: str) -> None:
    """Skip on a developer's machine; fail in CI, which must run every lint."""
    if IN_CI:
        pytest.fail(f"{reason} (CI must lint the JavaScript)")
    pytest.skip(reason)


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        _missing("node is not installed: the JavaScript is not checked")
    assert node is not None
    return node


_PARSE_AS_MODULES = """
const vm = require("node:vm");
const fs = require("node:fs");
const errors = {};
for (const [name, source] of Object.entries(JSON.parse(fs.readFileSync(0, "utf8")))) {
  try {
    new vm.SourceTextModule(source, { identifier: name });
  } catch (error) {
    errors[name] = String(error.stack || error);
  }
}
process.stdout.write(JSON.stringify(errors));
"""
"""Parse each source as an ES module with V8 (``vm.SourceTextModule``: parsed, never run)."""


def _module_syntax_errors(node: str, sources: dict[str, str]) -> dict[str, str]:
    """Node's complaint about each of ``sources`` (by name) parsed as an ES module.

    One node process parses them all (a process per module cost about ten seconds for the
    web folder's ninety); V8 says there only that a module fails, so each one that does is
    parsed again on its own, for the line and the caret (``_located_syntax_error``).
    """
    proc = subprocess.run(
        [node, "--experimental-vm-modules", "--no-warnings", "-e", _PARSE_AS_MODULES],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    failing: dict[str, str] = json.loads(proc.stdout)
    return {name: _located_syntax_error(node, sources[name]) or failing[name] for name in failing}


def _located_syntax_error(node: str, source: str) -> str | None:
    """Node's complaint about ``source`` as an ES module, with its line; None if it parses.

    The source goes through stdin with ``--input-type=module``: ``node --check FILE.js``
    decides by itself whether a file is a module and, on Node 20, passes an ES module with a
    syntax error in it.
    """
    proc = subprocess.run(
        [node, "--check", "--input-type=module"],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return None if proc.returncode == 0 else proc.stderr.strip()


def web_modules() -> list[Path]:
    return sorted(WEB.rglob("*.js"))


def test_the_web_folder_has_modules() -> None:
    names = {path.relative_to(WEB).as_posix() for path in web_modules()}
    assert {"app.js", "table.js", "table/state.js"} <= names, names


def test_every_web_module_parses_as_an_es_module() -> None:
    sources = {
        path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in web_modules()
    }
    errors = _module_syntax_errors(_node(), sources)
    assert not errors, "\n\n".join(f"{name}:\n{error}" for name, error in errors.items())


def test_the_syntax_check_rejects_a_broken_module() -> None:
    errors = _module_syntax_errors(
        _node(),
        {
            "fine.js": 'import { h } from "./util.js";\nexport const x = 1;\n',
            "broken.js": 'import { h } from "./util.js";\nexport const x = ;\n',
            "script-only.js": "with (Math) { max(1, 2); }\n",  # sloppy script, never a module
        },
    )
    assert set(errors) == {"broken.js", "script-only.js"}, errors
    assert "SyntaxError: Unexpected token ';'" in errors["broken.js"]
    assert "[stdin]:2\nexport const x = ;" in errors["broken.js"]  # the line, with a caret


def test_eslint_passes_on_every_web_module() -> None:
    node = _node()
    if not ESLINT.exists():
        _missing("ESLint is not installed: run `npm ci` (make test does when npm is there)")
    proc = subprocess.run(
        [node, str(ESLINT), "--max-warnings", "0", "--format", "json", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.stdout.strip(), f"exit {proc.returncode}\n{proc.stderr}"
    results = json.loads(proc.stdout)
    # Every module was linted: a config that ignored one would pass it in silence.
    linted = {Path(result["filePath"]) for result in results}
    assert set(web_modules()) <= linted, sorted(map(str, set(web_modules()) - linted))
    problems = [
        f"{Path(result['filePath']).relative_to(ROOT)}:{message.get('line')}: "
        f"{message['message']} ({message.get('ruleId')})"
        for result in results
        for message in result["messages"]
    ]
    assert not problems, "\n".join(problems)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stderr}"


def test_the_pure_modules_pass_their_unit_tests() -> None:
    node = _node()
    files = sorted(JS_TESTS.glob("*.test.mjs"))
    assert files, f"no unit tests in {JS_TESTS}"
    proc = subprocess.run(
        [node, "--test", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
