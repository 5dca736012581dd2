"""Text for a MUSH client: a header line, aligned columns, colour that degrades to plain.

Nothing here decides a rule; it only lays out what the engine returned.
"""

from __future__ import annotations

import re

from wodcombat.combat.spotlight import roster as spotlight_roster
from wodcombat.combat.spotlight import schema as spotlight_schema
from wodcombat.combat.core.dice import Roll
from wodcombat.combat.core.pools import PoolSpec
from wodcombat.combat.core.sheet import HARM_KINDS, Sheet
from wodcombat.world import dice_text
from wodcombat.world.text_width import WIDTH


def header(title: str, char: str = "=") -> str:
    if not title:
        return f"|b{char * WIDTH}|n"
    title = f" {title} "
    left = (WIDTH - len(title)) // 2
    return f"|b{char * left}|n|w{title}|n|b{char * (WIDTH - left - len(title))}|n"


def rule(title: str = "") -> str:
    return header(title, "-") if title else "|b" + "-" * WIDTH + "|n"


def dotted(name: str, value: int | str, width: int = 24) -> str:
    value = str(value)
    return f"{name} {'.' * max(1, width - len(name) - len(value) - 2)} {value}"


_CODE = re.compile(r"\|[a-zA-Z]|\|\[[a-zA-Z]|\|[0-5]{3}")


def pad(text: str, width: int) -> str:
    """ljust by what the player sees: colour codes such as |w take no room on screen."""
    return text + " " * max(0, width - len(_CODE.sub("", text)))


def columns(cols: list[list[str]], width: int = 26) -> list[str]:
    rows = max((len(c) for c in cols), default=0)
    out = []
    for i in range(rows):
        cells = [(c[i] if i < len(c) else "") for c in cols]
        out.append(" " + "".join(pad(cell, width) for cell in cells).rstrip())
    return out


def health_line(track) -> str:
    boxes = "".join(f"[{b}]" for b in track.boxes())
    penalty = track.penalty
    state = track.level_name
    if track.incapacitated:
        state = "|rIncapacitated|n"
    elif penalty:
        state += f" ({penalty:+d} dice)"
    return f" {boxes}  {state}"


def hp_line(hp_max: int, superficial: int, aggravated: int) -> str:
    """SPOT-13's track: a box per HP, Aggravated (X) first, then Superficial (/)."""
    boxes = "[X]" * aggravated + "[/]" * superficial + "[ ]" * (hp_max - aggravated
                                                             - superficial)
    harm = [f"{n} {k}" for n, k in ((aggravated, "aggravated"), (superficial, "superficial"))
            if n]
    state = f"HP {hp_max - aggravated - superficial}/{hp_max}"
    return f" {boxes}  {state}" + (f" ({', '.join(harm)})" if harm else "")


