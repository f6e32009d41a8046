#!/usr/bin/env python3
"""One-command set-up for haunted_kit (stdlib only, Python >= 3.11).

    python3 bootstrap.py setup          # .venv + `pip install -e '.[dev]'` + Debian chromium
    python3 bootstrap.py lab [ARGS]     # setup, then JupyterLab on my_notebooks/00_start_here.ipynb
    python3 bootstrap.py test [ARGS]    # setup, then pytest (tests + nbval on notebooks/)

Extra ARGS are passed through to jupyter lab / haunted-kit / pytest.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit(f"bootstrap.py needs Python >= 3.11 (this is {sys.version.split()[0]})")

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_BIN = VENV / "bin"
VENV_PY = VENV_BIN / "python"
STAMP = VENV / ".haunted-kit-install.sha256"
CHROMIUM = Path("/usr/bin/chromium")
START_NOTEBOOK = ROOT / "notebooks" / "00_start_here.ipynb"
# The Lab works on copies: notebooks/ keeps the executed outputs the tests compare (nbval),
# my_notebooks/ (not tracked by git) is what a user runs and saves. A saved run then leaves
# notebooks/ as it was (tests/test_lab_workspace.py).
WORKSPACE = "my_notebooks"
SANITIZE_CFG = ROOT / "tests" / "nbval_sanitize.cfg"
# JupyterLab 4's "Would you like to receive official Jupyter news?" pop-up: the setting
# behind it, set to "Never" (its schema: share/jupyter/lab/schemas/@jupyterlab/apputils-extension/notification.json)
NEWS_SETTING = ("@jupyterlab/apputils-extension:notification", "fetchNews", "false")

USAGE = """\
usage: python3 bootstrap.py {setup|lab|test|--help} [ARGS...]

  setup   create .venv, pip install -e '.[dev]' (skipped if pyproject.toml is unchanged),
          and make sure Debian's chromium is installed (for browser tests)
  lab     setup (without chromium), then open JupyterLab (news pop-up off) on my_notebooks/00_start_here.ipynb,
          your own copies of notebooks/ (made when missing; yours are never overwritten: delete one to get
          it fresh), so running and saving leaves notebooks/ as the tests compare it
          (falls back to `haunted-kit play --players 4 --seed 1`); ARGS go to that command
  test    full setup, then run pytest on tests/ and (with nbval) notebooks/; ARGS go to pytest
