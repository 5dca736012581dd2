"""Issue 13's bench probe: SQL statements and handler CPU per command, inside the server.

Off unless the environment variable ``WOD_BENCH_PROBE`` is ``1`` when the server starts:
``server/conf/inputfuncs.py`` then defines a ``text`` input function (the one Evennia calls
for every line a client types) that runs Evennia's own ``text`` inside a Django
``connection.execute_wrapper`` and a ``time.thread_time`` pair, and adds the figures to a
tally keyed by the command's first word (``+combat/act``, ``look``). With the variable unset
the input function is not defined at all, so a normal server runs exactly Evennia's code.

Commands run synchronously on the server's main thread (Evennia's ``cmdhandler`` only
yields plain values for our commands), so every statement counted inside the wrapper is
the command's own; other threads have their own connection and are not wrapped.

The bench reads the tally by typing ``@benchprobe`` (a superuser's session only; JSON on one
line) and clears it with ``@benchprobe/reset``; ``@benchprobe/sql`` gives the statements
(their first 160 characters) of the last command of each key; ``@benchprobe/profile <key>``
runs the commands of that key under cProfile until ``@benchprobe/profile`` prints the
profile. ``@benchmark <tag>`` (any session) answers ``BENCHMARK <tag>`` at once: the benches
send it after a command to know where its reply ends, at a fraction of the CPU of an unknown
command (whose "not available" reply runs the command handler and its fuzzy suggestions).
None of these lines reaches the command handler, so no command has to exist for them, and
they are not counted.

The benches' unknown-command markers of old (``zzmk<n>``) would be counted under one key:
digits become ``#``.
"""

from __future__ import annotations

import json
import os
import re
import time

ENV = "WOD_BENCH_PROBE"
DUMP = "@benchprobe"
RESET = "@benchprobe/reset"
SQL = "@benchprobe/sql"
SQL_CHARS = 160  # of each statement kept for @benchprobe/sql
PROFILE = "@benchprobe/profile"
PROFILE_LINES = 30
PROFILE_OUT = "WOD_BENCH_PROFILE_OUT"  # if set: the raw profile is also dumped to this path
MARK = "@benchmark "
_DIGITS = re.compile(r"\d+")
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
_TRANSACTION = ("SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT")


def enabled(environ=os.environ) -> bool:
    return environ.get(ENV, "").strip() == "1"


def command_key(line: str) -> str:
    """The tally key of a typed line: its first word, lower case, digits as ``#``."""
    words = line.strip().split(None, 1)
    return _DIGITS.sub("#", words[0].lower()) if words else "(empty)"


def statement_kind(sql: str) -> str:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    if head in ("SELECT", "WITH"):
        return "selects"
    if head in _WRITES:
        return "writes"
    if head in _TRANSACTION:
        return "transaction"
    return "other"


class Tally:
    """Per-key sums: commands, statements by kind, handler CPU seconds."""

    FIELDS = ("commands", "selects", "writes", "transaction", "other", "cpu_s", "engine_s")

    def __init__(self):
        self.rows: dict[str, dict[str, float]] = {}
        self.last_sql: dict[str, list[str]] = {}  # the last command's statements, per key
        self.profile_key: str | None = None  # commands of this key run under cProfile
        self.profile = None

    def row(self, key: str) -> dict[str, float]:
        if key not in self.rows:
            self.rows[key] = dict.fromkeys(self.FIELDS, 0)
        return self.rows[key]

    def reset(self) -> None:
        self.rows.clear()
        self.last_sql.clear()

    def as_json(self) -> str:
        return json.dumps(self.rows, sort_keys=True, separators=(",", ":"))

    def sql_json(self) -> str:
        return json.dumps(self.last_sql, sort_keys=True, separators=(",", ":"))


TALLY = Tally()


