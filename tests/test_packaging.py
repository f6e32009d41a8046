"""The built wheel carries the box data and the kit's rulings, so an installed copy (not
only a checkout) finds and loads them."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_contains_the_data_and_loads_it(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "--no-build-isolation",
                          "-w", str(tmp_path / "dist"), "-q", "--disable-pip-version-check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = next((tmp_path / "dist").glob("haunted_kit-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = sorted(n.split("haunted_kit/_box/")[1] for n in names if n.startswith("haunted_kit/_box/"))
    assert shipped == sorted(p.relative_to(REPO / "data").as_posix() for p in (REPO / "data").rglob("*") if p.is_file())
    assert "haunted_kit/server_page.html" in names  # the classroom server's page
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "HAUNTED_KIT_DATA"}
    env["PYTHONPATH"] = str(site)
    code = ("import haunted_kit, haunted_kit.haunted.box as c; b = c.load_box(); "
            "print(haunted_kit.__file__); print(b.path); print(len(b.tiles)); "
            "from haunted_kit.estate.box import load_estate_box; print(load_estate_box().path); "
            "from haunted_kit.landmarks import load_box; print(len(load_box().landmarks)); "
            "from haunted_kit import events; print(events.kit_rulings()['E3'][0].replace(' ', '_'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    module_file, box_path, tiles, estate_path, landmarks, e3 = run.stdout.split()
    assert "haunted_kit/_docs/RULINGS.md" in names  # the rulings a refusal or a step cites, read in words
    from haunted_kit.events import kit_rulings
    assert e3 == kit_rulings()["E3"][0].replace(" ", "_") and e3
    assert Path(estate_path) == site / "haunted_kit" / "_box" / "estate"
    assert module_file.startswith(str(site))
    assert Path(box_path) == site / "haunted_kit" / "_box"
    assert tiles == "11" and landmarks == "5"