"""



def say(msg: str) -> None:
    print(f"[bootstrap] {msg}", flush=True)


def run(cmd: list[str], **kw) -> None:
    say("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, **kw)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def privileged(cmd: list[str]) -> list[str] | None:
    """`cmd` as root: directly if we are root, via sudo if available, else None."""
    if os.geteuid() == 0:
        return cmd
    if shutil.which("sudo"):
        return ["sudo", *cmd]
    return None


def ensure_venv() -> None:
    if VENV_PY.exists():
        return
    say(f"creating {VENV.relative_to(ROOT)} with {sys.executable}")
    try:
        run([sys.executable, "-m", "venv", str(VENV)])
    except subprocess.CalledProcessError:
        shutil.rmtree(VENV, ignore_errors=True)
        sys.exit(
            "[bootstrap] could not create the venv. On Debian/Ubuntu install the venv module:\n"
            "    sudo apt-get install -y python3-venv\n"
            "then rerun this command."
        )


def ensure_install() -> None:
    digest = sha256(ROOT / "pyproject.toml")
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        say("dependencies up to date (pyproject.toml unchanged)")
        return
    say("installing haunted-kit[dev] in editable mode (this can take a few minutes)")
    cmd = [str(VENV_PY), "-m", "pip", "install", "--disable-pip-version-check"]
    if os.environ.get("CI"):
        cmd += ["--progress-bar", "off"]
    else:
        cmd += ["-q"]
    try:
        run([*cmd, "-e", ".[dev]"], cwd=ROOT)
    except subprocess.CalledProcessError as exc:
        STAMP.unlink(missing_ok=True)
        sys.exit(f"[bootstrap] pip install failed (exit {exc.returncode})")
    STAMP.write_text(digest + "\n")


def ensure_chromium() -> bool:
    if CHROMIUM.exists():
        say(f"chromium present: {CHROMIUM}")
        return True
    update = privileged(["apt-get", "update"])
    install = privileged(["apt-get", "install", "-y", "chromium"])
    if not shutil.which("apt-get") or update is None or install is None:
        say(
            f"{CHROMIUM} is missing and cannot be installed automatically; browser tests will fail.\n"
            "            Run as root:  apt-get update && apt-get install -y chromium"
        )
        return False
    say("installing Debian's chromium for browser tests")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    try:
        run(update, env=env)
        run(install, env=env)
    except subprocess.CalledProcessError:
        say("apt-get failed; browser tests will fail. Run as root: apt-get update && apt-get install -y chromium")
        return False
    return CHROMIUM.exists()


def ensure_sanitize_cfg() -> None:
    if not SANITIZE_CFG.exists():
        sys.exit(f"[bootstrap] {SANITIZE_CFG.relative_to(ROOT)} is missing: it is part of the repository "
                 "(nbval's output sanitizers); restore it with git checkout")


def quiet_lab_news(venv: Path = VENV) -> Path:
    """Turn JupyterLab's news pop-up off for the Lab in ``venv``: sets the notification
    plugin's ``fetchNews`` to ``"false"`` (Never) in ``venv/share/jupyter/lab/settings/overrides.json``,
    the file JupyterLab reads its site-wide defaults from. Other settings in that file are
    kept, and so is a ``fetchNews`` someone already chose there. Returns the file's path.
    A file that is not a JSON object is left as it is, with a warning (the Lab still starts)."""
    path = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    plugin, key, value = NEWS_SETTING
    overrides = {}
    if path.exists():
        try:
            overrides = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            say(f"{path} is not readable JSON ({exc}); left as it is, the news pop-up stays on")
            return path
        if not isinstance(overrides, dict) or not isinstance(overrides.get(plugin, {}), dict):
            say(f"{path} is not a JSON object of plugin settings; left as it is, the news pop-up stays on")
            return path
        if key in overrides.get(plugin, {}):
            return path
    overrides.setdefault(plugin, {})[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(overrides, indent=2) + "\n", encoding="utf-8")
    return path


def setup(chromium: bool = True) -> None:
    ensure_venv()
    ensure_install()
    if chromium:
        ensure_chromium()


def notebooks() -> list[Path]:
    nb_dir = ROOT / "notebooks"
    if not nb_dir.is_dir():
        return []
    return [p for p in nb_dir.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts]


def ensure_workspace(root: Path = ROOT) -> Path:
    """Copy every notebook of ``root/notebooks`` (and its ``data/``) that is missing into
    ``root/my_notebooks``, the folder the Lab opens; a file already there (the user's saved
    work) is kept as it is. Returns the copy of the start notebook. The copies sit at the
    same depth as the originals, so their links (``../docs/...``, other notebooks) hold."""
    src, dst = root / "notebooks", root / WORKSPACE
    made = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        wanted = (len(rel.parts) == 1 and path.suffix == ".ipynb") or rel.parts[0] == "data"
        if not path.is_file() or not wanted or any(part.startswith(".") for part in rel.parts):
            continue  # the teacher copies (.teacher/) and checkpoints stay out
        target = dst / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".part")
            shutil.copyfile(path, tmp)
            os.replace(tmp, target)  # a copy is whole or absent
            made.append(rel)
    if made:
        say(f"copied {len(made)} file(s) from notebooks/ into {WORKSPACE}/ (your copies: run and save them freely)")
    return dst / START_NOTEBOOK.name


def execv(cmd: list[str]) -> None:
    say("$ " + " ".join(cmd))
    sys.stdout.flush()
    sys.stderr.flush()
    os.chdir(ROOT)
    os.execv(cmd[0], cmd)


def cmd_lab(extra: list[str]) -> None:
    setup(chromium=False)
    quiet_lab_news()
    if START_NOTEBOOK.exists():
        start = ensure_workspace()
        # root_dir: the whole checkout (docs/, data/), not only the notebook's folder
        cmd = [str(VENV_BIN / "jupyter"), "lab", str(start.relative_to(ROOT)), f"--ServerApp.root_dir={ROOT}"]
        if os.geteuid() == 0 and "--allow-root" not in extra:
            cmd.append("--allow-root")  # jupyter refuses to start as root otherwise
        execv(cmd + extra)
    exe = VENV_BIN / "haunted-kit"
    if not exe.exists():
        sys.exit(f"[bootstrap] neither {START_NOTEBOOK.relative_to(ROOT)} nor {exe.relative_to(ROOT)} exists yet")
    say(f"{START_NOTEBOOK.relative_to(ROOT)} not found; starting the terminal game instead")
    execv([str(exe), "play", "--players", "4", "--seed", "1", *extra])


def cmd_test(extra: list[str]) -> int:
    setup(chromium=True)
    ensure_sanitize_cfg()
    cmd = [str(VENV_PY), "-m", "pytest", "tests"]
    if notebooks():
        cmd += ["notebooks", "--nbval", "--nbval-sanitize-with", str(SANITIZE_CFG.relative_to(ROOT))]
    cmd += ["-p", "no:cacheprovider", *extra]
    say("$ " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        print(USAGE, end="")
        return 0
    if not argv or argv[0] not in {"setup", "lab", "test"}:
        print(USAGE, file=sys.stderr, end="")
        return 2
    command, extra = argv[0], argv[1:]
    if command == "setup":
        if extra:
            print(USAGE, file=sys.stderr, end="")
            return 2
        setup(chromium=True)
        say("setup done")
        return 0
    if command == "lab":
        cmd_lab(extra)  # execs; only returns via sys.exit on error
        return 1
    return cmd_test(extra)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
