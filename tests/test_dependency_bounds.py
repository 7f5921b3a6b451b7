"""Every requirement in pyproject.toml (the build's, the default install's, every extra's) is bounded
above and below: a new release of someone else's library cannot change what `pip install` gives, so an
install that passed the suite yesterday passes it today (the Ray release that turned tokens on broke
`--cluster local` and the suite on every fresh machine)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def requirements() -> list[tuple[str, str]]:
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    found = [("build-system", r) for r in data["build-system"]["requires"]]
    found += [("dependencies", r) for r in data["project"]["dependencies"]]
    for extra, reqs in data["project"]["optional-dependencies"].items():
        found += [(f"extra {extra}", r) for r in reqs]
    return found


def test_every_extra_is_checked():
    assert {where for where, _ in requirements()} >= {"build-system", "dependencies", "extra test", "extra fast",
                                                      "extra yardstick", "extra cluster", "extra web",
                                                      "extra server"}


@pytest.mark.parametrize("where, text", requirements())
def test_every_requirement_has_an_upper_and_a_lower_bound(where, text):
    spec = Requirement(text).specifier
    assert not spec.contains("9999", prereleases=True), f"{where}: {text!r} takes any future release"
    assert not spec.contains("0.0.1", prereleases=True), f"{where}: {text!r} takes any old release"
