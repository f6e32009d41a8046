"""Atomic writes and size-limited reads (haunted_kit.fileio)."""

from __future__ import annotations

import os

import pytest

import haunted_kit as hk
from haunted_kit.fileio import InputTooLarge, atomic_write, check_writable, read_text


def test_atomic_write_replaces_whole_files_and_keeps_permissions(tmp_path):
    p = tmp_path / "f.txt"
    atomic_write(p, "one")
    assert p.read_text() == "one"
    os.chmod(p, 0o600)
    atomic_write(p, b"two")
    assert p.read_bytes() == b"two" and (p.stat().st_mode & 0o777) == 0o600
    atomic_write(p, lambda fh: fh.write("three"))
    assert p.read_text() == "three" and os.listdir(tmp_path) == ["f.txt"]


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path):
    p = tmp_path / "f.txt"
    p.write_text("old")

    def half(fh):
        fh.write("half of the new")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(p, half)
    assert p.read_text() == "old" and os.listdir(tmp_path) == ["f.txt"]
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "missing" / "f.txt", "x")


def test_state_save_is_atomic(tmp_path, monkeypatch):
    s = hk.new_game(players=2, seed=1)
    p = tmp_path / "g.json"
    s.save(p)
    good = p.read_text()
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with pytest.raises(OSError):
        s.save(p)
    assert p.read_text() == good and os.listdir(tmp_path) == ["g.json"]


def test_check_writable_names_the_problem(tmp_path):
    assert check_writable(tmp_path / "new.json") is None
    assert check_writable(tmp_path) == f"file {tmp_path} is a folder"
    assert "does not exist" in check_writable(tmp_path / "a" / "b.json")
    (tmp_path / "plain").write_text("")
    assert "is not a folder" in check_writable(tmp_path / "plain" / "b.json")


def test_read_text_limit(tmp_path):
    p = tmp_path / "s.json"
    p.write_text("x" * 11)
    assert read_text(p, 11) == "x" * 11
    with pytest.raises(InputTooLarge, match="11 bytes, over the limit of 10 bytes"):
        read_text(p, 10)
    with pytest.raises(hk.SaveError, match="over the limit of 10 bytes"):
        hk.State.load(p, max_bytes=10)
