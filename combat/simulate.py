"""Monte Carlo fights between two sides, on the game's own engine path (issue 13).

An admin who edits a rule wants to know what it does to a matchup before reloading it. A
fight here is what the game runs: ``engine_for(rules).new_combat``, then the intents the
commands send (``Join``, ``RollInitiative``, ``Advance``, ``Declare``, ``Act`` ...) through
``engine.apply(state, intent, sheets, rules, rng)``, with each ``sheet_changes`` applied before
the next intent as the combat service does, until one side is out of action or the turn cap
is reached (a draw).

The driver knows only the engine protocol: it answers ``engine.prompts(state)`` (initiative,
declare, act, pick; nothing asked: the organizer moves the fight on) and reads the events
(``turn``/``round`` for the clock; ``roll`` with purpose ``attack``, ``hit``, ``damage`` and
``harm`` for the attacks; ``outcome``/``harm`` outcomes for who fell). Each side plays like a
staffer running it: what it declares each turn (d10) or does when it holds the spotlight; a
refused choice falls back to attacking the other, then to stepping closer, then to passing
(``Side``). Side A joins as a player character, side B as an NPC.

Pure: no Evennia, Django or Twisted; randomness from ``random.Random`` seeded per chunk of
fights, so a result depends only on the master seed and the number of fights (not on how
many processes ran them).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .core import intents as it
from .core.engine import engine_for
from .d10.fight import OUT_OF_ACTION
from .core.errors import WodError
from .core.memo import Memo
from .core.sheet import Sheet

A, B = "#1", "#2"  # the two sides' keys (dbref-like, as the game's)
ORGANIZER = "#0"  # who moves the fight on (the game itself)
# An outcome event (d10) or a harm event's outcome (spotlight, SPOT-13) that takes a fighter
# out of the fight: the d10 engine's own set, and the spotlight's 0-HP outcomes.
FALLEN = frozenset(OUT_OF_ACTION) | {"out", "torpor", "final_death"}
CHUNK = 200  # fights per seeded chunk: the unit of work and of reproducibility
MAX_STEPS_PER_TURN = 60  # a fight that stops moving is a bug, not a long fight


@dataclass(frozen=True, slots=True)
class Side:
    """One fighter and how it fights. ``sheet`` is a ``Sheet.to_dict`` (sent to workers);
    ``declare``/``activations``: the d10 declaration each turn (action dicts as the
    declaration parser makes them); ``act``: the action given at ``+combat/act`` when the
    engine asks no declaration (spotlight). ``fallback``: the
    declarations tried in order when the engine refuses the side's own (attack the other,
    reload ...), before passing."""

    name: str
    sheet: Mapping[str, Any]
    declare: tuple[Mapping, ...] = ()
    activations: tuple[Mapping, ...] = ()
    act: Mapping | None = None
    fallback: tuple[tuple[Mapping, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Matchup:
    rules_dir: str
    ruleset: str
    a: Side
    b: Side
    turn_cap: int = 20


@dataclass
class Tally:
    """Counts over many fights; ``merge`` adds another's (order does not matter)."""

    fights: int = 0
    wins: Counter = field(default_factory=Counter)  # "a", "b", "draw"
    turns: Counter = field(default_factory=Counter)  # turns until a side fell (decided fights)
    damage: dict = field(default_factory=lambda: {A: Counter(), B: Counter()})  # per attack
    hits: Counter = field(default_factory=Counter)  # key -> attacks that landed
    refused: Counter = field(default_factory=Counter)  # (key, the engine's why) -> times

    def merge(self, other: "Tally") -> "Tally":
        self.fights += other.fights
        self.wins.update(other.wins)
        self.turns.update(other.turns)
        for k in (A, B):
            self.damage[k].update(other.damage[k])
        self.hits.update(other.hits)
        self.refused.update(other.refused)
        return self

    def attacks(self, key: str) -> int:
        return sum(self.damage[key].values())


# ---------------------------------------------------------------- one fight


@dataclass(frozen=True, slots=True)
class _Asks:
    """The intents one side sends, made once per run: an intent is a frozen value, and a
    fight sends the same few over and over (a new one each time was a tenth of the
    driver's cost, bench/callgrind.py fight)."""

    roll: it.Intent  # RollInitiative
    act: it.Intent  # Act, the declared action
    passes: it.Intent  # Pass
    done: it.Intent  # Done
    skip: it.Intent  # Advance by the organizer for this side (+combat/next <name>)
    declares: tuple[it.Intent, ...]  # Declare: the side's own, then its fallbacks

    @classmethod
    def of(cls, key: str, side: Side) -> "_Asks":
        tries = ((side.declare, side.activations), *((f, ()) for f in side.fallback))
        return cls(it.RollInitiative(by=key, actor=key), it.Act(by=key, actor=key),
                   it.Pass(by=key, actor=key), it.Done(by=key, actor=key),
                   it.Advance(by=ORGANIZER, actor=key),
                   tuple(it.Declare(by=key, actor=key, actions=tuple(actions),
                                    activations=tuple(activations))
                         for actions, activations in tries if actions))


