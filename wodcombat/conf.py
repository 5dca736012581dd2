"""Every setting the combat system reads: its name, its default, and the one function that
reads it. A host game sets none of them to run (README, "Add it to your game"); each one it
sets is checked here, and a wrong value raises ``SettingError`` naming the setting and what
to write instead (Evennia shows it in the server log at start and at the command that read
it). The numbers of the rules themselves live in the rules YAML, never here.
"""

from __future__ import annotations

import os

from django.conf import settings

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

#: name -> default. Numbers are the limits a player may not go past (issue 30), the idle
#: timeout a fight starts with (seconds; 0 is none) and the clock's tick (seconds).
DEFAULTS = {
    # the rules folder (the YAML shipped in the package) and the ruleset a fight starts with
    "WODCOMBAT_RULES_DIR": os.path.join(PACKAGE_DIR, "rules"),
    "WODCOMBAT_DEFAULT_RULESET": "numetal",
    # each fight's JSONL export: <dir>/<combat id>.jsonl; None: <game>/server/logs/combat
    "WODCOMBAT_LOG_DIR": None,
    "WODCOMBAT_DEFAULT_TIMEOUT": 300,
    "WODCOMBAT_TIMER_TICK": 2,
    "WODCOMBAT_MAX_NPCS_PER_COMMAND": 20,
    "WODCOMBAT_MAX_NPCS_PER_FIGHT": 100,
    "WODCOMBAT_MAX_COMBATANTS": 120,
    "WODCOMBAT_ODDS_QUEUE": 20,
    "WODCOMBAT_MAX_OUTPUT": 16000,
    # where a character's sheet lives (typeclasses/sheets.py) and what +combat/npc creates
    "WODCOMBAT_SHEET_ADAPTER": "wodcombat.typeclasses.sheets.AttributeSheet",
    "WODCOMBAT_NPC_TYPECLASS": "wodcombat.typeclasses.characters.WodCombatNPC",
    # the commands the cmdset adds, by their key: a new key renames it, None leaves it out
    "WODCOMBAT_COMMAND_KEYS": {},
}

_INTS = {name for name, value in DEFAULTS.items() if isinstance(value, int)}


class SettingError(ValueError):
    """A WODCOMBAT_* setting holds what the combat system cannot use."""


def get(name: str):
    """The setting ``name`` (one of ``DEFAULTS``) as the host set it, else its default."""
    if name not in DEFAULTS:
        raise KeyError(f"no such setting: {name}")
    value = getattr(settings, name, DEFAULTS[name])
    if name in _INTS:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SettingError(f"settings.{name} = {value!r}: write a whole number of 0 or "
                               f"more (the default is {DEFAULTS[name]}).")
    return value


def rules_dir() -> str:
    path = get("WODCOMBAT_RULES_DIR")
    if not isinstance(path, (str, os.PathLike)) or not os.path.isdir(path):
        raise SettingError(
            f"settings.WODCOMBAT_RULES_DIR = {path!r} is not a folder: name the folder "
            "`evennia wodcombat copy-rules <dir>` made, or leave the setting out for the "
            "rules shipped with the package.")
    return os.fspath(path)


def log_dir() -> str:
    path = get("WODCOMBAT_LOG_DIR")
    if path is None:
        path = os.path.join(settings.GAME_DIR, "server", "logs", "combat")
    return os.fspath(path)


def _class(name: str):
    from evennia.utils.utils import class_from_module

    path = get(name)
    try:
        return class_from_module(path)
    except ImportError as err:
        raise SettingError(f"settings.{name} = {path!r} cannot be imported ({err}): name a "
                           f"class by its Python path, e.g. {DEFAULTS[name]!r}.") from None


def sheet_adapter():
    """The class a character's ``sheet`` is made from (``adapter(obj)``)."""
    return _class("WODCOMBAT_SHEET_ADAPTER")


def npc_typeclass() -> str:
    """The typeclass path ``+combat/npc`` creates (checked to import)."""
    _class("WODCOMBAT_NPC_TYPECLASS")
    return get("WODCOMBAT_NPC_TYPECLASS")


def command_key(key: str) -> str | None:
    """The key the host gives our command ``key`` (``WODCOMBAT_COMMAND_KEYS``), or None if it
    leaves it out."""
    keys = get("WODCOMBAT_COMMAND_KEYS")
    if not isinstance(keys, dict):
        raise SettingError("settings.WODCOMBAT_COMMAND_KEYS must be a dict such as "
                           "{'+roll': '+wodroll', '+sheet': None}.")
    new = keys.get(key, key)
    if new is not None and (not isinstance(new, str) or not new.strip() or " " in new):
        raise SettingError(f"settings.WODCOMBAT_COMMAND_KEYS[{key!r}] = {new!r}: write one "
                           "word such as '+wodroll', or None to leave the command out.")
    return new