class EngineClock:
    """Main-thread CPU spent inside the engines' ``apply`` (issue 32: the engine's share of
    a command, and the floor a command stands on without it). Each engine's ``apply`` is
    wrapped on its one instance by the server's ``text`` input function (server/conf/
    inputfuncs.py, defined only with the probe on), before the first line it measures; a
    call made from inside another (none today) is counted once, with the outer one."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = 0
        self.installed = False

    def install(self) -> None:
        if self.installed:
            return
        from wodcombat.combat.d10.engine import ENGINE as D10
        from wodcombat.combat.spotlight.engine import ENGINE as SPOTLIGHT

        for engine in (D10, SPOTLIGHT):
            engine.apply = self.timed(engine.apply)
        self.installed = True

    def timed(self, inner):
        def apply(*args, **kwargs):
            self.depth += 1
            t0 = time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.depth -= 1
                if not self.depth:
                    self.seconds += time.thread_time() - t0

        return apply


CLOCK = EngineClock()


class Counter:
    """A Django execute wrapper that counts statements by kind into ``counts`` and keeps
    the start of each in ``statements``."""

    def __init__(self, counts: dict[str, float]):
        self.counts = counts
        self.statements: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        self.counts[statement_kind(sql)] += 1
        self.statements.append(" ".join(sql.split())[:SQL_CHARS])
        return execute(sql, params, many, context)


def measured(run, line: str, tally: Tally | None = None) -> None:
    """Run ``run()`` (one typed line) counting its SQL, main-thread CPU and the part of it
    inside an engine's ``apply`` under its key."""
    from django.db import connection

    tally = TALLY if tally is None else tally
    key = command_key(line)
    counts = dict.fromkeys(("selects", "writes", "transaction", "other"), 0)
    counter = Counter(counts)
    prof = tally.profile if key == tally.profile_key else None
    engine0 = CLOCK.seconds
    t0 = time.thread_time()
    try:
        with connection.execute_wrapper(counter):
            if prof is None:
                run()
            else:
                prof.runcall(run)
    finally:
        cpu = time.thread_time() - t0
        tally.last_sql[key] = counter.statements
        row = tally.row(key)
        row["commands"] += 1
        row["cpu_s"] += cpu
        row["engine_s"] += CLOCK.seconds - engine0
        for kind, n in counts.items():
            row[kind] += n


def profile_command(arg: str, tally: Tally) -> str:
    """``@benchprobe/profile <key>``: profile the commands of that key from now on;
    ``@benchprobe/profile``: the profile so far (top functions by cumulative time), and stop."""
    import cProfile
    import io
    import pstats

    if arg:
        tally.profile_key, tally.profile = arg, cProfile.Profile()
        return f"BENCHPROBE profiling {arg}"
    if tally.profile is None:
        return "BENCHPROBE no profile\nBENCHPROBE end"
    out = io.StringIO()
    stats = pstats.Stats(tally.profile, stream=out)
    if os.environ.get(PROFILE_OUT):
        # the printed top 30 hides who calls what; the dump can be read with pstats later
        stats.dump_stats(os.environ[PROFILE_OUT])
    stats.strip_dirs().sort_stats("cumulative").print_stats(PROFILE_LINES)
    stats.sort_stats("tottime").print_stats(PROFILE_LINES)
    tally.profile_key = tally.profile = None
    # Evennia reads | as a colour code in text it sends
    return out.getvalue().replace("|", "!") + "\nBENCHPROBE end"


def is_staff_session(session) -> bool:
    account = getattr(session, "account", None)
    return bool(account and account.is_superuser)


def text(session, *args, **kwargs):
    """The ``text`` input function when the probe is on (see the module docstring)."""
    from evennia.server import inputfuncs

    line = args[0] if args else None
    if line is None:
        return
    stripped = line.strip().lower()
    if stripped.startswith(MARK):
        session.msg(text="BENCHMARK " + stripped[len(MARK) :].strip())
        return
    if stripped.startswith(PROFILE) and is_staff_session(session):
        session.msg(text=profile_command(stripped[len(PROFILE) :].strip(), TALLY))
        return
    if stripped in (DUMP, RESET, SQL) and is_staff_session(session):
        if stripped == DUMP:
            session.msg(text="BENCHPROBE " + TALLY.as_json())
        elif stripped == SQL:
            session.msg(text="BENCHPROBE " + TALLY.sql_json())
        else:
            TALLY.reset()
            session.msg(text="BENCHPROBE reset")
        return
    measured(lambda: inputfuncs.text(session, *args, **kwargs), line)
