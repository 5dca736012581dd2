"""+combat/watch (issue 29): staff follow a fight from anywhere without joining it. The fight
keeps the watchers' keys; ``wodcombat/world/fight_relay.py`` tells them what its room reads."""

from __future__ import annotations

from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.typeclasses.combat_guard import combat_scripts
from wodcombat.world.fight_relay import WATCHERS, where

STOP = ("off", "stop", "none")


def _where(script) -> str:
    return where(script.obj)


class WatchSwitches:
    """The ``/watch`` switch of +combat."""

    def do_watch(self):
        if not self.is_staff():
            raise IllegalAction("Only staff watch fights from elsewhere: in its room you read "
                                "a fight already, and its web page shows it.")
        arg, me = self.args.strip(), self.me()
        watched = [s for s in combat_scripts() if me in (s.attributes.get(WATCHERS) or ())]
        if not arg:
            self.msg(f"You watch: {', '.join(map(_where, watched))}. +combat/watch off stops."
                     if watched else "You watch no fight. +combat/fights lists them; "
                     "+combat/watch #<room number> follows one from here.")
        elif arg.lower() in STOP:
            if not watched:
                raise IllegalAction("You watch no fight: nothing to stop.")
            for script in watched:
                script.attributes.add(WATCHERS, [k for k in script.attributes.get(WATCHERS)
                                                 if k != me])
            self.msg(f"You stop watching: {', '.join(map(_where, watched))}.")
        else:
            self.watch(self.fight_named(arg), watched)

    def watch(self, script, watched) -> None:
        if script in watched:
            raise IllegalAction(f"You already watch the fight in {_where(script)}: "
                                "+combat/watch off stops.")
        if script.obj is not None and script.obj == self.caller.location:
            raise IllegalAction("That fight is here: you read it already.")
        script.attributes.add(WATCHERS, [*(script.attributes.get(WATCHERS) or ()), self.me()])
        self.msg(f"You watch the fight in {_where(script)} from here: you read what its room "
                 "reads. +combat/watch off stops.")

    def fight_named(self, arg: str):
        """The running fight in the room ``#<id>`` or named ``arg`` (exact, else a unique
        start of the name)."""
        scripts = [s for s in combat_scripts() if s.obj is not None]
        low = arg.lower().lstrip("#")
        hits = [s for s in scripts if str(s.obj.id) == low or s.obj.key.lower() == low]
        hits = hits or [s for s in scripts if s.obj.key.lower().startswith(low)]
        if len(hits) != 1:
            rooms = ", ".join(map(_where, scripts)) or "none runs now"
            raise InputError(f"'{arg}' names {'no' if not hits else 'more than one'} room with "
                             f"a fight. Type +combat/watch #<room number>; fights: {rooms}.")
        return hits[0]
