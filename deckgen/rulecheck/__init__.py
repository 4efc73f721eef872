"""The rules check: play a rules file out at scale and report what its rules get wrong.

Stages: :mod:`stats` (mergeable accumulators with 95 % confidence intervals),
:mod:`feasibility` (exact odds of deal situations), the simulation that drives the
engine across worker processes, and :mod:`report` (the versioned JSON report, its
Markdown rendering and the verdict with its exit code).
"""
