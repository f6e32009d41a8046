"""No command writes over a file it reads: for every subcommand of the parser, every
output option pointed at every input (the same file, a file inside an input folder, a
symbolic or hard link to it) or at another output is a usage error (exit 2) naming
both, and every input file is left byte for byte as it was."""

import argparse
import os
from pathlib import Path

import pytest

from haunted_kit.cli import READS, WRITES, build_parser, main
from haunted_kit.cli import _path as cli_path
from haunted_kit.fileio import output_clash


def _subparsers() -> dict:
    ap = build_parser()
    return next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction)).choices


def _path_options(sub) -> dict:
    """option (or positional name) -> action, for every argument of ``sub`` typed Path (the
    command line's ``_path``: a Path that refuses empty text)."""
    return {(a.option_strings[0] if a.option_strings else a.dest): a for a in sub._actions
            if a.type in (Path, cli_path)}


def test_every_path_argument_of_every_command_is_read_or_written():
    for name, sub in _subparsers().items():
        declared = {o.rstrip("/") for o in READS.get(name, ()) + WRITES.get(name, ())}
        assert set(_path_options(sub)) == declared, name


def _cases():
    """(command, output option, folder output?, input option, input is a folder?) for
    every output and input of every command that has both."""
    out = []
    for name, sub in _subparsers().items():
        opts = _path_options(sub)
        for w in WRITES.get(name, ()):
            for r in READS.get(name, ()):
                out.append((name, w.rstrip("/"), w.endswith("/"), r, opts[r].metavar == "DIR"))
    return out


#: arguments a command needs to parse, besides the two under test
REQUIRED = {"simulate": ["--out"], "compare": ["--box"], "review": ["save"], "check-box": ["box"], "replay": ["save"]}


def _snapshot(path: Path) -> dict:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return {str(p): p.read_bytes() for p in files}


def _argv(command, out_opt, out_path, in_opt, in_path, tmp_path):
    args = {out_opt: out_path, in_opt: in_path}
    for opt in REQUIRED.get(command, []):
        args.setdefault(opt, tmp_path / "elsewhere")
    argv = [command]
    for opt, value in args.items():
        argv += [str(value)] if not opt.startswith("-") else [opt, str(value)]
    return argv


def _placements(tmp_path, out_folder, in_folder):
    """Input path and the output paths that would write over or into it."""
    if in_folder:
        box = tmp_path / "in_dir"
        box.mkdir()
        (box / "rules.toml").write_text("kept = 1\n")
        (box / "notes.ipynb").write_text("{}\n")  # teacher reads the notebooks in its folder
        if out_folder:
            return box, [box, box / "sub"]
        hard = tmp_path / "hard.html"
        os.link(box / "rules.toml", hard)
        return box, [box / "out.html", hard]
    save = tmp_path / "game.json"
    save.write_text('{"kept": true}\n')
    link = tmp_path / "link.html"
    link.symlink_to(save)
    hard = tmp_path / "hard.html"
    os.link(save, hard)
    if out_folder:
        return save, [tmp_path]
    return save, [save, link, hard]


@pytest.mark.parametrize("command, out_opt, out_folder, in_opt, in_folder", _cases(),
                         ids=[f"{c} {o} onto {i}" for c, o, _, i, _ in _cases()])
def test_an_output_onto_an_input_is_refused_naming_both(tmp_path, capsys, command, out_opt, out_folder, in_opt, in_folder):
    in_path, outs = _placements(tmp_path, out_folder, in_folder)
    if command == "teacher":  # teacher reads the notebooks under --notebooks: an output inside them is fine
        outs = [o for o in outs if o == in_path] if out_folder else outs
    before = _snapshot(in_path)
    for out_path in outs:
        with pytest.raises(SystemExit) as exc:
            main(_argv(command, out_opt, out_path, in_opt, in_path, tmp_path))
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.startswith("usage:") and "Traceback" not in err
        assert f"{out_opt} {out_path}" in err and str(in_path) in err, err
        assert _snapshot(in_path) == before
    assert not (tmp_path / "in_dir" / "out.html").exists()


@pytest.mark.parametrize("command", [c for c, outs in WRITES.items() if len(outs) > 1])
def test_two_outputs_onto_one_file_are_refused(tmp_path, capsys, command):
    first, second = (o.rstrip("/") for o in WRITES[command][:2])
    target = tmp_path / "same.json"
    link = tmp_path / "other.json"
    link.symlink_to(target)
    required = [a for opt in REQUIRED.get(command, []) for a in (opt, str(tmp_path / "elsewhere"))]
    with pytest.raises(SystemExit) as exc:
        main([command, first, str(target), second, str(link), *required])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"{second} {link} and {first} {target} are the same file" in err
    assert not target.exists()


def test_handout_pdf_next_to_the_html_is_an_output_too(tmp_path, capsys):
    box = tmp_path / "box"
    box.mkdir()
    (box / "rules.toml").write_text("kept = 1\n")
    (tmp_path / "h.pdf").symlink_to(box / "rules.toml")  # the PDF would go through this link into the box
    with pytest.raises(SystemExit) as exc:
        main(["handout", "--box", str(box), "--out", str(tmp_path / "h.html")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"the PDF of --out {tmp_path / 'h.pdf'} is inside --box {box}" in err
    assert (box / "rules.toml").read_text() == "kept = 1\n" and not (tmp_path / "h.html").exists()


def test_a_symlinked_folder_into_an_input_is_seen_through(tmp_path):
    box = tmp_path / "box"
    box.mkdir()
    (tmp_path / "alias").symlink_to(box)
    problem = output_clash([("--save", tmp_path / "alias" / "x.json", False)], [("--box", box)])
    assert problem == f"--save {tmp_path / 'alias' / 'x.json'} is inside --box {box}, which this command reads: it would write into it"
    assert output_clash([("--save", tmp_path / "x.json", False)], [("--box", box)]) is None
    assert output_clash([("--out", tmp_path, True)], [("--box", box)]) == \
        f"--box {box} is inside --out {tmp_path}, which this command writes into"


@pytest.mark.parametrize("command, out_opt, out_folder", sorted({(c, o, f) for c, o, f, i, _ in _cases() if i == "--box"}))
def test_an_output_into_the_reference_box_in_use_is_refused(tmp_path, capsys, monkeypatch, command, out_opt, out_folder):
    """Without --box a command reads the kit's own box (compare reads it beside --box):
    an output into that folder is refused too."""
    kit_data = tmp_path / "kit_data"
    kit_data.mkdir()
    (kit_data / "rules.toml").write_text("kept = 1\n")
    monkeypatch.setenv("HAUNTED_KIT_DATA", str(kit_data))
    out = kit_data if out_folder else kit_data / "out.html"
    argv = [command, out_opt, str(out)]
    for opt in REQUIRED.get(command, []):
        if opt != out_opt:
            argv += [opt, str(tmp_path / "house")] if opt.startswith("-") else [str(tmp_path / "save.json")]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "Traceback" not in err
    assert f"{out_opt} {out}" in err and f"the reference box {kit_data}" in err, err
    assert sorted(p.name for p in kit_data.iterdir()) == ["rules.toml"]
