"""Where a fight's text goes besides its room (issue 29): staff watching it from elsewhere
(``+combat/watch``), the staff channel, a channel for Evennia's Discord bridge, and the game's
own scene logger. Each is a setting in ``wodcombat/conf.py``; with the defaults, a resolution
that neither starts nor ends a fight costs nothing here but one attribute read.

What they read is the text the room read (``combat_service.announce``), with the room named on
each line, since they are not in it.
"""

from __future__ import annotations

from wodcombat import conf

from . import reader_mode
from .combat_text import PREFIX

STAFF_LOCKS = "control:perm(Admin);listen:perm(Builder);send:perm(Builder)"
RELAY_LOCKS = "control:perm(Admin);listen:all();send:perm(Admin)"
WATCHERS = "watchers"  # the fight script's attribute: the keys of staff following it


def where(room) -> str:
    """A fight's room as staff elsewhere read it: ``Alley (#12)``."""
    return f"{room.key} (#{room.id})" if room is not None else "?"


def elsewhere(text: str, room) -> str:
    """The room's text for someone not in it: ``[Combat] ...`` reads ``[Combat: Room] ...``."""
    tag = f"[Combat: {room.key if room is not None else '?'}] "
    return "\n".join(tag + line[len(PREFIX):] if line.startswith(PREFIX) else line
                     for line in text.split("\n"))


def relay(done, objects) -> None:
    """After the room read ``done.text``: the watchers, the channels and the scene log."""
    text, script = done.text, done.script
    if not text:
        return
    room = script.obj
    kinds = {ev.kind for ev in done.events}
    _to_watchers(script, text, room, objects)
    _to_staff(script, text, room, kinds, objects)
    _to_relay(text, room, kinds)
    _to_scene_log(text, room, done.state.id)


def _to_watchers(script, text: str, room, objects) -> None:
    watchers = script.watchers  # kept with the fight's other Attributes (typeclasses/combat.py)
    if not watchers:  # the usual case: no room contents read, nothing worded again
        return
    here = set(room.contents) if room is not None else set()
    told = elsewhere(text, room)
    for key in watchers:
        obj = objects(key)
        if obj is not None and obj not in here:
            obj.msg(reader_mode.linear(told) if reader_mode.is_on(obj) else told)


def _to_staff(script, text: str, room, kinds: set, objects) -> None:
    rolls = conf.staff_rolls()
    if not ({"start", "end"} & kinds or rolls):
        return
    channel = staff_channel()
    if channel is None:
        return
    if "start" in kinds:
        org = objects(script.organizer) if script.organizer else None
        channel.msg(f"{org.key if org else 'Someone'} starts a fight in {where(room)} "
                    f"({script.ruleset_name}): +combat/watch #{room.id} follows it.")
    if rolls:
        channel.msg(elsewhere(text, room))
    if "end" in kinds:
        channel.msg(f"The fight in {where(room)} has ended.")


def _to_relay(text: str, room, kinds: set) -> None:
    name = conf.channel_name("WODCOMBAT_RELAY_CHANNEL")
    if name is None or (conf.relay_kind() == "summary" and not {"start", "end"} & kinds):
        return
    channel_named(name, RELAY_LOCKS, "What the game's fights read (wodcombat).").msg(
        elsewhere(text, room))


def _to_scene_log(text: str, room, fight_id: str) -> None:
    log = conf.scene_log()
    if log is None:
        return
    for line in text.split("\n"):
        try:
            log(room, line, fight_id)
        except Exception:  # the game's logger failing must not fail the fight
            from evennia.utils import logger

            logger.log_trace(f"wodcombat: settings.WODCOMBAT_SCENE_LOG failed on {line!r}")


def staff_channel():
    """The staff channel (made, with every Builder and up listening, the first time), or None
    when ``WODCOMBAT_STAFF_CHANNEL`` is None."""
    name = conf.channel_name("WODCOMBAT_STAFF_CHANNEL")
    if name is None:
        return None
    return channel_named(name, STAFF_LOCKS, "Fights starting and ending (wodcombat).",
                         staff=True)


def channel_named(name: str, locks: str, desc: str, staff: bool = False):
    from evennia import create_channel
    from evennia.accounts.models import AccountDB
    from evennia.comms.models import ChannelDB

    channel = ChannelDB.objects.get_channel(name)
    if channel is None:
        channel = create_channel(name, desc=desc, locks=locks)
        for account in AccountDB.objects.all() if staff else ():
            if account.is_superuser or account.check_permstring("Builder"):
                channel.connect(account)
    return channel
