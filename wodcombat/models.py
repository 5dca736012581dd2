"""The combat log in the database: one append-only row per command (issue 14).

Written in the same transaction as the sheets the command changed, so a crash can never
keep the one without the other. ``records`` holds the command's log records (the intent,
its dice and sheets, the events) as JSON; ``state`` the fight's state after the command,
whole or as the change from the row before's (issue 13: what the command changed, the whole
state every ``FULL_STATE_EVERY`` rows; ``combatlog.state_before`` reads it back, see
``wodcombat/typeclasses/combat.py`` and ``wodcombat/world/state_text.py``); ``undo``
what restoring the fight to before this command needs beyond the row before it: the sheets
it changed, as they were (rows written before issue 13 hold the state before too, and no
``state``). Rows are never updated or deleted: an undo is a row of its own that names the
command it undid.
"""

from django.db import models


class CombatRecord(models.Model):
    # Looked up by the unique (combat, first_seq) index below: no index of its own (issue 13:
    # one b-tree page fewer written per command).
    combat = models.CharField(max_length=80)
    first_seq = models.PositiveIntegerField()
    last_seq = models.PositiveIntegerField()
    turn = models.IntegerField(default=0)  # where the fight stood before the command
    records = models.TextField()  # JSON list of the log records
    undo = models.TextField(blank=True, default="")  # JSON: {"sheets": {...}}, old: + "state"
    state = models.TextField(blank=True, default="")  # JSON: the state after it, or its
    # change from the row before's ('{"delta": ...'); "": rows written before issue 13

    class Meta:
        app_label = "wodcombat"
        ordering = ("combat", "first_seq")
        constraints = [models.UniqueConstraint(fields=("combat", "first_seq"),
                                               name="combat_record_seq")]

    def __str__(self) -> str:
        return f"{self.combat} #{self.first_seq}-{self.last_seq}"


class CombatSheet(models.Model):
    """A character's World of Darkness sheet as JSON text: the default sheet adapter's storage
    (``wodcombat.typeclasses.sheets.TableSheet``). Issue 32: in the plugin's own table, so a
    hit writes one plain UPDATE of it inside the command's transaction, as the log's row is
    one plain INSERT, instead of Evennia's Attribute save (a savepoint and the ORM's save
    machinery: about 0.2 ms of an act with every override off). Deleted with its object."""

    obj = models.OneToOneField("objects.ObjectDB", on_delete=models.CASCADE,
                               primary_key=True, related_name="+")
    text = models.TextField()

    class Meta:
        app_label = "wodcombat"

    def __str__(self) -> str:
        return f"sheet of #{self.obj_id}"
