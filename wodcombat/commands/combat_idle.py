"""+combat/timeout and +combat/slackers: how long the fight waits for someone idle, and who
it waits for now (issue 5). The defaults themselves are the engine's (``Expire``); the clock
that applies them is ``wodcombat/typeclasses/combat_timers.py``."""

from __future__ import annotations

import time

from wodcombat.combat.core import intents as it
from wodcombat.combat.core.errors import InputError
from wodcombat.world import combatlog
from wodcombat.world.combat_service import timeout_of
from wodcombat.world.combat_text import fmt_secs, is_npc

from .render import header

MAX_TIMEOUT = 7 * 24 * 3600


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
    secs = int(t) * unit  # at most 15 digits: WodCommand refuses longer runs first
    if secs > MAX_TIMEOUT:
        raise InputError(f"At most {MAX_TIMEOUT // 86400} days; 0 turns the timeout off.")
    return secs


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


class IdleSwitches:
    """Mixed into ``CmdCombat``."""

    def do_timeout(self):
        self.load()
        arg = self.args.strip()
        if not arg:
            secs, src = timeout_of(self.engine, self.state)
            left = self.engine.remaining(self.state, time.time())
            now = f"; the current wait runs out in {fmt_secs(left)}" if left is not None else ""
            self.msg(f"Idle timeout: {fmt_secs(secs) if secs else 'off'} ({src}){now}. "
                     f"The organizer sets it: +combat/timeout <seconds> (0 turns it off).")
            return
        self.need_runner("set the idle timeout")
        self.apply(it.SetTimeout(by=self.me(), seconds=parse_seconds(arg)))

    def do_slackers(self):
        if self.args.strip():
            raise InputError("Usage: +combat/slackers (also +combat/pending), nothing after it.")
        self.load()
        st, now = self.state, time.time()
        waiting = self.engine.prompts(st)
        secs, src = timeout_of(self.engine, st)
        turn, phase = combatlog.clock(st)
        lines = [header(f"Waiting for: turn {turn}, {phase} phase")]
        if phase == "ended":
            lines.append(" The fight is over.")
        elif not waiting:
            lines.append(" Nobody: everyone has done their part; the organizer moves on with "
                         "+combat/next.")
        else:
            since = waiting_since(st.id, [k for k, _ in waiting])
            for key, what in waiting:
                c = st.get(key)
                how_long = fmt_secs(now - since[key]) if key in since else "?"
                tag = " [NPC]" if c is not None and is_npc(c) else ""
                lines.append(f" {self.name(key):<20}{tag:<6} {what:<10} waiting {how_long}")
        left = self.engine.remaining(st, now)
        if secs and left is not None:
            lines.append(f" Timeout {fmt_secs(secs)} ({src}): the default applies in "
                         f"{fmt_secs(left)}.")
        elif secs:
            lines.append(f" Timeout {fmt_secs(secs)} ({src}).")
        else:
            lines.append(" No idle timeout: +combat/timeout <seconds> sets one.")
        self.msg("\n".join(lines))
