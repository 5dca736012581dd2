"""The writes every combat command makes: the log's row, and the sheet's Attribute for a
host that keeps sheets as Attributes (``AttributeSheet``; the default ``TableSheet`` writes
its own table's row as one plain UPDATE, wodcombat/typeclasses/sheets.py).

A command commits the sheets it changed (JSON text) and the log's row
(``wodcombat.models.CombatRecord``), which holds the fight's new state too. Through the ORM
each costs a savepoint, Django's save machinery and the idmapper's post-save hooks: about
0.25 ms apiece, a sixth of what a whole ``look`` costs the server (issue 13).

The log's row is the plugin's own table (its own model and migrations; nothing of Evennia's
watches it), so it is always one plain parameterised INSERT inside the command's
transaction (the same SQL on SQLite and PostgreSQL): issue 32, a host game with every
override off pays no ORM machinery for it either.

The sheet's Attribute is Evennia's table: written as one plain UPDATE only with
``WODCOMBAT_PLAIN_WRITES`` on, telling what Evennia's save would tell others (the monitor
handler: a client watching an Attribute). That writes behind Evennia's back, so it is
opt-in (issue 27): off, the value goes through ``Attribute.value``, which Evennia keeps
working across its versions. The sheet cache's own bookkeeping is ``SheetAdapter.save``'s
(wodcombat/typeclasses/sheets.py) either way.
"""

from __future__ import annotations

from django.db import connection
from evennia.scripts.monitorhandler import MONITOR_HANDLER
from evennia.typeclasses.attributes import Attribute

from . import overrides
from wodcombat.models import CombatRecord

_ATTR_TABLE = Attribute._meta.db_table
_VALUE = Attribute._meta.get_field("db_value")
_LOG_TABLE = CombatRecord._meta.db_table
_LOG_FIELDS = ("combat", "first_seq", "last_seq", "turn", "records", "undo", "state")


def sql_update_text(attr: Attribute, text: str) -> None:
    """Store ``text`` as ``attr``'s value: the cached Attribute and its row agree after."""
    attr.db_value = text
    with connection.cursor() as cur:
        cur.execute(f"UPDATE {_ATTR_TABLE} SET db_value = %s WHERE id = %s",
                    [_VALUE.get_db_prep_value(text, connection), attr.id])
    MONITOR_HANDLER.at_update(attr, "db_value")


def orm_update_text(attr: Attribute, text: str) -> None:
    """``sql_update_text`` through Evennia's own setter (its save, signals and monitors)."""
    attr.value = text


_INSERT = (f"INSERT INTO {_LOG_TABLE} ({', '.join(_LOG_FIELDS)}) "
           f"VALUES ({', '.join(['%s'] * len(_LOG_FIELDS))})")


def insert_record(combat: str, first_seq: int, last_seq: int, turn: int, records: str,
                  undo: str, state: str = "") -> None:
    """Append one log row (the table's own columns, in ``_LOG_FIELDS`` order)."""
    with connection.cursor() as cur:
        cur.execute(_INSERT, [combat, first_seq, last_seq, turn, records, undo, state])


# Read once, at import; callers look the name up here at each call.
update_text = (sql_update_text if overrides.enabled(overrides.PLAIN_WRITES)
               else orm_update_text)
