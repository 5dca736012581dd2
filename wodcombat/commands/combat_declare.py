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

from wodcombat.combat.core.errors import InputError
from wodcombat.combat.core.health import damage_type
from wodcombat.combat.core.maneuver_schemas import COVER
from wodcombat.combat.core.maneuvers import tables
from wodcombat.combat.core.player_text import did_you_mean

DEFENSES = ("dodge", "block", "parry")
# RNG-03: everyman calls cover Concealment (same values); both words are accepted.
COVER_WORDS = ("cover", "concealment")
# MAN-04: "attack Bob moving 3" (an optional "yards"/"yd" after the number).
MOVING = re.compile(r"(?:^|\s)moving(?:\s+(\S+))?(?:\s+(?:yards?|yds?)\b)?", re.IGNORECASE)
# RNG-09: "attack Bob with pistol off hand" (also "in the off hand", "offhand").
OFF_HAND = re.compile(r"(?:^|\s)(?:in\s+(?:the\s+|my\s+)?)?off[\s-]?hand\b", re.IGNORECASE)
# DEF-02: dodging gunfire means diving into cover or dropping prone.
DODGE_HOW = {"prone": "prone", "cover": "cover"}
# CLOSE-12: what a botched tackle does to the attacker, chosen when declaring.
ON_BOTCH = re.compile(r"(?:^|\s)on\s+botch(?:\s+(\S+))?", re.IGNORECASE)
BOTCH_CHOICE = {"hurt": "hurt", "damage": "hurt", "down": "down", "fall": "down"}
# CLOSE-06: "using <ammunition>"; CLOSE-01: "draining", "severing".
USING = re.compile(r"(?:^|\s)using(?:\s+(\S+))?", re.IGNORECASE)
FLAGS = {"draining": "drain", "drain": "drain", "severing": "sever", "sever": "sever"}
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

ACTIONS_HINT = ("attack <target>, dodge, block, parry, defend, aim, reload, nock, prepare "
                "<n> arrows, repair, move, rise, escape, ready, celerity, rage <n>, spend "
                "<pool> <n>, cover <level>, heal ..., regenerate, ignore wounds, pass or other "
                "<text> (also magic, time, blindfight, resist). See help +combat/declare.")
