"""The d10 declaration language: ``attack Bob with knife as sweep at head from rear moving 3;
dodge`` into the action dicts of a ``Declare`` intent.

Parsing only: names become combatant keys and canonical weapon/maneuver/location names (a
typo gets a "did you mean"); whether the sheet allows it (carried, not knocked away, how far
one can run) is the engine's to decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from combat.errors import InputError
from combat.maneuvers import COVER, tables

DEFENSES = ("dodge", "block", "parry")
# RNG-03: everyman calls cover Concealment (same values); both words are accepted.
COVER_WORDS = ("cover", "concealment")
# MAN-04: "attack Bob moving 3" (an optional "yards"/"yd" after the number).
MOVING = re.compile(r"(?:^|\s)moving(?:\s+(\S+))?(?:\s+(?:yards?|yds?)\b)?", re.IGNORECASE)
# DEF-02: dodging gunfire means diving into cover or dropping prone.
DODGE_HOW = {"prone": "prone", "cover": "cover"}
# DICE-03 specialty, DICE-04 a Willpower point for one automatic success, on the roll of an
# attack or a defense: "attack Bob with knife spec wp", "dodge wp".
ROLL_FLAGS = {"spec": "specialty", "specialty": "specialty", "wp": "willpower",
              "willpower": "willpower"}


def roll_flags(words: list[str]) -> tuple[list[str], dict]:
    """The words without the trailing roll options, and the options as action fields."""
    words = list(words)
    found: dict = {}
    while words and words[-1].lower() in ROLL_FLAGS:
        found[ROLL_FLAGS[words.pop().lower()]] = True
    return words, found

ACTIONS_HINT = ("attack <target>, dodge, block, parry, defend, aim, reload, move, rise, "
                "escape, ready, celerity, rage <n>, spend <pool> <n>, cover <level>, pass or "
                "other <text>. See help +combat.")


@dataclass
class Declaration:
    actions: list[dict] = field(default_factory=list)
    activations: list[dict] = field(default_factory=list)
    desperate: bool = False


def split_words(rest: str, word: str) -> tuple[str, str | None]:
    """``rest`` cut at the last `` <word> ``: (before, after) or (rest, None)."""
    low = f" {rest.lower()} "
    key = f" {word} "
    if key not in low:
        return rest, None
    idx = low.rindex(key)
    before, after = rest[:max(0, idx - 1)], rest[idx + len(key) - 1:]
    return before.strip(), after.strip()


def cover_level(text: str) -> str:
    """RNG-03: one of the cover levels (a unique prefix is enough)."""
    word = text.strip().lower()
    hits = [k for k in COVER if k.startswith(word)] if word else []
    if len(hits) != 1:
        raise InputError(f"Cover is one of: {', '.join(COVER)}, e.g. cover good.")
    return hits[0]


class DeclarationParser:
    """``find(name) -> key`` resolves a combatant's name; ``rules`` gives the tables."""

    def __init__(self, rules, find: Callable[[str], str]):
        self.rules = rules
        self.find = find

    def parse(self, text: str) -> Declaration:
        parts = text.split(";")
        if not text.strip() or any(not p.strip() for p in parts):
            raise InputError("Declare as: +combat/declare <action>[; <action>...], e.g. "
                             "+combat/declare attack Thug; dodge")
        out = Declaration()
        for p in parts:
            a = self.action(p)
            if "activate" in a:
                out.activations.append(a)
            else:
                out.desperate = out.desperate or bool(a.pop("desperate", False))
                out.actions.append(a)
        return out

    def action(self, text: str) -> dict:  # noqa: C901 - one branch per action word
        words = text.strip().split()
        kind = words[0].lower()
        rest = " ".join(words[1:])
        t = tables(self.rules)
        if kind in ("extra", "celerity", "rage") and len(words) > 1 and not (
                kind == "rage" and rest.isdecimal()):
            # MAN-06: an extra action from Celerity or Rage, outside the split penalty.
            inner = self.action(rest)
            if "activate" in inner or inner["kind"] == "pass":
                raise InputError("'extra' goes before an action: extra attack Bob.")
            inner["extra"] = kind  # "extra": the engine picks the source after activations
            return inner
        if kind == "celerity":
            return {"activate": "celerity"}
        if kind == "rage":
            if not rest.isdecimal() or int(rest) < 1:
                raise InputError("Spend Rage as: rage <points>, e.g. rage 2.")
            return {"activate": "rage", "amount": int(rest)}
        if kind == "spend":
            if len(words) != 3 or not words[2].isdecimal() or int(words[2]) < 1:
                raise InputError("Spend as: spend <pool> <points>, e.g. spend blood 2.")
            return {"activate": "spend", "pool": words[1], "amount": int(words[2])}
        if kind == "effect":  # PWR-03 one Arete effect, PWR-04 one Lore evocation a turn
            if not words[1:]:
                raise InputError("Use a power as: effect <kind> [<item>], e.g. effect arete.")
            return {"activate": "effect", "what": words[1].lower(),
                    "item": " ".join(words[2:])}
        if kind == "attack":
            return self.attack(rest)
        if kind in COVER_WORDS:  # RNG-03: where you stand, not an action
            return {"activate": "cover", "level": cover_level(rest)}
        if kind in DEFENSES:
            return self.defense(kind, words[1:], text)
        if kind in ("defend", "desperate"):  # DEF-04
            how = rest.lower() or "dodge"
            if how not in DEFENSES:
                raise InputError("Desperate defense: defend [dodge|block|parry].")
            return {"kind": how, "desperate": True}
        if kind == "aim":  # RNG-01
            target, weapon = split_words(rest, "with")
            action = {"kind": "aim", "target": self.find(target)}
            if weapon:
                action["weapon"] = t.weapon(weapon).name
            return action
        if kind in ("reload", "nock"):  # RNG-06, ATK-07/08
            return {"kind": kind, **({"weapon": t.weapon(rest).name} if rest else {})}
        if kind == "move":  # MAN-03; toward or away from someone changes the range (RNG-05)
            return self.move(words[1:])
        if kind in ("rise", "escape"):
            if rest:
                raise InputError(f"'{kind}' takes nothing after it.")
            return {"kind": kind}
        if kind == "ready":
            if not rest:
                raise InputError("Ready which weapon? ready <weapon>")
            return {"kind": "ready", "weapon": t.weapon(rest).name}
        if kind == "other":
            if not rest:
                raise InputError("Say what: other <text>.")
            return {"kind": "other", "text": rest}
        if kind == "pass":
            return {"kind": "pass"}
        raise InputError(f"'{words[0]}' is not an action: {ACTIONS_HINT}")

    def move(self, words: list[str]) -> dict:
        """``move <yards> [toward <name> | away from <name>]``."""
        usage = "Move as: move <yards> [toward <name>|away from <name>], e.g. move 10 toward Bob."
        if not words or not words[0].isdecimal() or int(words[0]) < 1:
            raise InputError(usage)
        action: dict = {"kind": "move", "yards": int(words[0])}
        rest = [w.lower() for w in words[1:]]
        if not rest:
            return action
        if rest[0] in ("toward", "towards", "to"):
            direction, name = "toward", words[2:]
        elif rest[0] == "away":
            direction, name = "away", words[3:] if rest[1:2] == ["from"] else words[2:]
        else:
            raise InputError(usage)
        if not name:
            raise InputError(usage)
        action.update(target=self.find(" ".join(name)), direction=direction)
        return action

    def defense(self, kind: str, words: list[str], text: str) -> dict:
        """``dodge [prone|cover] [against <attacker>] [spec] [wp]`` (DEF-02, TURN-09,
        DICE-03/04)."""
        words, flags = roll_flags(words)
        action: dict = {"kind": kind, **flags}
        if kind == "dodge" and words and words[0].lower() in DODGE_HOW:
            action["how"] = DODGE_HOW[words[0].lower()]
            words = words[1:]
        if len(words) >= 2 and words[0].lower() == "against":
            action["against"] = self.find(" ".join(words[1:]))
        elif words:
            extra = " [prone|cover]" if kind == "dodge" else ""
            raise InputError(f"'{text.strip()}': {kind}{extra} [against <attacker>] "
                             f"[spec] [wp]")
        return action

    def attack(self, rest: str) -> dict:
        words, flags = roll_flags(rest.split())
        rest = " ".join(words)
        m = MOVING.search(rest)
        moving = 0
        if m is not None:  # MAN-04
            raw = m.group(1) or ""
            if not raw.isdecimal() or int(raw) < 1:
                raise InputError("Move while attacking as: attack <target> moving <yards>, "
                                 "e.g. attack Bob moving 3.")
            moving = int(raw)
            rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
        rest, ability = split_words(rest, "using")  # DICE-06: a related ability instead
        rest, position = split_words(rest, "from")
        rest, location = split_words(rest, "at")
        rest, maneuver = split_words(rest, "as")
        rest, weapon = split_words(rest, "with")
        t = tables(self.rules)
        action: dict = {"kind": "attack", "target": self.find(rest)}
        if weapon:
            action["weapon"] = t.weapon(weapon).name
        if maneuver:
            action["maneuver"] = t.maneuver(maneuver).name
        if location:
            action["location"] = t.location(location).name
        if position is not None:
            pos = position.lower()
            if pos not in ("flank", "rear", "behind", "front"):
                raise InputError("Attack from flank or rear, e.g. attack Bob from rear.")
            action["position"] = "rear" if pos == "behind" else pos
        if moving:
            action["moving"] = moving
        if ability is not None:
            if not ability:
                raise InputError("Name the ability: attack <target> using <ability>, e.g. "
                                 "attack Bob with knife as throw using throwing.")
            action["ability"] = ability
        action.update(flags)
        return action