def sheet_text(name: str, sheet: Sheet, ruleset) -> str:
    cat = ruleset.traits
    splat = cat.splats.get(sheet.splat, {}).get("label", sheet.splat.title())
    ident = [f"Splat: |w{splat}|n"]
    if sheet.race:
        ident.append(f"Race: |w{sheet.race}|n")
    if sheet.breed:
        ident.append(f"Breed: |w{sheet.breed}|n")
    if sheet.form:
        ident.append(f"Form: |w{sheet.form}|n")
    if cat.splats.get(sheet.splat, {}).get("uses_generation") == "yes":
        ident.append(f"Generation: |w{sheet.generation}|n")
    ident.append("Approved" if sheet.approved else "|yUnapproved|n")
    lines = [header(f"Sheet: {name}"), " " + "   ".join(ident)]

    def col(category: str, show_zero: bool = True) -> list[str]:
        names = cat.categories.get(category, ())
        out = [f"|w{cat.labels.get(category, category)}|n"]
        for n in names:
            value = sheet.rating(cat, n)
            if value or show_zero:
                spec = "*" if sheet.has_specialty(n) else ""
                out.append(dotted(n + spec, value))
        return out

    kinds = {c: cat.traits[names[0]].kind for c, names in cat.categories.items() if names}
    attrs = [c for c, k in kinds.items() if k == "attribute"]
    abilities = [c for c, k in kinds.items() if k == "ability"]
    lines.append(rule("Attributes"))
    lines += columns([col(c) for c in attrs])
    lines.append(rule("Abilities"))
    main, extra = abilities[:3], abilities[3:]
    lines += columns([col(c) for c in main])
    others = [c for c, k in kinds.items() if k not in ("attribute", "ability")] + extra
    for c in others:
        rated = [f"{n} {sheet.rating(cat, n)}" for n in cat.categories[c] if sheet.rating(cat, n)]
        if rated:
            lines.append(f" |w{cat.labels.get(c, c)}:|n " + ", ".join(rated))
    if sheet.specialties:
        specs = ", ".join(f"{k} ({v})" for k, v in sorted(sheet.specialties.items()))
        lines.append(f" |wSpecialties:|n {specs}")
    lines.append(rule("Pools"))
    pools = []
    for pname, pool in sheet.pools.items():
        d = cat.pools.get(pname)
        pools.append(
            f"{pname} {pool.current}/{pool.permanent}"
            if d and d.has_permanent
            else f"{pname} {pool.current}"
        )
    lines.append(" " + ("   ".join(pools) or "none"))
    lines.append(rule("Health"))
    in_hp = spotlight_schema.engine_of(ruleset) == "spotlight"  # SPOT-13: HP and Harm, no d10 track
    if in_hp:
        lines.append(hp_line(*spotlight_roster.sheet_health(sheet, ruleset)))
    else:
        lines.append(health_line(sheet.track(ruleset.section("health"))))
    if sheet.fate:  # HLT-03..05: kept after the fight until staff undo it
        lines.append(f" |r{sheet.fate_text.upper()}|n: cannot roll or join a fight "
                     f"(staff: +sheet/revive)")
    if sheet.harm and not in_hp:  # spotlight Harm carried between fights (issue 10)
        lines.append(" Harm (spotlight): " + ", ".join(
            f"{sheet.harm[k]} {k}" for k in HARM_KINDS if sheet.harm.get(k)))
    if sheet.weapons or sheet.armor:
        lines.append(rule("Equipment"))
        if sheet.weapons:
            lines.append(" Weapons: " + ", ".join(sheet.weapons))
        if sheet.armor:
            lines.append(" Armor: " + sheet.armor)
    lines.append(header("", "="))
    return "\n".join(lines)


def v5_roll_text(who: str, spec: PoolSpec, roll, difficulty: int, won: bool,
                 note: str = "") -> str:
    """'Alice rolls Dexterity 3 + Brawl 2 = 5 dice, 1 needed: [8 6] Hunger [10 1 4] =>
    4 successes, messy critical' (V5 dice, issue 10: the Hunger dice apart)."""
    mods = "".join(f", {m}" for m in spec.modifiers)
    extra = f" ({note})" if note else ""
    return (
        f"|c{who}|n rolls {spec.describe_terms()}{mods} = |w{roll.pool}|n "
        f"{'die' if roll.pool == 1 else 'dice'}, |w{difficulty}|n needed{extra}: "
        f"{dice_text.v5_faces_text(roll.faces, roll.hunger)} => "
        f"{dice_text.v5_outcome_text(roll.successes, roll.result(won))}"
    )


def faces_text(roll: Roll) -> str:
    return dice_text.faces_text(roll.faces, roll.difficulty)


def outcome_text(roll: Roll) -> str:
    return dice_text.outcome_text(roll.successes, roll.botch)


def roll_text(who: str, spec: PoolSpec, roll: Roll) -> str:
    """'Alice rolls Dexterity 3 + Brawl 2, wounds (Hurt) -1 = 4 dice vs 7: [..] => 1 success'"""
    mods = "".join(f", {m}" for m in spec.modifiers)
    extras = []
    if roll.specialty:
        extras.append("specialty: 10s count twice")
    if roll.willpower:
        extras.append("Willpower: +1 success")
    if spec.difficulty != roll.difficulty:
        extras.append(f"difficulty {spec.difficulty} rolled at {roll.difficulty}")
    extra = f" ({'; '.join(extras)})" if extras else ""
    return (
        f"|c{who}|n rolls {spec.describe_terms()}{mods} = |w{roll.pool}|n "
        f"{'die' if roll.pool == 1 else 'dice'} vs |w{roll.difficulty}|n{extra}: "
        f"[{faces_text(roll)}] => {outcome_text(roll)}"
    )
