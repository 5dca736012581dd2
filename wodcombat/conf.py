"""Every setting the combat system reads: its name, its default, and the one function that
reads it. A host game sets none of them to run (README, "Add it to your game"); each one it
sets is checked here, and a wrong value raises ``SettingError`` naming the setting and what
to write instead (Evennia shows it in the server log at start and at the command that read
it). The numbers of the rules themselves live in the rules YAML, never here.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.signals import setting_changed

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
    # how a new d10 fight is paced (issue 28): "ahead", each player enters their declaration
    # and action when they like and the game reveals and resolves it in their slot; "slots",
    # each is typed when the slot comes. A fight's organizer switches with +combat/pace.
    "WODCOMBAT_DEFAULT_PACE": "ahead",
    "WODCOMBAT_TIMER_TICK": 2,
    "WODCOMBAT_MAX_NPCS_PER_COMMAND": 20,
    "WODCOMBAT_MAX_NPCS_PER_FIGHT": 100,
    "WODCOMBAT_MAX_COMBATANTS": 120,
    "WODCOMBAT_ODDS_QUEUE": 20,
    "WODCOMBAT_MAX_OUTPUT": 16000,
    # where a character's sheet lives (typeclasses/sheets.py) and what +combat/npc creates
    "WODCOMBAT_SHEET_ADAPTER": "wodcombat.typeclasses.sheets.TableSheet",
    "WODCOMBAT_NPC_TYPECLASS": "wodcombat.typeclasses.characters.WodCombatNPC",
    # the commands the cmdset adds, by their key: a new key renames it, None leaves it out
    "WODCOMBAT_COMMAND_KEYS": {},
    # issue 29: the channel staff (Builder and up) hear fights start and end on (None: no
    # channel), and whether it also carries every roll the rooms read
    "WODCOMBAT_STAFF_CHANNEL": "CombatStaff",
    "WODCOMBAT_STAFF_ROLLS": False,
    # a channel every fight's text is copied to, e.g. for Evennia's Discord bridge
    # (discord2chan): "turns" copies each line the rooms read, "summary" each fight's start
    # and end; None: no channel
    "WODCOMBAT_RELAY_CHANNEL": None,
    "WODCOMBAT_RELAY": "summary",
    # the Python path of the game's own scene logger, handed each line a fight's room reads:
    # scene_log(room, line, fight_id)
    "WODCOMBAT_SCENE_LOG": None,
}

_INTS = {name for name, value in DEFAULTS.items()
         if isinstance(value, int) and not isinstance(value, bool)}
RELAY_KINDS = ("turns", "summary")
PACES = ("ahead", "slots")


class SettingError(ValueError):
    """A WODCOMBAT_* setting holds what the combat system cannot use."""


_UNSET = object()
#: name -> what the host's settings hold for it (``_UNSET``: left out). Django keeps a setting
#: it found, but answers one left out by raising inside ``LazySettings.__getattr__`` on every
#: read: ~2.5 us, several times a fight command in a host that sets none (issue 32). Settings
#: do not change while the server runs; a test's ``override_settings`` says when they do.
_host: dict[str, object] = {}


def _host_value(name: str):
    try:
        return _host[name]
    except KeyError:
        value = _host[name] = getattr(settings, name, _UNSET)
        return value


def _settings_changed(setting: str = "", **kwargs) -> None:
    _host.pop(setting, None)


setting_changed.connect(_settings_changed, dispatch_uid="wodcombat_conf_settings")


def get(name: str):
    """The setting ``name`` (one of ``DEFAULTS``) as the host set it, else its default."""
    if name not in DEFAULTS:
        raise KeyError(f"no such setting: {name}")
    value = _host_value(name)
    if value is _UNSET:
        value = DEFAULTS[name]
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


def channel_name(name: str) -> str | None:
    """A channel's name (``WODCOMBAT_STAFF_CHANNEL``, ``WODCOMBAT_RELAY_CHANNEL``), or None
    when the host turned it off."""
    value = get(name)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 40:
        raise SettingError(f"settings.{name} = {value!r}: write a channel's name (at most 40 "
                           "characters), or None for no channel.")
    return value.strip()


def staff_rolls() -> bool:
    value = get("WODCOMBAT_STAFF_ROLLS")
    if not isinstance(value, bool):
        raise SettingError(f"settings.WODCOMBAT_STAFF_ROLLS = {value!r}: write True (every "
                           "roll goes to the staff channel) or False.")
    return value


def default_pace() -> str:
    """The pace a new fight starts with unless /start names one (``PACES``)."""
    value = get("WODCOMBAT_DEFAULT_PACE")
    if value not in PACES:
        raise SettingError(f"settings.WODCOMBAT_DEFAULT_PACE = {value!r}: write 'ahead' "
                           "(players enter their choices before their slot) or 'slots' "
                           "(each typed when the slot comes).")
    return value


def relay_kind() -> str:
    value = get("WODCOMBAT_RELAY")
    if value not in RELAY_KINDS:
        raise SettingError(f"settings.WODCOMBAT_RELAY = {value!r}: write 'turns' (every line "
                           "the room reads) or 'summary' (each fight's start and end).")
    return value


def scene_log():
    """The host's scene logger (``WODCOMBAT_SCENE_LOG``), or None."""
    path = get("WODCOMBAT_SCENE_LOG")
    if path is None:
        return None
    import importlib

    module, _, name = str(path).rpartition(".")
    try:
        func = getattr(importlib.import_module(module), name, None) if module else None
    except ImportError:
        func = None
    if not callable(func):
        raise SettingError(f"settings.WODCOMBAT_SCENE_LOG = {path!r} names no function: write "
                           "the Python path of one, e.g. 'world.scenes.log_line', or None.")
    return func
