"""``+roll`` expressions: ``dex+brawl vs 7``, ``6 vs 8``, ``wits+3``, ``str+melee-1``.

Parsing is separate from evaluation: a parsed expression names traits as typed; evaluation
against a sheet resolves them (with suggestions for typos) and adds the wound penalty to
action rolls (HLT-06).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InputError
from .pools import Modifier, PoolSpec

USAGE = "Type it as: +roll dex+brawl vs 7   or   +roll 6 vs 8   or   +roll wits+3"
_VS = re.compile(r"\s+(?:vs\.?|versus|diff(?:iculty)?|@)\s*", re.I)
_TERM = re.compile(r"^[a-z][a-z' .\-]*[a-z]$|^[a-z]$|^\d+$", re.I)


@dataclass(frozen=True, slots=True)
class Expression:
    terms: tuple[tuple[int, str], ...]  # (+1|-1, "dex" | "3")
    difficulty: int | None


def parse(text: str) -> Expression:
    text = (text or "").strip()
    if not text:
        raise InputError(f"Roll what? {USAGE}")
    if len(text) > 200:
        raise InputError(f"That roll is too long to read. {USAGE}")
    parts = _VS.split(text, maxsplit=1)
    body = parts[0].strip()
    difficulty = None
    if len(parts) == 2:
        diff_text = parts[1].strip()
        if not diff_text:
            raise InputError(f"Give a difficulty after 'vs'. {USAGE}")
        # isdecimal, not isdigit: '²' and '①' are "digits" that int() refuses.
        if not diff_text.isdecimal():
            raise InputError(f"The difficulty must be a number, not '{diff_text}'. {USAGE}")
        difficulty = int(diff_text)
    elif re.search(r"\bvs\b", text, re.I):
        raise InputError(f"Give a difficulty after 'vs'. {USAGE}")
    terms: list[tuple[int, str]] = []
    sign = 1
    for token in re.split(r"\s*([+-])\s*", body):
        if token in ("+", "-"):
            if terms and terms[-1] is None:
                raise InputError(f"Two signs in a row in '{text}'. {USAGE}")
            sign = 1 if token == "+" else -1
            terms.append(None)  # placeholder: a term must follow
            continue
        token = token.strip()
        if not token:
            if not terms:
                continue  # a leading sign
            raise InputError(f"Something is missing after a sign in '{text}'. {USAGE}")
        if not _TERM.match(token):
            raise InputError(f"'{token}' is not a trait or a number. {USAGE}")
        if terms and terms[-1] is None:
            terms.pop()
        elif terms:
            raise InputError(f"Join traits with + or -: '{text}'. {USAGE}")
        terms.append((sign, token))
        sign = 1
    if not terms or terms[-1] is None:
        raise InputError(f"'{text}' ends with a sign; add a trait or a number. {USAGE}")
    return Expression(tuple(terms), difficulty)


def evaluate(
    expr: Expression, sheet, ruleset, *, action: bool = True, ignore_wounds: bool = False
) -> PoolSpec:
    """Resolve trait names on ``sheet`` and attach the modifiers the rules add."""
    catalog = ruleset.traits
    rules = ruleset.dice
    out: list[tuple[str, int]] = []
    for sign, token in expr.terms:
        if token.isdecimal():
            value = int(token)
            if value > rules.max_pool:
                raise InputError(
                    f"{value} dice is more than this game allows ({rules.max_pool}). {USAGE}"
                )
            out.append((str(value), sign * value))
        else:
            name = catalog.resolve(token)
            out.append((name, sign * sheet.rating(catalog, name)))
    difficulty = rules.base_difficulty if expr.difficulty is None else expr.difficulty
    if not rules.min_difficulty <= difficulty <= rules.max_difficulty:
        raise InputError(
            f"Difficulty goes from {rules.min_difficulty} to "
            f"{rules.max_difficulty}; {difficulty} is outside that. {USAGE}"
        )
    mods: list[Modifier] = []
    if action and not ignore_wounds:
        # HLT-06: wounds cost dice on action pools, never on reflexes or damage.
        track = sheet.track(ruleset.section("health"))
        if track.penalty:
            mods.append(Modifier(f"wounds ({track.level_name})", dice=track.penalty))
    spec = PoolSpec(tuple(out), (), difficulty).plus(*mods)
    if spec.base > rules.max_pool:
        raise InputError(
            f"A pool of {spec.base} dice is more than this game allows ({rules.max_pool})."
        )
    return spec
