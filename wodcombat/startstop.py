"""The combat system's server start and stop hooks, called by Evennia beside the host's own
(``AT_SERVER_STARTSTOP_MODULE``: wodcombat/apps.py adds this module to it)."""


def check_settings() -> None:
    """Every WODCOMBAT_* setting that names something is tried once, so a wrong one is in the
    server log at start with what to write instead, not first met by a player's command."""
    from evennia.utils import logger

    from wodcombat import conf
    from wodcombat.commands.cmdset import COMMANDS

    checks = [conf.sheet_adapter, conf.npc_typeclass, conf.rules_dir, conf.log_dir,
              conf.default_pace]
    checks += [lambda key=cmd.key: conf.command_key(key) for cmd in COMMANDS]
    checks += [lambda name=name: conf.get(name) for name in conf.DEFAULTS]
    for check in checks:
        try:
            check()
        except conf.SettingError as err:
            logger.log_err(f"wodcombat: {err}")


def at_server_start():
    check_settings()
    # Read the rules now, so a broken rules file is named in the server log at start
    # (file, line, key path; loudly if it is the default ruleset), not at the first +roll.
    from wodcombat.world import rulebook

    rulebook.log_startup()
    _staff_channel()


def _staff_channel() -> None:
    """The staff channel exists from the start, so staff can join or mute it before the
    first fight (wodcombat/world/fight_relay.py)."""
    from wodcombat import conf
    from wodcombat.world import fight_relay

    try:
        fight_relay.staff_channel()
    except conf.SettingError:
        pass  # check_settings has put it in the log


def at_server_stop():
    # Each fight's JSONL export is appended to at its clock's tick: what the last two
    # seconds committed goes out now (wodcombat/world/combatlog.py).
    from wodcombat.world import combatlog

    combatlog.flush_all()
