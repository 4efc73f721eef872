"""A rules sweep on the job queue: the same table as a local run, from real workers."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from redis_testkit import needs_redis, redis_server, start_worker, stop

from deckgen.batch.jobclass import refusal
from deckgen.batch.sweeps import SWEEP_FUNCTION, QueuePlayer
from deckgen.rulecheck.tune import Goal, TuneOptions, table_lines, tune
from deckgen.rulespec import RuleSpec, load_rules, rules_from_data

pytestmark = needs_redis

RULES = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with redis_server(tmp_path) as url:
        yield url


def _slow_partnership() -> RuleSpec:
    spec = load_rules("partnership")
    raw = dict(spec.raw)
    raw["match"] = {**raw["match"], "target": 300}
    return rules_from_data(raw, path=RULES / "partnership.toml")


def test_a_sweep_on_workers_gives_the_local_table(tmp_path: Path, redis_url: str) -> None:
    spec = _slow_partnership()
    opts = TuneOptions(vary=("match.target",), screen_rounds=300, confirm_rounds=600, seed=5)
    local = tune(spec, 4, Goal("match_time"), opts)
    workers = [start_worker(redis_url, tmp_path / f"w{i}.log") for i in range(2)]
    try:
        queued = tune(spec, 4, Goal("match_time"), replace(opts, player=QueuePlayer(redis_url)))
    finally:
        for w in workers:
            stop(w)
    assert table_lines(queued) == table_lines(local)
    assert local.best is not None
    logs = "".join((tmp_path / f"w{i}.log").read_text() for i in range(2))
    assert "deckgen-sweeps" in logs  # the workers played them, not this process


class _Job:
    def __init__(self, name: str, args: list[object]) -> None:
        self.func_name, self.instance, self.args = name, None, args
        self.kwargs: dict[str, object] = {}


def test_a_sweep_job_is_data_only() -> None:
    good = {
        "rules": load_rules("two-player").raw, "changes": {"match.rounds": 3}, "players": 2,
        "goal": "blocked", "rounds": 100, "seed": 0, "had": [],
    }  # fmt: skip
    assert refusal(_Job(SWEEP_FUNCTION, [good])) is None  # type: ignore[arg-type]
    assert "not a sweep variant" in str(
        refusal(_Job(SWEEP_FUNCTION, [{**good, "goal": "__import__('os')"}]))  # type: ignore[arg-type]
    )
    assert "runs only deck builds and rules sweeps" in str(
        refusal(_Job("deckgen.rulecheck.tune.tune", [good]))  # type: ignore[arg-type]
    )
