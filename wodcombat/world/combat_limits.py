"""How big a fight may grow (issue 30): each limit is a setting (server/conf/settings.py).

Every path that adds a combatant asks here before anything is made, so no caller (a
command, the web page, a script) can go past them: a fight of 300 NPCs made with one line
blocked the server for everyone for ten seconds. A refusal names the limit and what to do
instead, and changes nothing.
"""

from __future__ import annotations

from wodcombat import conf

from wodcombat.combat.core.errors import IllegalAction

from .combat_text import is_npc


def npcs_per_command() -> int:
    return conf.get("WODCOMBAT_MAX_NPCS_PER_COMMAND")


def npcs_per_fight() -> int:
    return conf.get("WODCOMBAT_MAX_NPCS_PER_FIGHT")


def combatants_per_fight() -> int:
    return conf.get("WODCOMBAT_MAX_COMBATANTS")


def check_batch(count: int) -> None:
    """``count`` NPCs asked for with one command."""
    cap = npcs_per_command()
    if count > cap:
        raise IllegalAction(f"At most {cap} NPCs are made at once ({count} named); make the "
                            f"rest with another +combat/npc.")


def check_room(state, npcs: int = 0, others: int = 0) -> None:
    """``npcs`` NPCs and ``others`` (players) more in the fight ``state`` would stay within
    the fight's caps."""
    here = state.combatants
    cap = combatants_per_fight()
    if len(here) + npcs + others > cap:
        left = max(cap - len(here), 0)
        raise IllegalAction(f"A fight holds at most {cap} combatants and this one has "
                            f"{len(here)} ({left} more can join); +combat/kick someone "
                            f"first.")
    if npcs:
        cap = npcs_per_fight()
        have = sum(1 for c in here if is_npc(c))
        if have + npcs > cap:
            left = max(cap - have, 0)
            raise IllegalAction(f"A fight holds at most {cap} NPCs and this one has {have} "
                                f"({left} more can join); +combat/kick some first.")


def check_join(state, intent) -> None:
    """A ``Join`` intent about to be applied; one already in the fight is the engine's to
    refuse (a full fight does not hide that answer)."""
    if state.get(intent.actor) is not None:
        return
    if intent.is_npc:
        check_room(state, npcs=1)
    else:
        check_room(state, others=1)
