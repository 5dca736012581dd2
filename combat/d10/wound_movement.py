"""HLT-07, wounds slow a character: the ``wound_movement`` table (what each health level's
``move`` word means: a share of the pace, or no faster than a pace; a level's
``move_yards`` caps it whatever the word) and the yards a character may move this turn at
a pace or while acting (MAN-04: half the run, at a die a yard).
"""

from __future__ import annotations

from dataclasses import dataclass

from .damage_tables import require_section, track_of
from ..core.errors import IllegalAction, InputError
from ..core.maneuvers import movement_yards, tables
from ..rules.schema import Bool, Int, MapOf, Str, Struct
from ..core.sheet import Sheet

from .powers import _key


WOUND_MOVEMENT_SCHEMA = Struct(
    optional={
        "source": Str(),
        "enabled": Bool(),
        "moves": MapOf(Struct(optional={"percent": Int(0, 100), "max_pace": Str()})),
    },
    defaults={"enabled": True, "moves": {}},  # HLT-07: wounds slow a character
)


ACTING = "acting"  # movement_limit mode: moving while performing another action (MAN-04)


@dataclass(frozen=True, slots=True)
class MoveLimit:
    rule: str
    mode: str  # walk, jog, run or acting
    wanted: int
    yards: int  # the most this character may move this turn at this mode
    pace_yards: int  # what the pace alone allows (MAN-03 / MAN-04)
    level: str  # wound level name ("Healthy" when unhurt)
    wound_move: str  # the level's move word ("full", "walk", ...)
    dice: int  # dice change on the action when moving while acting (MAN-04), else 0


def movement_limit(
    sheet: Sheet, ruleset, wanted_yards: int, mode: str, *, all_fours: bool = False
) -> MoveLimit:
    """HLT-07: may ``sheet`` move ``wanted_yards`` this turn at ``mode`` (walk, jog, run, or
    ``acting``: moving while doing something else, MAN-04)? The pace gives the yards (MAN-03,
    form included); the wound level limits them (Injured half speed, Wounded walk, Mauled 3,
    Crippled 1, Incapacitated 0). Moving farther is refused saying the limit."""
    if isinstance(wanted_yards, bool) or not isinstance(wanted_yards, int) or wanted_yards < 0:
        raise InputError(f"Move how far? '{wanted_yards}' is not a number of yards (0 or more).")
    t = tables(ruleset)
    mode = _key(mode)
    wa = t.movement["while_acting"]
    if mode == ACTING:
        run = movement_yards(ruleset, sheet, "run", all_fours)
        pace_yards = run * wa["max_percent_of_run"] // 100
        pace_for_wounds = pace_yards
    else:
        if mode not in t.movement["paces"]:
            raise InputError(
                f"'{mode}' is not a way to move. Use one of: "
                f"{', '.join((*t.movement['paces'], ACTING))}."
            )
        pace_yards = pace_for_wounds = movement_yards(ruleset, sheet, mode, all_fours)

    track = track_of(sheet, ruleset)
    lv = track.level
    level = track.level_name
    wm = ruleset.section("wound_movement") or WOUND_MOVEMENT_SCHEMA.fill({})
    yards, move, why = pace_yards, "full", ""
    if lv is not None and wm["enabled"]:
        raw = require_section(ruleset, "health")["levels"][track.damage - 1]
        move = raw["move"]
        cap = raw.get("move_yards")
        row = wm["moves"].get(move) or {}  # a move the table does not name: no limit
        if cap is not None:
            yards = min(pace_for_wounds, cap)
            why = f"{level}: {move}, at most {cap} yards a turn" if cap else f"{level}: {move}"
        elif "percent" in row:
            yards = pace_for_wounds * row["percent"] // 100
            why = f"{level}: {move}, at most {yards} yards at this pace"
        elif "max_pace" in row:
            slow = movement_yards(ruleset, sheet, row["max_pace"], all_fours)
            yards = min(pace_for_wounds, slow)
            why = f"{level}: you can only {row['max_pace']}, at most {yards} yards a turn"
    if wanted_yards > yards:
        if why:
            if yards == 0:
                raise IllegalAction(f"You cannot move ({why}).")
            raise IllegalAction(
                f"Too far: {why}; you asked for {wanted_yards}. Move {yards} or less."
            )
        what = "while acting (half your run)" if mode == ACTING else f"at a {mode}"
        raise IllegalAction(
            f"Too far: you move at most {pace_yards} yards {what}; you asked "
            f"for {wanted_yards}. Move {pace_yards} or less, or faster."
        )
    dice = wa["dice_per_yard"] * wanted_yards if mode == ACTING else 0
    return MoveLimit("HLT-07", mode, wanted_yards, yards, pace_yards, level, move, dice)


def check_wound_movement(ruleset) -> list[tuple[str, str]]:
    """HLT-07: the moves the health levels name and the paces the moves name exist (only
    where the ruleset has the table)."""
    out: list[tuple[str, str]] = []
    wm = ruleset.section("wound_movement") or WOUND_MOVEMENT_SCHEMA.fill({"enabled": False})
    moves = wm["moves"]
    paces = (ruleset.section("movement") or {}).get("paces") or {}
    for name, row in moves.items():
        if row.get("max_pace") and row["max_pace"] not in paces:
            out.append((f"wound_movement.moves.{name}.max_pace", "is not a movement pace"))
    if wm["enabled"]:  # the schema's default, as move_limit plays it
        for i, lv in enumerate((ruleset.section("health") or {}).get("levels") or ()):
            if lv.get("move_yards") is None and lv["move"] not in moves:
                out.append(
                    (f"health.levels[{i}].move", f"'{lv.get('move')}' is not in wound_movement")
                )
    return out