_ADVANCE = it.Advance(by=ORGANIZER)  # nobody waited for: the organizer moves the fight on


class _Fight:
    """One fight driven through ``apply``; events read as they come."""

    def __init__(self, engine, rules, state, sheets: dict, plans: Mapping[str, Side],
                 rng: random.Random, tally: Tally, memo: Memo,
                 asks: Mapping[str, _Asks] | None = None):
        self.engine, self.rules, self.state, self.memo = engine, rules, state, memo
        self.sheets, self.plans, self.rng, self.tally = sheets, plans, rng, tally
        self.asks = asks if asks is not None else {k: _Asks.of(k, s) for k, s in plans.items()}
        self.clock = 1
        self.fallen: set[str] = set()
        self.current: dict[str, int | None] = {A: None, B: None}  # damage of the open attack
        self.declared: set[str] = set()
        self.tried: set[str] = set()

    def apply(self, intent: it.Intent) -> bool:
        """Apply ``intent``; False (and counted) when the engine refuses it."""
        try:
            out = self.engine.apply(self.state, intent, self.sheets, self.rules, self.rng,
                                    memo=self.memo)
        except WodError as why:
            self.tally.refused[(intent.actor or intent.by, str(why))] += 1
            return False
        self.state = out.state
        if out.sheet_changes:
            self.sheets.update(out.sheet_changes)
        for e in out.events:
            if e.kind in _READ:
                self.read(e.kind, e.fields)
        return True

    def read(self, kind: str, e: Mapping) -> None:
        if kind in ("turn", "round"):
            self.clock = max(self.clock, int(e.get(kind) or 0))
        elif kind == "roll":
            # an attack, or a move on someone (spotlight's moves reading, issue 31)
            aimed = e.get("purpose") == "attack" or (e.get("purpose") == "move"
                                                    and e.get("target"))
            if aimed and e.get("actor") in self.current:
                self.close(e["actor"])
                self.current[e["actor"]] = 0
        elif kind == "hit":
            if e.get("actor") in self.current:
                self.tally.hits[e["actor"]] += 1
        elif kind == "damage":
            who = e.get("actor")
            if who in self.current and who != e.get("target") and self.current[who] is not None:
                self.current[who] += int(e.get("applied") or 0)
        elif kind == "harm":
            who = e.get("source")
            marked = int(e.get("marked") or 0) + int(e.get("upgraded") or 0)
            if who in self.current and self.current[who] is not None:
                self.current[who] += marked
                self.tally.hits[who] += 1  # through the defense, as d10's "hit" (SPOT-11)
            if e.get("outcome") in FALLEN:
                self.fallen.add(e.get("target"))
        if kind == "outcome" and e.get("outcome") in FALLEN:
            self.fallen.add(e.get("actor"))

    def close(self, key: str) -> None:
        if self.current[key] is not None:
            self.tally.damage[key][self.current[key]] += 1
            self.current[key] = None

    def other(self, key: str) -> str:
        return B if key == A else A

    # ------------------------------------------------------------ answering prompts

    def step(self) -> None:
        waiting = self.engine.prompts(self.state)
        if not waiting:
            self.apply(_ADVANCE)
            return
        key, what = waiting[0]
        side, asks = self.plans.get(key), self.asks.get(key)
        if side is None or asks is None:  # not one of the two sides (never in a matchup)
            if what != "initiative" or not self.apply(it.RollInitiative(by=key, actor=key)):
                self.apply(it.Advance(by=ORGANIZER, actor=key))  # as staff would
            return
        if what == "initiative":
            if not self.apply(asks.roll):
                self.apply(asks.skip)
        elif what == "declare":
            self.declare(key, asks)
        elif what == "act":
            self.act(key, side, asks)
        else:  # "pick": the Storyteller gives that opponent the spotlight (SPOT-04); or
            self.apply(asks.skip)  # anything else: stop waiting, as staff would (+combat/next)

    def declare(self, key: str, asks: _Asks) -> None:
        for intent in asks.declares:
            if self.apply(intent):
                self.declared.add(key)
                return
        if not self.apply(asks.passes):
            self.apply(asks.skip)

    def act(self, key: str, side: Side, asks: _Asks) -> None:
        if key in self.declared:  # d10: the declared action, in its slot
            if not self.apply(asks.act):
                self.apply(asks.skip)
            return
        if key not in self.tried:  # holding the spotlight: the action, once
            self.tried.add(key)
            choices: list = []
            for a in (side.act, *(f[0] for f in side.fallback if f)):
                if a and a not in choices:
                    choices.append(a)
            for action in choices:
                if self.apply(it.Act(by=key, actor=key, action=action)):
                    return
                # refused (out of reach?): a step toward the other, then the action again
                if self.apply(it.Move(by=key, actor=key, other=self.other(key),
                                      direction="closer")):
                    if self.apply(it.Act(by=key, actor=key, action=action)):
                        return
        self.tried.discard(key)
        if not self.apply(asks.done):
            self.apply(asks.skip)

    def run(self, turn_cap: int) -> str:
        """The winner: "a", "b", or "draw" (the cap reached, or both fell at once)."""
        steps = 0
        limit = MAX_STEPS_PER_TURN * (turn_cap + 1)
        while not self.fallen and self.clock <= turn_cap:
            self.step()
            steps += 1
            if steps > limit:  # shown with the refusals, counted as a draw
                self.tally.refused[(ORGANIZER, "the fight stopped moving on, waiting for "
                                    f"{self.engine.prompts(self.state)}")] += 1
                break
        for k in (A, B):
            self.close(k)
        if self.fallen >= {A, B} or not self.fallen or steps > limit:
            return "draw"
        return "b" if A in self.fallen else "a"


