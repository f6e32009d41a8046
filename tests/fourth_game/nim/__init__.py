"""A toy fourth game (Nim with a hidden bonus card), registered only by
tests/test_fourth_game.py to prove the kit serves a new game unchanged."""
