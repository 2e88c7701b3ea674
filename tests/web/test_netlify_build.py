"""Netlify's build command installs what ``python -m web.build`` imports beyond the standard
library, at the versions the project pins (it does not install the project's own extras)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD_NEEDS = ("wheel", "fonttools", "resvg-py", "pillow")  # the app wheel; the fonts; bitmaps


def test_the_build_command_installs_the_pinned_build_packages() -> None:
    command = tomllib.loads((ROOT / "netlify.toml").read_text())["build"]["command"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = dict(
        pin.split("==", 1) for pin in project["optional-dependencies"]["dev"] if "==" in pin
    )
    for name in BUILD_NEEDS:
        assert f"{name}=={pins[name]}" in command.split(), name
    assert command.endswith("python -m web.build")