# events the driver reads (the others are skipped without building their dicts)
_READ = frozenset({"turn", "round", "roll", "hit", "damage", "harm", "outcome"})


# ---------------------------------------------------------------- many fights


class Prepared:
    """What every fight of a matchup shares: the rules, the engine, the sheets, the state
    after both sides joined (joining rolls no dice, and ``apply`` is pure)."""

    def __init__(self, m: Matchup, rules=None):
        from .rules.ruleset import load_ruleset

        self.m = m
        self.rules = rules if rules is not None else load_ruleset(m.rules_dir, m.ruleset)
        self.engine = engine_for(self.rules)
        cat = self.rules.traits
        self.sheets = {A: Sheet.from_dict(m.a.sheet).with_pools_for(cat),
                       B: Sheet.from_dict(m.b.sheet).with_pools_for(cat)}
        state = self.engine.new_combat("simulate", self.rules, {}).state
        for intent in (it.Join(by=A, actor=A, name=m.a.name),
                       it.Join(by=ORGANIZER, actor=B, name=m.b.name, is_npc=True,
                               controller=ORGANIZER)):
            state = self.engine.apply(state, intent, self.sheets, self.rules,
                                      random.Random(0)).state
        self.joined = state
        self.plans = {A: m.a, B: m.b}
        self.asks = {k: _Asks.of(k, s) for k, s in self.plans.items()}
        # the plans this run's fights share (combat/core/memo.py): one matchup asks for the same
        # few over and over
        self.memo = Memo()

    def fight(self, rng: random.Random, tally: Tally) -> None:
        f = _Fight(self.engine, self.rules, self.joined, dict(self.sheets), self.plans, rng,
                   tally, self.memo, self.asks)
        result = f.run(self.m.turn_cap)
        tally.fights += 1
        tally.wins[result] += 1
        if result != "draw":
            tally.turns[f.clock] += 1


def chunk_seed(seed: int, index: int) -> str:
    """The seed of chunk ``index``: a string, which ``random.Random`` hashes (SHA-512) the
    same way in every process and Python run."""
    return f"wod-simulate:{seed}:{index}"


def chunks(trials: int) -> list[tuple[int, int]]:
    """(index, fights) for ``trials`` fights in chunks of ``CHUNK``."""
    return [(i, min(CHUNK, trials - i * CHUNK)) for i in range(math.ceil(trials / CHUNK))]


def run_chunk(prepared: Prepared, seed: int, index: int, fights: int) -> Tally:
    rng = random.Random(chunk_seed(seed, index))
    tally = Tally()
    for _ in range(fights):
        prepared.fight(rng, tally)
    return tally


def _serve(source: "Prepared | Matchup", jobs, results) -> None:
    """One worker process: chunks from ``jobs`` until its ``None``, each tally (or the
    error that stopped it) to ``results``. ``source`` is the run's ``Prepared`` itself when
    the process was forked from the one that made it (nothing copied), else the matchup,
    prepared here once (a spawned process reads the rules folder itself)."""
    try:
        prepared = source if isinstance(source, Prepared) else Prepared(source)
        for seed, index, fights in iter(jobs.get, None):
            results.put(run_chunk(prepared, seed, index, fights))
    except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
        results.put(exc)


