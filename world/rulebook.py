"""The rules the running server uses: loaded once, replaced only by a valid reload.

The pure loader (combat.ruleset) never raises on bad data; this module decides what the
server does with the result. At start a broken ruleset is refused and reported in the
server log, the others are used. ``+rules/reload`` applies new files only when every
ruleset in them is valid, so a typo never takes a running game's rules away.
"""

from __future__ import annotations

from django.conf import settings

from combat.ruleset import Library, Ruleset, load_library

_library: Library | None = None


def rules_dir() -> str:
    return settings.COMBAT_RULES_DIR


def default_name() -> str:
    return getattr(settings, "COMBAT_DEFAULT_RULESET", "numetal")


def library() -> Library:
    global _library
    if _library is None:
        _library = load_library(rules_dir())
        if _library.refused:
            from evennia.utils import logger

            for issue in _library.issues:
                logger.log_err(f"rules: {issue}")
    return _library


def get(name: str | None = None) -> Ruleset:
    """The named ruleset (default: the server's), or InputError naming the known ones."""
    return library().get(name or default_name())


def check() -> Library:
    """Read the files again without applying them."""
    return load_library(rules_dir())


def reload() -> tuple[Library, bool]:
    """Read the files again; apply them only if every ruleset is valid."""
    global _library
    fresh = load_library(rules_dir())
    if fresh.refused or default_name() not in fresh.rulesets:
        return fresh, False
    _library = fresh
    return fresh, True