# Every word an action may start with (DeclarationParser.action's branches): what a typo
# is matched against for its "Did you mean" (issue 28: "attak Thug" got only the list).
ACTION_WORDS = ("attack", "ambush", "magic", "time", "blindfight", "blind", "shake",
                *COVER_WORDS, *DEFENSES, "defend", "desperate", "aim", "reload", "nock",
                "repair", "prepare", "move", "rise", "escape", "resist", "ready", "heal",
                "regenerate", "stay", "ignore", "other", "pass", "extra", "celerity", "rage",
                "spend", "effect")


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

    def action(self, text: str) -> dict:
        """One action of a declaration (or an activation, outside the turn's actions), by
        its first word."""
        words = text.strip().split()
        kind = words[0].lower()
        rest = " ".join(words[1:])
        if kind in ("extra", "celerity", "rage") and len(words) > 1 and not (
                kind == "rage" and rest.isdecimal()):
            return self.extra(kind, rest)
        if kind == "extra":  # alone: the word of an action is missing after it
            raise InputError("'extra' goes before an action: extra attack Bob.")
        step = self.STEPS.get(kind)
        if step is None:
            raise InputError(f"'{words[0]}' is not an action.{did_you_mean(kind, ACTION_WORDS)} "
                             f"Actions: {ACTIONS_HINT}")
        return step(self, kind, words, text)

    def extra(self, kind: str, rest: str) -> dict:
        """MAN-06: an extra action from Celerity or Rage, outside the split penalty."""
        inner = self.action(rest)
        if "activate" in inner or inner["kind"] == "pass":
            raise InputError("'extra' goes before an action: extra attack Bob.")
        inner["extra"] = kind  # "extra": the engine picks the source after activations
        return inner

    def powers(self, kind: str, words: list[str], text: str) -> dict:
        """Celerity, Rage, a pool, an effect or a time power: activations, not actions."""
        rest = " ".join(words[1:])
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
        # MAN-09: time <power> <successes or points>
        if len(words) < 3 or not words[-1].isdecimal():
            raise InputError("Use a time power as: time <power> <successes>, e.g. time "
                             "distort time 4.")
        return {"activate": "time", "power": " ".join(words[1:-1]), "amount": int(words[-1])}

    def reflexes(self, kind: str, words: list[str], text: str) -> dict:
        """Blind fighting, shaking off a daze, taking cover: not actions of the turn."""
        if kind in ("blindfight", "blind"):  # COMP-01 / MAN-12: a reflex roll
            use = words[-1].lower() if len(words) > 1 else ""
            if use not in ("penalty", "bonus"):
                raise InputError("Blind Fighting as: blindfight penalty (your own penalty) or "
                                 "blindfight bonus (the bonus to attack you).")
            return {"activate": "blindfight", "use": use}
        if kind == "shake":  # COMP-02 (everyman): a point ignores the daze
            if len(words) != 2:
                raise InputError("Shake off a daze as: shake <pool>, e.g. shake blood.")
            return {"activate": "shake", "pool": words[1]}
        # RNG-03: cover is where you stand
        return {"activate": "cover", "level": cover_level(" ".join(words[1:]))}

    def offense(self, kind: str, words: list[str], text: str) -> dict:
        """An attack, an ambush or a damaging power."""
        if kind == "attack":
            return self.attack(" ".join(words[1:]))
        if kind == "ambush":  # MAN-01: sprung at once, not an action of the turn
            a = self.attack(" ".join(words[1:]))
            a.pop("kind")
            return {"activate": "ambush", **a}
        return self.magic(words[1:])  # DEF-05

    def defend(self, kind: str, words: list[str], text: str) -> dict:
        """A dodge, block or parry, or a desperate defense (DEF-04)."""
        if kind in DEFENSES:
            return self.defense(kind, words[1:], text)
        how = " ".join(words[1:]).lower() or "dodge"
        if how not in DEFENSES:
            raise InputError("Desperate defense: defend [dodge|block|parry].")
        return {"kind": how, "desperate": True}

    def gear(self, kind: str, words: list[str], text: str) -> dict:
        """Aiming, loading, readying or mending a weapon (RNG-01/06, ATK-07/08, CLOSE-06)."""
        rest, t = " ".join(words[1:]), tables(self.rules)
        if kind == "aim":  # RNG-01
            target, weapon = split_words(rest, "with")
            if not target.strip():
                raise InputError("Aim at whom? aim <target> [with <weapon>], e.g. aim Thug.")
            action = {"kind": "aim", "target": self.find(target)}
            if weapon:
                action["weapon"] = t.weapon(weapon).name
            return action
        if kind == "reload":  # RNG-06, ATK-08; CLOSE-06 "reload [<gun>] with rubber"
            rest, ammo = split_words(f" {rest}", "with")
            rest = rest.strip()
            action = {"kind": kind, **({"weapon": t.weapon(rest).name} if rest else {})}
            if ammo is not None:
                if not ammo:
                    raise InputError("Reload with what? reload [<gun>] with <ammunition>.")
                action["ammo"] = ammo.lower()
            return action
        if kind == "ready":
            if not rest:
                raise InputError("Ready which weapon? ready <weapon>")
            return {"kind": "ready", "weapon": t.weapon(rest).name}
        if kind == "prepare":  # RNG-06: "prepare 5 arrows [for <bow>]"
            return self.prepare(words[1:])
        # ATK-07: nock an arrow, repair a snapped bowstring
        return {"kind": kind, **({"weapon": t.weapon(rest).name} if rest else {})}

    def healing(self, kind: str, words: list[str], text: str) -> dict:
        """Healing, and the Rage or Willpower spent against wounds (HEAL-01..09, HLT-04/08)."""
        rest = " ".join(words[1:])
        if kind == "heal":
            return self.heal(words[1:])
        if kind == "regenerate":  # HEAL-03
            return {"kind": "heal", "how": "regenerate", **self.heal_type(words[1:], text)}
        if kind == "stay":  # HLT-04: spend Rage to stay active past Incapacitated
            if rest.lower() not in ("active", "up", "off"):
                raise InputError("Stay up on Rage past Incapacitated: stay active "
                                 "(stay off takes it back).")
            return {"kind": "heal", "how": "stay", **({"off": True} if rest.lower() == "off"
                                                       else {})}
        if rest.lower() != "wounds":  # HLT-08: ignore wounds
            raise InputError("Spend Willpower to ignore wound penalties: ignore wounds.")
        return {"kind": "heal", "how": "wounds"}

    def moves(self, kind: str, words: list[str], text: str) -> dict:
        """Moving, rising, escaping or resisting, something else, or nothing."""
        rest = " ".join(words[1:])
        if kind == "move":  # MAN-03; toward or away from someone changes the range (RNG-05)
            return self.move(words[1:])
        if kind in ("rise", "escape", "resist"):
            if rest:
                raise InputError(f"'{kind}' takes nothing after it.")
            return {"kind": kind}
        if kind == "other":
            if not rest:
                raise InputError("Say what: other <text>.")
            return {"kind": "other", "text": rest}
        return {"kind": "pass"}

    HEAL_USAGE = ("Heal as: heal blood <n> [bashing|lethal], heal aggravated [<n>], "
                  "regenerate, heal rage, heal limb <part>, heal life <n> <type> [on <name>], "
                  "heal roll, heal faith [<type>]. See help +combat/declare.")

    def heal_type(self, words: list[str], text: str) -> dict:
        if not words:
            return {}
        if len(words) > 1:
            raise InputError(f"'{text.strip()}': name one damage type. " + self.HEAL_USAGE)
        return {"type": damage_type(words[0])}

    def heal(self, words: list[str]) -> dict:
        """``heal <how> ...``: the engine decides whether it is reflexive or the action."""
        if not words:
            raise InputError(self.HEAL_USAGE)
        how, rest = words[0].lower(), words[1:]
        text = " ".join(words)
        if how in ("agg", "aggravated"):
            how = "aggravated"
        if how in ("blood", "aggravated", "life"):
            if how == "aggravated" and not rest:
                rest = ["1"]
            if not rest or not rest[0].isdecimal() or int(rest[0]) < 1:
                raise InputError(f"Heal how many levels? e.g. heal {how} 1. " + self.HEAL_USAGE)
            out: dict = {"kind": "heal", "how": how, "levels": int(rest[0])}
            rest = rest[1:]
            if how == "life" and rest:
                before, target = split_words(" ".join(rest), "on")
                if target is not None:
                    if not target:
                        raise InputError("Heal whom? heal life 2 lethal on Bob.")
                    out["target"] = self.find(target)
                rest = before.split()
            out.update(self.heal_type(rest, text))
            return out
        if how in ("rage", "roll", "faith", "regenerate"):
            if how == "rage" and rest:
                raise InputError("'heal rage' takes nothing after it.")
            return {"kind": "heal", "how": how, **self.heal_type(rest, text)}
        if how == "limb":
            if not rest:
                raise InputError("Regrow which part? heal limb <part> [age <years>], e.g. "
                                 "heal limb finger.")
            out = {"kind": "heal", "how": "limb", "part": rest[0].lower()}
            if len(rest) == 3 and rest[1].lower() == "age" and rest[2].isdecimal():
                out["age"] = int(rest[2])
            elif len(rest) != 1:
                raise InputError("heal limb <part> [age <years>], e.g. heal limb eye age 200.")
            return out
        raise InputError(f"'{words[0]}' is not a way to heal. " + self.HEAL_USAGE)

    def prepare(self, words: list[str]) -> dict:
        """``prepare <n> [arrows] [for <bow>]`` (RNG-06)."""
        usage = "Prepare arrows as: prepare <n> arrows [for <bow>], e.g. prepare 3 arrows."
        if not words or not words[0].isdecimal() or int(words[0]) < 1:
            raise InputError(usage)
        rest = " ".join(w for w in words[1:2] if w.lower() not in ("arrow", "arrows"))
        rest = (rest + " " + " ".join(words[2:])).strip()
        action: dict = {"kind": "prepare", "arrows": int(words[0])}
        if rest:
            if not rest.lower().startswith("for "):
                raise InputError(usage)
            action["weapon"] = tables(self.rules).weapon(rest[4:].strip()).name
        return action

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

    def magic(self, words: list[str]) -> dict:
        """``magic <target> roll <traits|dice> damage <n> [bashing|lethal|aggravated]
        [diff <n>] [lockon] [area]``: a damaging power, defended like an attack (DEF-05)."""
        usage = ("Use a damaging power as: magic <target> roll <traits or dice> damage <n> "
                 "[bashing|lethal|aggravated] [diff <n>] [lockon] [area], e.g. magic Bob "
                 "roll arete damage 4 aggravated.")
        low = [w.lower() for w in words]
        if "roll" not in low or "damage" not in low or low.index("roll") < 1:
            raise InputError(usage)
        r, d = low.index("roll"), low.index("damage")
        target = self.find(" ".join(words[:r]))
        roll = [w for w in " ".join(words[r + 1:d]).replace("+", " ").split()]
        tail = low[d + 1:]
        if not roll or not tail or not tail[0].isdecimal() or int(tail[0]) < 1:
            raise InputError(usage)
        spec: dict = {"roll": roll, "damage": int(tail[0])}
        i = 1
        while i < len(tail):
            w = tail[i]
            if w in ("bashing", "lethal", "aggravated"):
                spec["type"] = w
            elif w in ("lockon", "lock-on"):
                spec["lock_on"] = True
            elif w == "area":
                spec["area"] = True
            elif w in ("diff", "difficulty") and i + 1 < len(tail) and tail[i + 1].isdecimal():
                spec["difficulty"] = int(tail[i + 1])
                i += 1
            else:
                raise InputError(usage)
            i += 1
        return {"kind": "attack", "target": target, "magic": spec}

    def attack(self, rest: str) -> dict:
        words, flags = roll_flags(rest.split())  # DICE-03/04: trailing spec / wp
        rest = " ".join(words)
        off = OFF_HAND.search(rest)
        if off is not None:  # RNG-09
            rest = (rest[:off.start()] + " " + rest[off.end():]).strip()
        m = ON_BOTCH.search(rest)
        if m is not None:  # CLOSE-12
            choice = BOTCH_CHOICE.get((m.group(1) or "").lower())
            if choice is None:
                raise InputError("Choose what a botched tackle does to you: on botch hurt "
                                 "(take the target's Stamina in damage) or on botch down.")
            flags["on_botch"] = choice
            rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
        m = USING.search(rest)
        if m is not None and (m.group(1) or "").lower() in tables(self.rules).ammo:
            flags["ammo"] = m.group(1).lower()  # CLOSE-06: using rubber, using silver ...
            rest = (rest[:m.start()] + " " + rest[m.end():]).strip()
        words = rest.split()
        for w in list(words):
            if w.lower() in FLAGS:  # CLOSE-01
                flags[FLAGS[w.lower()]] = True
                words.remove(w)
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
        action: dict = {"kind": "attack", **self.targets(rest)}
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
        if off is not None:
            action["off_hand"] = True
        if ability is not None:
            if not ability or ability.lower() not in {
                    n.lower() for n in self.rules.traits.traits}:
                kinds = ", ".join(tables(self.rules).ammo) or "none"
                raise InputError(f"Load as: using <ammunition> ({kinds}), or roll another "
                                 f"ability: using <ability>, e.g. attack Bob with knife as "
                                 f"throw using throwing.")
            action["ability"] = ability
        action.update(flags)
        return action

    def targets(self, text: str) -> dict:
        """One target, or several for a strafe (RNG-07): ``Bob and Ann``, ``Bob, Ann``."""
        if not text.strip():
            raise InputError("Attack whom? Name a target: attack <target> [with <weapon>], "
                             "e.g. attack Thug.")
        try:
            return {"target": self.find(text)}
        except InputError:
            names = [n.strip() for n in re.split(r",|\s+and\s+", text) if n.strip()]
            if len(names) < 2:
                raise
        keys = [self.find(n) for n in names]
        if len(set(keys)) < len(keys):
            raise InputError("Name each target once: attack Bob and Ann with <gun> as strafe.")
        return {"target": keys[0], "targets": keys}

    # The first word of an action -> the step that reads the rest.
    STEPS: dict[str, Callable] = {
        **dict.fromkeys(("celerity", "rage", "spend", "effect", "time"), powers),
        **dict.fromkeys(("blindfight", "blind", "shake", *COVER_WORDS), reflexes),
        **dict.fromkeys(("attack", "ambush", "magic"), offense),
        **dict.fromkeys((*DEFENSES, "defend", "desperate"), defend),
        **dict.fromkeys(("aim", "reload", "nock", "repair", "ready", "prepare"), gear),
        **dict.fromkeys(("heal", "regenerate", "stay", "ignore"), healing),
        **dict.fromkeys(("move", "rise", "escape", "resist", "other", "pass"), moves),
    }
