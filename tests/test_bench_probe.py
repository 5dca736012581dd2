"""The bench probe (server/bench_probe.py): off unless WOD_BENCH_PROBE=1, and what it counts.

Counts only, never times (the benches print times)."""

import importlib
import os

import pytest
from django.db import connection
from evennia.utils.utils import callables_from_module

import server.conf.inputfuncs as game_inputfuncs
from server import bench_probe


def reloaded_inputfuncs(monkeypatch, value):
    if value is None:
        monkeypatch.delenv(bench_probe.ENV, raising=False)
    else:
        monkeypatch.setenv(bench_probe.ENV, value)
    return callables_from_module(reload_inputfuncs())


def reload_inputfuncs():
    # reload() runs the module again in the same namespace: a ``text`` defined before stays
    # unless removed first.
    vars(game_inputfuncs).pop("text", None)
    return importlib.reload(game_inputfuncs)


@pytest.fixture
def restore_inputfuncs():
    saved = os.environ.get(bench_probe.ENV)
    yield
    # Back to what the environment said before the test (monkeypatch may undo its change
    # only after this fixture ends).
    if saved is None:
        os.environ.pop(bench_probe.ENV, None)
    else:
        os.environ[bench_probe.ENV] = saved
    reload_inputfuncs()


@pytest.mark.parametrize("value", [None, "", "0", "yes"])
def test_off_the_game_defines_no_text_input_function(monkeypatch, restore_inputfuncs, value):
    # Evennia's own ``text`` then handles every typed line: nothing of the probe runs.
    assert "text" not in reloaded_inputfuncs(monkeypatch, value)


def test_on_the_game_replaces_the_text_input_function(monkeypatch, restore_inputfuncs):
    assert "text" in reloaded_inputfuncs(monkeypatch, "1")


def test_command_key_is_the_first_word_with_digits_folded():
    assert bench_probe.command_key("+combat/act Goon1") == "+combat/act"
    assert bench_probe.command_key("  LOOK  ") == "look"
    assert bench_probe.command_key("zzmk12") == bench_probe.command_key("zzmk7") == "zzmk#"
    assert bench_probe.command_key("") == "(empty)"


def test_statement_kinds():
    kinds = [
        bench_probe.statement_kind(sql)
        for sql in (
            "SELECT 1",
            'UPDATE "x" SET a=1',
            "INSERT INTO x VALUES (1)",
            "DELETE FROM x",
            'SAVEPOINT "s1"',
            'RELEASE SAVEPOINT "s1"',
            "PRAGMA foo",
        )
    ]
    assert kinds == ["selects", "writes", "writes", "writes", "transaction", "transaction", "other"]


@pytest.mark.django_db
def test_measured_counts_each_statement_under_the_command_key():
    tally = bench_probe.Tally()

    def run():
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
            cur.execute("SELECT 2")

    bench_probe.measured(run, "+combat/act Goon1", tally)
    bench_probe.measured(run, "+combat/act Goon2", tally)
    row = tally.rows["+combat/act"]
    assert (row["commands"], row["selects"], row["writes"], row["transaction"]) == (2, 4, 0, 0)
    assert tally.last_sql["+combat/act"] == ["SELECT 1", "SELECT 2"]
    # Outside ``measured`` nothing is counted.
    run()
    assert tally.rows["+combat/act"]["selects"] == 4


class FakeSession:
    account = None

    def __init__(self):
        self.sent = []

    def msg(self, text=None, **kwargs):
        self.sent.append(text)


def test_marker_is_answered_at_once_and_not_counted(monkeypatch):
    monkeypatch.setattr(bench_probe, "TALLY", bench_probe.Tally())
    session = FakeSession()
    bench_probe.text(session, "@benchmark zzmk3")
    assert session.sent == ["BENCHMARK zzmk3"]
    assert bench_probe.TALLY.rows == {}


def test_dump_is_for_superusers_only(monkeypatch):
    calls = []
    monkeypatch.setattr("evennia.server.inputfuncs.text", lambda s, *a, **k: calls.append(a))
    monkeypatch.setattr(bench_probe, "TALLY", bench_probe.Tally())
    session = FakeSession()
    bench_probe.text(session, "@benchprobe")  # no account: an ordinary line, counted
    assert session.sent == [] and calls == [("@benchprobe",)]
    assert bench_probe.TALLY.rows["@benchprobe"]["commands"] == 1


def test_profile_runs_only_the_named_key_under_the_profiler():
    tally = bench_probe.Tally()
    assert bench_probe.profile_command("+combat/act", tally) == "BENCHPROBE profiling +combat/act"
    seen = []
    bench_probe.measured(lambda: seen.append("look"), "look", tally)
    bench_probe.measured(lambda: seen.append("act"), "+combat/act Bob", tally)
    assert seen == ["look", "act"]
    out = bench_probe.profile_command("", tally)
    assert "<lambda>" in out and out.endswith("BENCHPROBE end")
    assert tally.profile is None and tally.profile_key is None


def test_the_module_is_back_to_normal_after_those_tests():
    assert "text" not in callables_from_module(game_inputfuncs)


def test_engine_clock_counts_the_engines_cpu_under_the_command_key():
    """Issue 32: the probe tells the engine's share of a command (the time inside apply)."""

    class Engine:
        def apply(self, n):
            return sum(i * i for i in range(n))

    engine = Engine()
    clock = bench_probe.EngineClock()
    engine.apply = clock.timed(engine.apply)
    tally = bench_probe.Tally()
    saved = bench_probe.CLOCK
    bench_probe.CLOCK = clock
    try:
        bench_probe.measured(lambda: engine.apply(200_000), "+combat/act Bob", tally)
        bench_probe.measured(lambda: None, "look", tally)
    finally:
        bench_probe.CLOCK = saved
    act, look = tally.rows["+combat/act"], tally.rows["look"]
    assert 0 < act["engine_s"] <= act["cpu_s"]
    assert look["engine_s"] == 0
