"""Combat flags the Storyteller sets (INIT-05): a season or scene fact, such as ``winter``
for the Gurahl, that the ruleset's initiative modifiers name. Set by staff with
``+combat/flag``; read at the next initiative roll."""

from __future__ import annotations

from . import scheduler as sch
from ..core.errors import InputError
from .fight import Fight


def known(f: Fight) -> list[str]:
    rows = sch.turn_rules(f.rules).race_mods
    return sorted({str(r["flag"]).lower() for r in rows if r.get("flag")})


def set_flag(f: Fight, flag: str, remove: bool) -> None:
    flag = flag.strip().lower()
    names = known(f)
    if not names:
        raise InputError(f"'{flag}' is not a combat flag here: {f.rules.name} has no combat "
                         f"flags (no initiative modifier depends on a season or scene).")
    if flag not in names:
        raise InputError(f"'{flag}' is not a combat flag here (flags: {', '.join(names)}), "
                         f"e.g. +combat/flag {names[0]}, +combat/flag !{names[0]}.")
    now = set(f.state.options.flags)
    now = now - {flag} if remove else now | {flag}
    f.run(sch.set_options(f.state, f.rules, flags=now))
    f.emit("flag", flag=flag, on=not remove, by=f.by)
