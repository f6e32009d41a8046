"""Toy Nim with faulty hooks, for tests/test_cli_hook_faults.py."""
