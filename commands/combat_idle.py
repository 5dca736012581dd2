"""+combat/timeout, +combat/slackers and the game moving a combat on by itself (issue 5).

``SystemRunner`` is ``CmdCombat`` with the game as the typist: the same load / compute /
commit / announce path a player's command takes (one transaction, the log, the room told,
the next people prompted), used when a combat's deadline passes (``typeclasses.
combat_timers``) and when a combatant's character is deleted (``typeclasses.combat_guard``).
"""

from __future__ import annotations

import time
from dataclasses import replace

from combat import idle
from combat import scheduler as sch
from combat.errors import InputError
from world import combatlog

from .combat import CmdCombat
from .render import header

MAX_TIMEOUT = 7 * 24 * 3600


def fmt_secs(secs: float) -> str:
    secs = int(round(secs))
    if secs < 60:
        return f"{secs}s"
    if secs < 3600:
        return f"{secs // 60}m {secs % 60:02d}s"
    return f"{secs // 3600}h {secs % 3600 // 60:02d}m"


def parse_seconds(text: str) -> int:
    """``90``, ``90s``, ``5m``, ``1h``, ``off`` -> seconds (0: off)."""
    t = text.strip().lower()
    if t in ("off", "none", "no"):
        return 0
    unit = 1
    if t[-1:] in ("s", "m", "h"):
        unit = {"s": 1, "m": 60, "h": 3600}[t[-1]]
        t = t[:-1].strip()
    if not t.isdecimal():
        raise InputError(f"'{text.strip()}' is not a time: +combat/timeout <seconds> (or 5m, "
                         f"1h; 0 or off turns the timeout off).")
    secs = int(t) * unit
    if secs > MAX_TIMEOUT:
        raise InputError(f"At most {MAX_TIMEOUT // 86400} days; 0 turns the timeout off.")
    return secs


class _Game:
    """Stands in for the character typing when the game itself acts (no one to answer)."""

    id = 0
    key = "the game"

    def __init__(self, room):
        self.location = room

    def msg(self, *args, **kwargs):
        pass


class SystemRunner(CmdCombat):
    def __init__(self, script, exclude=None):
        super().__init__()
        self.caller = _Game(script.obj)
        self.args, self.switches, self.lhs, self.rhs = "", [], "", None

    def me(self) -> str:
        return "#0"

    def describe(self, ev: dict):
        if ev.get("event") == "timeout":
            name = self.name(ev.get("actor", ""))
            did = {idle.FULL_DEFENSE: "the game declares a full defense for them (they "
                                      "defend against every attack this turn)",
                   idle.PASS: "they pass", "removed": "they are gone and leave the fight"}
            return (f"Time is up for {name} ({ev['what']}): "
                    f"{did.get(ev['default'], ev['default'])}.")
        if ev.get("event") == "deleted":
            return f"{ev.get('name')} is gone (the character was deleted) and leaves the fight."
        return super().describe(ev)

    def expire(self, now: float | None = None) -> bool:
        """Apply the idle defaults if the deadline has passed; True if anything changed."""
        self.load()
        now = time.time() if now is None else now
        if not idle.due(self.state, now):
            return False
        gone = {k for k in sch.pending(self.state) if self.obj_of(k) is None}
        step = idle.expire(self.state, self.rs, now, gone)
        if step is None:
            return False
        self.run(step)
        self.commit()
        return True

    def remove_gone(self, key: str) -> None:
        self.load()
        c = self.state.get(key)
        if c is None or self.state.phase == "ended":
            return
        self.events.append({"event": "deleted", "actor": key, "name": c.name})
        self.run(sch.remove(self.state, key, self.rs))
        self.commit()


# ---------------------------------------------------------------- the two switches


def timeout_of(state) -> tuple[int, str]:
    """(seconds, where it comes from): the combat's own, or the server's default."""
    from django.conf import settings

    if state.options.timeout is not None:
        return int(state.options.timeout), "set for this fight"
    return int(getattr(settings, "COMBAT_DEFAULT_TIMEOUT", 0) or 0), "server default"


def do_timeout(cmd: CmdCombat) -> None:
    cmd.load()
    arg = cmd.args.strip()
    if not arg:
        secs, src = timeout_of(cmd.state)
        left = idle.remaining(cmd.state, time.time())
        now = f"; the current wait runs out in {fmt_secs(left)}" if left is not None else ""
        cmd.msg(f"Idle timeout: {fmt_secs(secs) if secs else 'off'} ({src}){now}. "
                f"The organizer sets it: +combat/timeout <seconds> (0 turns it off).")
        return
    cmd.need_runner("set the idle timeout")
    secs = parse_seconds(arg)
    cmd.run(sch.set_options(cmd.state, cmd.rs, timeout=secs))
    cmd.state = replace(cmd.state, deadline=None)  # the current wait restarts on the new clock
    cmd.lines.append(f"{cmd.caller.key} sets the idle timeout to "
                     + (f"{fmt_secs(secs)}: whoever the turn waits for longer than that gets "
                        f"the default (pass, or a full defense when declaring)."
                        if secs else "off: the turn waits as long as it takes."))
    cmd.commit()


def waiting_since(combat_id: str, keys) -> dict[str, float]:
    """When each key was last prompted (the log's ``prompt`` records)."""
    want, found = set(keys), {}
    for rec in reversed(combatlog.read(combat_id)):
        if rec.get("event") != "prompt":
            continue
        for k in rec.get("who") or ():
            if k in want and k not in found:
                found[k] = rec.get("ts", 0.0)
        if len(found) == len(want):
            break
    return found


def do_slackers(cmd: CmdCombat) -> None:
    if cmd.args.strip():
        raise InputError("Usage: +combat/slackers (also +combat/pending), nothing after it.")
    cmd.load()
    st, now = cmd.state, time.time()
    waiting = sch.prompts(st)
    secs, src = timeout_of(st)
    lines = [header(f"Waiting for: turn {st.turn}, {st.phase} phase")]
    if st.phase == "ended":
        lines.append(" The fight is over.")
    elif not waiting:
        lines.append(" Nobody: everyone has done their part; the organizer moves on with "
                     "+combat/next.")
    else:
        since = waiting_since(st.id, [k for k, _ in waiting])
        for key, what in waiting:
            c = st.get(key)
            how_long = fmt_secs(now - since[key]) if key in since else "?"
            tag = " [NPC]" if c and c.is_npc else ""
            lines.append(f" {cmd.name(key):<20}{tag:<6} {what:<10} waiting {how_long}")
    left = idle.remaining(st, now)
    if secs and left is not None:
        lines.append(f" Timeout {fmt_secs(secs)} ({src}): the default applies in "
                     f"{fmt_secs(left)}.")
    elif secs:
        lines.append(f" Timeout {fmt_secs(secs)} ({src}).")
    else:
        lines.append(" No idle timeout: +combat/timeout <seconds> sets one.")
    cmd.msg("\n".join(lines))
