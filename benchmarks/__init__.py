"""Benchmarks: scripts that print figures and ratios against a floor measured in the same run."""
