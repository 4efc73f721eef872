"""Benchmarks: each measures deckgen against an anchor in the same run and prints ratios."""
