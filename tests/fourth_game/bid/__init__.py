"""A second toy (a secret bid each round), registered only by tests/test_visibility.py to prove
that a game declaring its hidden parts leaks them through no kit tool."""
