"""The one renderer of a fight: events in, the text the room and each person read out.

The same events are logged, so rendering a logged fight reproduces what players saw
(``bin/replay`` checks it). Names come from the state after the command, and from the
events themselves for whoever has left. Colour codes degrade to plain text on a client
without colour; nothing here decides a rule.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from wodcombat.combat.core.events import Event

from . import d10_text, spotlight_text
from .fight_phrases import actions_text, fmt_secs, plain
from .person_text import second_person

# What other modules take from here: the phrases are this renderer's too.
__all__ = ["PREFIX", "Names", "is_npc", "RENDER", "room_lines", "room_text",
           "prompt_messages", "ahead_messages", "actions_text", "fmt_secs", "plain",
           "second_person"]

# Player text never shows rule IDs: "(DMG-09)" in an engine note is dropped.

PREFIX = "|w[Combat]|n "


class Names:
    """key -> name: the combatants of a state, plus names events carry (someone who left)
    and ``extra`` (someone outside the fight); a combatant's own name first. The state is
    asked per key (its index), not copied: a command names a few of a crowd of 100."""

    def __init__(self, state, events: Iterable[Event] = (), extra: Mapping[str, str] = {}):
        self._get = getattr(state, "get", None)
        self._names = dict(extra)
        for ev in events:
            if ev.get("actor") and ev.get("name"):
                self._names.setdefault(ev["actor"], ev["name"])

    def __call__(self, key) -> str:
        c = self._get(key) if self._get is not None and type(key) is str else None
        return c.name if c is not None else self._names.get(key, key or "?")


def is_npc(c) -> bool:
    """An NPC (d10) or an opponent (spotlight): run by the organizer and staff."""
    npc = getattr(c, "is_npc", None)
    return (not c.is_pc) if npc is None else bool(npc)


# engine -> event kind -> the function that words it (a kind without one says nothing:
# a prompt is told to its reader alone, by prompt_messages).
RENDER = {"d10": d10_text.RENDER, "spotlight": spotlight_text.RENDER}


def room_lines(engine: str, events: Iterable[Event], state, names: Names) -> list[str]:
    """Every line the room reads, in the order things happened."""
    render = RENDER[engine]
    out: list[str] = []
    events = tuple(events)
    for i, ev in enumerate(events):
        say = render.get(ev.kind)
        if say is None:
            continue
        # a line whose words depend on what follows (a botch: is anything worse coming?)
        text = (say(ev, names, state, after=events[i + 1:]) if getattr(say, "looks_ahead", 0)
                else say(ev, names, state))
        if isinstance(text, list):
            out.extend(text)
        elif text:
            out.append(text)
    return out


def room_text(engine: str, events: Iterable[Event], state, names: Names) -> str | None:
    """What the room reads, each statement under the one prefix (an indented line goes on
    the one above it); rule IDs stay in the log and the staff help, not here."""
    lines = [plain(line) for line in room_lines(engine, events, state, names)]
    return "\n".join(line if line.startswith(" ") else PREFIX + line
                     for line in lines) if lines else None


# ---------------------------------------------------------------- prompts


_HOW = {
    "d10": {"initiative": "roll initiative: +combat/init",
            "declare": "declare: +combat/declare <action>", "act": "act: +combat/act"},
    "spotlight": {"initiative": "roll initiative: +combat/init",
                  "act": "act: +combat/act, /move, /free, /done"},
}


# Events after which every wait is a new one (a d10 turn or phase, a spotlight round): who
# was waited for before the command is told again, e.g. the first to declare in turn 2 who
# was the last to declare in turn 1.
_NEW_WAIT = frozenset({"turn", "phase", "round"})


def prompt_messages(engine: str, events: Iterable[Event], state, names: Names,
                    already: set, organizer: str | None,
                    pending: set | None = None) -> list[tuple[str, str]]:
    """(recipient key, text): each newly pending person is told it is their turn, and the
    organizer who is left (and whose NPCs are up). ``already``: (key, what) pairs waited
    for before this command, who are not told again unless the turn or phase moved on.
    ``pending``: the (key, what) pairs waited for after it; a prompt the command moved past
    (someone's slot it reached and left) is not told."""
    events = tuple(events)
    if any(ev.kind in _NEW_WAIT for ev in events):
        already = set()
    out: list[tuple[str, str]] = []
    for p in [ev for ev in events if ev.kind == "prompt"][-3:]:
        what, who = p["what"], list(p.get("who") or ())
        if what in ("advance", "pick"):
            if organizer and not (what == "advance" and pending):
                out.append((organizer, PREFIX + _organizer_moves(what, who, names)))
            continue
        if pending is not None:
            who = [k for k in who if (k, what) in pending]
        told = set()  # whose turn the organizer was told just now: himself, his NPCs
        for key in who:
            c = state.get(key)
            if c is None or (key, what) in already:
                continue
            to, text = _your_turn(engine, what, c, organizer)
            if to:
                out.append((to, PREFIX + text))
                if to == organizer:
                    told.add(key)
        # Who else the turn waits for: not what he was just told (issue 28: "Your turn to
        # act" then "Waiting for (act): <you>" said it twice).
        rest = [k for k in who if k not in told]
        if engine == "d10" and organizer and rest and {(k, what) for k in who} != already:
            out.append((organizer, PREFIX + f"Waiting for ({what}): "
                        + ", ".join("you" if k == organizer else names(k) for k in rest)))
    return out


def _organizer_moves(what: str, who: list, names: Names) -> str:
    if what == "advance":
        return "Nobody is pending: +combat/next moves on."
    return ("Pick an opponent: +combat/next <opponent> (" + ", ".join(names(k) for k in who)
            + "), or +combat/next to pass.")


def _your_turn(engine: str, what: str, c, organizer: str | None) -> tuple[str | None, str]:
    """(recipient, text) telling ``c``'s turn to whoever types it: the player, or the
    organizer for an NPC (or a spotlight opponent)."""
    how = _HOW[engine].get(what, what)
    if not is_npc(c):
        return c.key, f"Your turn to {how}"
    if not organizer:
        return None, ""
    if engine == "spotlight":
        return organizer, (f"{c.name} has the spotlight: +combat/act {c.name}=attack "
                           "<target>, /move, /done")
    sep = {"declare": "=<action>", "initiative": "[=<rating>]"}.get(what, "")
    verb = "roll initiative" if what == "initiative" else what
    switch = "init" if what == "initiative" else what
    return organizer, f"{c.name}'s turn to {verb}: +combat/{switch} {c.name}{sep}"


_AHEAD = {"declare": "You have declared ahead; it will be revealed in your slot.",
          "act": "Your action is queued; it resolves in your slot.",
          "wp": "Your action is queued with its Willpower; it resolves in your slot.",
          "delay": "You will delay when your slot comes (then act with +combat/act)."}


# An NPC's declaration made ahead is told to the room, its runner there too: not again.
_AHEAD_NPC = {"act": "{}'s action is queued; it resolves in its slot.",
              "wp": "{}'s action is queued with its Willpower; it resolves in its slot.",
              "delay": "{} will delay when its slot comes."}


def ahead_messages(events: Iterable[Event], state, names: Names,
                   organizer: str | None) -> list[tuple[str, str]]:
    """(recipient, text): what was entered ahead, said to whoever entered it (an NPC's
    runner for an NPC), and why a declaration made ahead no longer stands."""
    out = []
    for ev in events:
        if ev.kind not in ("ahead", "ahead_refused"):
            continue
        key = ev.get("actor")
        c = state.get(key) if state is not None else None
        npc = c is not None and is_npc(c)
        to = organizer if npc else key
        if not to:
            continue
        if ev.kind == "ahead_refused":
            text = (f"{names(key)}'s declaration made ahead no longer stands; declare again: "
                    f"+combat/declare " + (f"{names(key)}=" if npc else "") + "<action>")
        else:
            text = (_AHEAD_NPC if npc else _AHEAD).get(ev["what"], "").format(names(key))
        if text:
            out.append((to, PREFIX + text))
    return out

