"""The combat side of a Character, mixed into the host's own (README, "Add it to your game").

``CombatCharacterMixin`` gives a Character its World of Darkness sheet (``char.sheet``, one
adapter chosen by ``WODCOMBAT_SHEET_ADAPTER``: sheets.py) and the hooks a fight
needs; ``CombatNPCMixin`` makes one of them a staff-run NPC. ``WodCombatCharacter``
and ``WodCombatNPC`` are those mixins over Evennia's DefaultCharacter.
"""

from evennia.objects.objects import DefaultCharacter
from evennia.utils.utils import lazy_property

from wodcombat import conf
from wodcombat.world import oob, overrides

from .room_contents import contents_changed


class CombatCharacterMixin:
    """Mixed into the host's own Character, first among its bases:
    ``class Character(CombatCharacterMixin, DefaultCharacter)``. It adds the sheet
    (``char.sheet``, through ``WODCOMBAT_SHEET_ADAPTER``) and three hooks, each calling the
    host's own after (``super()``): nothing of the host's Character is replaced."""

    is_npc = False

    @lazy_property
    def sheet(self):
        return conf.sheet_adapter()(self)

    def at_post_puppet(self, **kwargs):
        """Issue 12: a client that connects gets its gauges and the fight's state at once."""
        super().at_post_puppet(**kwargs)
        contents_changed(self.location)  # an NPC staff puppet reads the room's fight
        self.send_gauges()

    def send_gauges(self):
        """The client's gauges (GMCP ``Char.Vitals``) and the fight here (``Char.Combat``),
        if they changed since they were last sent."""
        oob.send_vitals(self)
        from .combat import combat_in

        script = combat_in(self.location)
        if script is not None:
            oob.send_combat(self, script.engine(), script.get_state())

    def at_object_delete(self):
        """Issue 5: a character deleted mid-fight leaves it cleanly and the room is told
        (combat_guard.py). Disconnecting is not leaving: the idle rules apply."""
        from .combat_guard import remove_deleted

        remove_deleted(self)
        return super().at_object_delete()


class CallLockShortcut:
    """An NPC whose call lock is left as it is answers the command handler's question at
    once. It replaces Evennia's ``access`` for that one question: only with
    ``WODCOMBAT_NPC_CALL_LOCK`` on (off, the lock handler evaluates it, as for any object)."""

    def access(self, accessing_obj, access_type="read", default=False,
               no_superuser_bypass=False, **kwargs):
        """A call lock left as it is answers no at once (``call_lock_is_false``); one staff
        changed is evaluated as usual. (A room of this game does not even ask: its
        ``contents_get`` leaves such NPCs out of the command handler's view.)"""
        if (access_type == "call" and no_superuser_bypass and not default
                and self.call_lock_is_false()):
            return False  # what evaluating it gives (no one bypasses it)
        return super().access(accessing_obj, access_type=access_type, default=default,
                              no_superuser_bypass=no_superuser_bypass, **kwargs)


#: call locks that answer the command handler no: DefaultCharacter's, and none
_NO_CALL = frozenset({"call:false()", ""})

# Read once, as the class is made.
_SHORTCUT = (CallLockShortcut,) if overrides.enabled(overrides.NPC_CALL_LOCK) else ()


class CombatNPCMixin(*_SHORTCUT):
    """What makes a combat Character an NPC: staff-run, no account; staff may edit and roll
    for it. A host's NPC typeclass is ``class NPC(CombatNPCMixin, Character)`` over its own
    mixed Character, named in ``WODCOMBAT_NPC_TYPECLASS``; the default is ``WodCombatNPC`` below."""

    is_npc = True

    def basetype_setup(self):
        """DefaultCharacter's ``call:false()`` lock is dropped: an NPC carries no commands
        for others, and with no call lock Evennia's own check gives the command handler the
        same no (its ``default``) without evaluating a lock. The handler asks every object
        in the room on every command: 35 us an NPC with the lock, 4 without, so a crowd of
        100 cost every command typed beside it 3 ms with the overrides off (issue 32).
        Staff who want an NPC's commands shared still add a call lock."""
        super().basetype_setup()
        self.locks.delete("call")

    def call_lock_is_false(self) -> bool:
        """Whether the call lock answers the command handler no: ``call:false()``
        (DefaultCharacter's, on an NPC made before ``basetype_setup`` dropped it) or none
        at all. The handler asks every object in a room on every command (may its commands
        join the typist's?), and for such an NPC the answer is no without evaluating it.
        The answer is kept with the lock string it was read from (a lock change stores a
        new one): asking the lock handler costs more than the rest. Issue 13."""
        # The field's value is read from the instance as Django's descriptor does (one call
        # fewer per NPC per command); not loaded, the lock is asked.
        stored = self.__dict__.get("db_lock_storage")
        if stored is None:
            return self.locks.get("call") in _NO_CALL
        known = self.__dict__.get("_wod_call_false")
        if known is None or known[0] is not stored:
            known = self._wod_call_false = (stored, self.locks.get("call") in _NO_CALL)
        return known[1]

    def save(self, *args, **kwargs):
        """A lock change (``locks.add`` stores the lock string) may make this NPC carry
        commands for the room again: its room draws them anew."""
        super().save(*args, **kwargs)
        fields = kwargs.get("update_fields")
        if fields is None or "db_lock_storage" in fields:
            contents_changed(self.location)


class WodCombatCharacter(CombatCharacterMixin, DefaultCharacter):
    """A combat Character over Evennia's own: what a host without a Character class of its own
    would write, and the parent of the default NPC. (Evennia registers typeclasses by class
    name: a host's own ``Character`` and ``NPC`` must not meet a second of that name.)"""


class WodCombatNPC(CombatNPCMixin, WodCombatCharacter):
    """The NPC ``+combat/npc`` makes when the host names none (``WODCOMBAT_NPC_TYPECLASS``)."""
