"""The browser's English catalogues that Python owns are up to date (rummykit.web_catalogues)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit import web_catalogues


def test_every_generated_catalogue_is_up_to_date() -> None:
    assert web_catalogues.stale() == [], "run `python -m rummykit.web_catalogues`"


def test_a_generated_area_is_written_and_then_found_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "i18n" / "en").mkdir(parents=True)
    sample = {"sample": "tests.test_web_catalogues:_sample"}
    monkeypatch.setattr(web_catalogues, "GENERATED", sample)  # the sample area alone
    assert web_catalogues.stale(tmp_path) == ["sample"]
    [written] = web_catalogues.write_all(tmp_path)
    text = written.read_text(encoding="utf-8")
    assert '"sample.a": "A {card}",' in text
    assert text.index('"sample.a"') < text.index('"sample.b"')
    assert web_catalogues.stale(tmp_path) == []


def _sample() -> dict[str, str]:
    return {"sample.b": "B — ü", "sample.a": "A {card}"}


@pytest.mark.parametrize("area", sorted(web_catalogues.GENERATED))
def test_every_key_of_a_generated_area_starts_with_the_area(area: str) -> None:
    # the page merges every area into one namespace: a bare "mark.blunder" could collide
    strays = [key for key in web_catalogues.english(area) if not key.startswith(f"{area}.")]
    assert strays == [], f"keys of area {area} without the {area}. prefix"
