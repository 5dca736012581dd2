"""+combat/odds: staff preview the odds of a matchup on the rules the server runs (issue 13).

The fights are the simulator's (``combat/simulate.py``): the game's engine path, in this
process, on the loaded rules (those of the fight here, else the server's default, or a named
ruleset), so an admin sees what the running rules do before and after ``+rules/reload``.
Nothing is written: no fight, no sheet, no log. Previews wait in one queue served by one
worker thread of the server's process (``PREVIEWS``; at most ``WODCOMBAT_ODDS_QUEUE`` queued or
running, the rest told it is busy), so the count is capped (``MAX_TRIALS``); ``bin/simulate``
runs big counts from the files on disk, on every core.
"""

from __future__ import annotations

import re
import time

from wodcombat import conf

from wodcombat.combat import simulate as sim
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.world.preview_queue import PreviewQueue
from wodcombat.world.text_width import wrap

from . import matchup
from .render import header

DEFAULT_TRIALS = 1000
MAX_TRIALS = 2000  # ~5-10 ms a fight today: a preview takes 20 s at most
SEED_OF_THE_DAY = None  # each preview rolls fresh dice (a seed: repeatable, for tests)
USAGE = ("+combat/odds <template or character>=<template or character>[/<fights>]"
         "[/<ruleset>], e.g. +combat/odds thug=gunman/2000 (or thug vs gunman/2000)")


def _from_worker(fn, value) -> None:
    """A preview's answer, handed to the reactor thread (Evennia's objects live there)."""
    from twisted.internet import reactor

    reactor.callFromThread(fn, value)


# The one queue of the server process (its worker starts with the first preview).
PREVIEWS = PreviewQueue(lambda: conf.get("WODCOMBAT_ODDS_QUEUE"), what="previews",
                        deliver=_from_worker)


class OddsSwitches:
    """Mixed into ``CmdCombat`` (its ``is_staff``, ``ruleset_here``, ``find_character``)."""

    odds_seed: int | None = SEED_OF_THE_DAY

    def do_odds(self):
        if not self.is_staff():
            raise IllegalAction("Only staff preview the odds of a fight.")
        left, rhs = self.lhs, self.rhs
        if rhs is None:  # "thug vs gunman/2000", as people say a matchup
            parts = re.split(r"\s+vs\.?\s+", left, maxsplit=1, flags=re.IGNORECASE)
            if len(parts) == 2:
                left, rhs = parts
        if rhs is None or not left.strip() or not rhs.strip():
            raise InputError(f"Usage: {USAGE}")
        right, *extra = [p.strip() for p in rhs.split("/")]
        trials, ruleset = DEFAULT_TRIALS, None
        for part in extra:
            if part.isdecimal():
                trials = int(part)
            elif part:
                ruleset = part
        if not 1 <= trials <= MAX_TRIALS:
            raise InputError(f"From 1 to {MAX_TRIALS:,} fights here (bin/simulate runs more "
                             f"from the rules files): {USAGE}")
        from wodcombat.world import rulebook

        rules = rulebook.get(ruleset) if ruleset else self.ruleset_here()
        a = self.odds_side(rules, left, sim.A)
        b = self.odds_side(rules, right, sim.B)
        m = matchup.matchup(rules, rulebook.rules_dir(), a, b, turn_cap=20)
        seed = self.odds_seed if self.odds_seed is not None else int(time.time() * 1000)
        caller = self.caller

        def work():
            start = time.perf_counter()
            tally = sim.simulate(m, trials, seed, rules=rules)
            secs = time.perf_counter() - start
            lines = [header("Odds (simulated)")]
            lines += matchup.summary_lines(m, sim.summarize(m, tally), seconds=secs, width=40,
                                           compact=True)
            # The sides by name: "A" and "B" are the simulator's, never shown above.
            lines += wrap(f"{a.name} joins as a player, {b.name} as an NPC; past "
                          f"{m.turn_cap} turns: a draw. Seed {seed}.")
            return "\n".join(lines)

        from twisted.internet import reactor

        if not reactor.running:  # a test, or a script: no reactor to hand the result back
            self.msg(PREVIEWS.run_here(work))
            return
        # On the live server the fights run in the queue's worker thread (the engine is
        # pure), so the game keeps answering everyone else meanwhile; the summary follows.
        ahead = PREVIEWS.submit(work, caller.msg, _failed(caller))
        wait = f" after {ahead} other preview{'s' if ahead != 1 else ''}" if ahead else ""
        self.msg(f"Simulating {trials:,} fights of {a.name} against {b.name}{wait}; the "
                 f"odds follow when done.")

    def odds_side(self, rules, text: str, key: str) -> sim.Side:
        """A template (+combat/templates), else a character by name (its sheet; an NPC made
        from a template keeps that template's default)."""
        text = text.strip()
        found = matchup.template_side(rules, text, key)
        if found is not None:
            return found
        try:
            obj = self.find_character(text)
        except InputError:
            raise matchup.unknown_side(text, " or a character", traits=False) from None
        from wodcombat.world.npc_defaults import template_default

        sheet = obj.sheet.get().with_pools_for(rules.traits)
        does = template_default(obj.attributes.get("npc_template"))
        return matchup.side(rules, obj.key, sheet, does, key)


def _failed(caller):
    def failed(err: BaseException) -> None:
        import traceback

        from evennia.utils import logger

        logger.log_err("+combat/odds failed: " + "".join(traceback.format_exception(err)))
        caller.msg("|rThe simulation went wrong; nothing was changed. Staff can read the "
                   "server log.|n")

    return failed
