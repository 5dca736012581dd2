"""The balance simulator's core (combat/simulate.py, issue 13): fights on the engine path
with a seeded ``random.Random``, so every count below is exact for its seed."""

import pathlib

import pytest

from wodcombat.combat import simulate as sim
from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.world.prototypes import NPC_TEMPLATES

RULES = str(pathlib.Path(__file__).resolve().parents[2] / "rules")


def side(name, template, other, *, declare=None):
    attack = {"kind": "attack", "target": other}
    return sim.Side(name, NPC_TEMPLATES[template]["sheet"], declare=declare or (attack,),
                    act=attack, fallback=((attack,), ({"kind": "reload"},)))


def thug_vs_gunman(ruleset="numetal", cap=20):
    return sim.Matchup(RULES, ruleset, side("thug", "thug", sim.B),
                       side("gunman", "gunman", sim.A), cap)


@pytest.fixture(scope="module")
def numetal():
    return load_ruleset(RULES, "numetal")


def test_a_fixed_seed_gives_an_exact_result(numetal):
    """40 fights, master seed 7: the thug (knife) wins 6, the gunman (heavy pistol) 34; the
    counts of turns and hits are those of the same dice on the game's engine path."""
    t = sim.simulate(thug_vs_gunman(), 40, 7, rules=numetal)
    assert (t.fights, t.wins["a"], t.wins["b"], t.wins["draw"]) == (40, 6, 34, 0)
    assert sum(t.turns.values()) == 40
    assert t.attacks(sim.A) == sum(t.damage[sim.A].values()) > 0
    again = sim.simulate(thug_vs_gunman(), 40, 7, rules=numetal)
    assert (again.wins, again.turns, again.damage, again.hits) == (t.wins, t.turns, t.damage,
                                                                  t.hits)


def test_another_seed_rolls_other_dice(numetal):
    a = sim.simulate(thug_vs_gunman(), 40, 7, rules=numetal)
    b = sim.simulate(thug_vs_gunman(), 40, 8, rules=numetal)
    assert (a.turns, a.damage) != (b.turns, b.damage)


def test_a_side_that_only_passes_never_wins(numetal):
    """The Garou attacks; the thug passes every turn: 100% for the Garou, no draws, and the
    thug makes no attack at all."""
    m = sim.Matchup(RULES, "numetal", side("garou", "garou", sim.B),
                    side("thug", "thug", sim.A, declare=({"kind": "pass"},)), 20)
    t = sim.simulate(m, 20, 3, rules=numetal)
    assert (t.wins["a"], t.wins["b"], t.wins["draw"]) == (20, 0, 0)
    assert t.attacks(sim.B) == 0
    s = sim.summarize(m, t)
    assert s.a.share == 1.0 and s.a.ci[1] == 1.0 and s.b.share == 0.0


def test_the_turn_cap_is_a_draw(numetal):
    """Both sides pass: nobody falls, every fight reaches the cap."""
    still = ({"kind": "pass"},)
    m = sim.Matchup(RULES, "numetal", side("a", "thug", sim.B, declare=still),
                    side("b", "thug", sim.A, declare=still), 3)
    t = sim.simulate(m, 5, 1, rules=numetal)
    assert t.wins["draw"] == 5 and not t.turns


def test_the_spotlight_engine_runs_through_the_same_interface():
    """No declarations there: each side acts when it holds the spotlight, steps closer when
    its weapon does not reach (the engine refuses, then accepts after the move)."""
    m = thug_vs_gunman("spotlight")
    t = sim.simulate(m, 20, 5)
    assert t.fights == 20 and t.wins["draw"] == 0
    assert t.attacks(sim.A) > 0 and t.attacks(sim.B) > 0
    assert any("closer" in why for (_, why) in t.refused)


def test_workers_do_not_change_the_result(numetal, monkeypatch):
    """Each chunk of fights has its own seed: two processes give what one gives."""
    monkeypatch.setattr(sim, "CHUNK", 5)
    one = sim.simulate(thug_vs_gunman(), 12, 11, rules=numetal)
    two = sim.simulate(thug_vs_gunman(), 12, 11, workers=2)
    assert (one.wins, one.turns, one.damage, one.hits) == (two.wins, two.turns, two.damage,
                                                          two.hits)


def test_a_worker_error_is_raised_in_the_caller(monkeypatch):
    """Issue 32: the worker processes get what a run reuses as an argument (no module-level
    worker state); a chunk that fails in one of them is raised here, not waited for."""
    monkeypatch.setattr(sim, "CHUNK", 5)

    def broken(prepared, seed, index, fights):
        raise RuntimeError(f"chunk {index} broke")

    monkeypatch.setattr(sim, "run_chunk", broken)  # forked workers inherit it
    with pytest.raises(RuntimeError, match="broke"):
        sim.simulate(thug_vs_gunman(), 12, 11, workers=2)
    assert not hasattr(sim, "_WORKER")


def test_progress_is_reported_per_chunk(numetal, monkeypatch):
    monkeypatch.setattr(sim, "CHUNK", 4)
    seen = []
    sim.simulate(thug_vs_gunman(), 10, 1, rules=numetal, progress=lambda d, n: seen.append(
        (d, n)))
    assert seen == [(4, 10), (8, 10), (10, 10)]


def test_statistics():
    assert sim.wilson(0, 10)[0] == 0.0 and sim.wilson(10, 10)[1] == 1.0
    lo, hi = sim.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert sim.median({1: 1, 2: 1, 3: 1}) == 2
    assert sim.median({1: 2, 4: 2}) == 2.5
    assert sim.mean({2: 3, 4: 1}) == 2.5
    assert sim.median({}) == 0.0
    assert sim.chunks(450) == [(0, 200), (1, 200), (2, 50)]