def simulate(m: Matchup, trials: int, seed: int, *, workers: int = 1, rules=None,
             progress: Callable[[int, int], None] | None = None) -> Tally:
    """``trials`` fights of ``m``; ``workers`` > 1 runs the chunks in that many processes
    (the same result: each chunk has its own seed). ``progress(done, trials)`` after each
    chunk. ``rules``: a loaded ruleset to use in this process instead of the folder's."""
    jobs = [(seed, i, n) for i, n in chunks(trials)]
    if workers <= 1 or len(jobs) <= 1:
        prepared = Prepared(m, rules)
        return _collect((run_chunk(prepared, seed, i, n) for _, i, n in jobs), trials,
                        progress)
    return _in_processes(m, rules, jobs, min(workers, len(jobs)), trials, progress)


def _collect(tallies, trials: int, progress) -> Tally:
    total = Tally()
    for tally in tallies:
        total.merge(tally)
        if progress:
            progress(total.fights, trials)
    return total


def _in_processes(m: Matchup, rules, jobs: list, workers: int, trials: int,
                  progress) -> Tally:
    """The chunks shared out to ``workers`` processes through a queue, tallies merged as
    they come (a sum: the order does not matter)."""
    import multiprocessing

    ctx = multiprocessing.get_context()
    source = Prepared(m, rules) if ctx.get_start_method() == "fork" else m
    todo, results = ctx.Queue(), ctx.Queue()
    procs = [ctx.Process(target=_serve, args=(source, todo, results), daemon=True)
             for _ in range(workers)]
    for proc in procs:  # before the first put starts the queue's thread: fork a lone thread
        proc.start()
    for job in [*jobs, *[None] * workers]:
        todo.put(job)
    done = False
    try:
        total = _collect((_checked(results.get()) for _ in jobs), trials, progress)
        done = True
        return total
    finally:
        for proc in procs:
            if not done:
                proc.terminate()  # after an error; otherwise each ends on its None
            proc.join()


def _checked(result: "Tally | BaseException") -> Tally:
    if isinstance(result, BaseException):
        raise result
    return result


# ---------------------------------------------------------------- statistics


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share ``k/n`` (95% with z = 1.96): unlike the normal
    approximation it stays inside [0, 1] at 0% and 100%."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def mean(hist: Mapping[int, int]) -> float:
    n = sum(hist.values())
    return sum(k * v for k, v in hist.items()) / n if n else 0.0


def median(hist: Mapping[int, int]) -> float:
    """The median of a histogram {value: count} (the mean of the two middle values)."""
    n = sum(hist.values())
    if not n:
        return 0.0
    lo_i, hi_i = (n - 1) // 2, n // 2
    seen, lo = 0, None
    for value in sorted(hist):
        seen += hist[value]
        if lo is None and seen > lo_i:
            lo = value
        if seen > hi_i:
            return (lo + value) / 2
    return float(lo or 0)


@dataclass(frozen=True, slots=True)
class SideStats:
    name: str
    wins: int
    share: float
    ci: tuple[float, float]
    attacks: int
    hit_rate: float
    damage_mean: float
    damage: dict  # levels (or Harm) per attack -> attacks


@dataclass(frozen=True, slots=True)
class Summary:
    fights: int
    a: SideStats
    b: SideStats
    draws: int
    draw_share: float
    draw_ci: tuple[float, float]
    turns_mean: float
    turns_median: float
    turns: dict  # turns until a side fell -> fights
    refused: tuple[tuple[str, str, int], ...]  # (side name, why, times), most frequent first


def summarize(m: Matchup, t: Tally) -> Summary:
    n = t.fights
    names = {A: m.a.name, B: m.b.name, ORGANIZER: "the simulator"}

    def side(key: str, label: str, s: Side) -> SideStats:
        attacks = t.attacks(key)
        return SideStats(s.name, t.wins[label], t.wins[label] / n if n else 0.0,
                         wilson(t.wins[label], n), attacks,
                         t.hits[key] / attacks if attacks else 0.0, mean(t.damage[key]),
                         dict(sorted(t.damage[key].items())))

    return Summary(n, side(A, "a", m.a), side(B, "b", m.b), t.wins["draw"],
                   t.wins["draw"] / n if n else 0.0, wilson(t.wins["draw"], n),
                   mean(t.turns), median(t.turns), dict(sorted(t.turns.items())),
                   tuple((names.get(k, k), why, times)
                         for (k, why), times in t.refused.most_common(3)))
