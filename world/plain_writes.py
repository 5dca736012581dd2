"""The two writes every combat command makes, as one plain SQL statement each (issue 13).

A command commits the fight's state (an Attribute of its Script holding JSON text) and the
log's row (``world.models.CombatRecord``). Through the ORM each costs a savepoint, Django's
save machinery and Evennia's post-save hooks: about 0.25 ms apiece, a sixth of what a whole
``look`` costs the server. Nothing watches these two values (no OOB monitor, no field hook),
so they are written as plain parameterised statements inside the command's transaction,
which works the same on SQLite and PostgreSQL. Sheets keep Evennia's save: clients may
monitor them, and the sheet cache listens for it.
"""

from __future__ import annotations

from django.db import connection
from evennia.typeclasses.attributes import Attribute

from .models import CombatRecord

_ATTR_TABLE = Attribute._meta.db_table
_VALUE = Attribute._meta.get_field("db_value")
_LOG_TABLE = CombatRecord._meta.db_table
_LOG_FIELDS = ("combat", "first_seq", "last_seq", "turn", "records", "undo")


def update_text(attr: Attribute, text: str) -> None:
    """Store ``text`` as ``attr``'s value: the cached Attribute and its row agree after."""
    attr.db_value = text
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {_ATTR_TABLE} SET db_value = %s WHERE id = %s",
                    [_VALUE.get_db_prep_value(text, connection), attr.id])


def insert_record(combat: str, first_seq: int, last_seq: int, turn: int, records: str,
                  undo: str) -> None:
    """Append one log row (the table's own columns, in ``_LOG_FIELDS`` order)."""
    cols = ", ".join(_LOG_FIELDS)
    with connection.cursor() as cur:
        cur.execute(f"INSERT INTO {_LOG_TABLE} ({cols}) VALUES (%s, %s, %s, %s, %s, %s)",
                    [combat, first_seq, last_seq, turn, records, undo])
