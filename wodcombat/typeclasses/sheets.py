"""The sheet adapters this project ships: a World of Darkness sheet behind one handler, as
one row of the plugin's own table (``TableSheet``, ``WODCOMBAT_SHEET_ADAPTER``'s default) or
one Attribute (``AttributeSheet``, the default before issue 32).

An adapter is a class made with the character (``adapter(obj)``) that answers ``get()`` (the
frozen ``Sheet``), ``read()`` (the sheet and the JSON text it came from, or ``None``),
``stored_text()``, ``save(sheet, tell=True)`` and ``exists``. A host whose traits live
elsewhere names its own (README, "Your own sheet"); ``SheetAdapter`` below is the shape to
subclass (a fight's commit calls ``save(sheet, tell=False)``: see ``SheetAdapter.save``).

The whole sheet is one JSON text, read once and written once per change, so a command that
changes a sheet costs one UPDATE, never one per trait (design card). Issue 32: ``TableSheet``
keeps it in ``wodcombat.models.CombatSheet``, the plugin's own table, written as one plain
UPDATE (the log's row is one plain INSERT for the same reason, wodcombat/world/
plain_writes.py): Evennia's Attribute save costs a savepoint and the ORM's save machinery,
about 0.2 ms of an act that hurts someone, and writing Evennia's table without it is an
override a host game must opt into (``WODCOMBAT_PLAIN_WRITES``).

``AttributeSheet``, issue 13: the Attribute holds the sheet's JSON as a string, which
Evennia stores without turning it into its pickled containers (a dict value is rebuilt as a
``_SaverDict`` tree on every read). Each object keeps its parsed ``Sheet`` keyed on the
stored value itself: any write (``save`` here, staff ``set``, ``attributes.add``, a rollback
putting the row back) gives the Attribute a new value object, so a changed sheet is never
served from the cache.
A sheet stored as a dict (before issue 13) still loads and becomes a string on its next save.
"""

import itertools
import json

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save
from evennia.typeclasses.attributes import Attribute

from wodcombat.combat.core.sheet import Sheet
from wodcombat.world import jsontext, oob, plain_writes, rulebook

SHEET_ATTR = ("sheet", "wod")

#: bumped whenever any sheet Attribute is written or deleted (the Attribute's own save and
#: delete signals, and ``rollback.restore_after_rollback``): what is drawn from many
#: sheets at once (the ``+combat`` table) is cached under it.
_epoch = itertools.count(1)
_current = next(_epoch)


def sheets_epoch() -> int:
    return _current


def sheets_changed() -> None:
    global _current
    _current = next(_epoch)


#: bumped when the sheet rows may hold what no ``TableSheet`` wrote (a rolled-back
#: transaction put them back; a test's database rolled back): each reads its row again.
_rows_epoch = itertools.count(1)
_rows_current = next(_rows_epoch)


def rows_changed() -> None:
    global _rows_current
    _rows_current = next(_rows_epoch)


def _on_attribute_write(sender, instance, **kwargs):
    if instance.db_key == SHEET_ATTR[0] and instance.db_category == SHEET_ATTR[1]:
        sheets_changed()


post_save.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_sheet_saved")
post_delete.connect(_on_attribute_write, sender=Attribute, dispatch_uid="wod_sheet_deleted")


def _parse(attr) -> Sheet:
    raw = attr.db_value
    if isinstance(raw, str):
        return Sheet.from_dict(json.loads(raw))
    return Sheet.from_dict(attr.value)  # stored as a dict before issue 13


class SheetAdapter:
    """The shape of a sheet adapter: ``char.sheet.get()`` returns the frozen Sheet,
    ``char.sheet.save(new)`` stores it. A host's adapter overrides ``get`` and ``store``;
    ``save`` stores, then tells what keeps drawings of sheets (the ``+combat`` table) that
    one changed, and the owner's client its new vitals once the change is committed.
    ``read`` and ``stored_text`` answer from ``get`` (no stored text to splice into the log:
    the log encodes the sheet itself) and ``exists`` is true. A game that changes what
    ``get`` reads by other means (its own commands) calls ``sheets_changed()`` after."""

    def __init__(self, obj):
        self.obj = obj

    def get(self) -> Sheet:
        raise NotImplementedError

    def store(self, sheet: Sheet) -> None:
        raise NotImplementedError

    def save(self, sheet: Sheet, tell: bool = True) -> None:
        """Store ``sheet``. ``tell``: the owner's client hears the new vitals once the change
        is committed (issue 12: a fight's sheets are saved inside its transaction; a rollback
        sends nothing); a fight's command that tells them with the room's text itself passes
        False (issue 32, combat_service.announce)."""
        self.store(sheet)
        sheets_changed()
        if tell and self.obj.sessions.count():
            transaction.on_commit(lambda: oob.send_vitals(self.obj, sheet))

    def read(self) -> tuple[Sheet, str | None]:
        return self.get(), None

    def stored_text(self) -> str | None:
        return None

    @property
    def exists(self) -> bool:
        return True


class AttributeSheet(SheetAdapter):
    """The sheet as one Attribute of JSON text (this project's own storage)."""

    def __init__(self, obj):
        super().__init__(obj)
        self._raw = None  # the stored value the cached sheet was parsed from
        self._sheet: Sheet | None = None

    def _attr(self):
        return self.obj.attributes.get(SHEET_ATTR[0], category=SHEET_ATTR[1], return_obj=True)

    def get(self) -> Sheet:
        attr = self._attr()
        if attr is None:
            return Sheet().with_pools_for(rulebook.get().traits)
        raw = attr.db_value
        if raw is not self._raw or self._sheet is None:
            self._sheet, self._raw = _parse(attr), raw
        return self._sheet

    def read(self) -> tuple[Sheet, str | None]:
        """(the sheet, the JSON text it was parsed from): the text is what the combat log
        splices in as the sheet read (no encoding again; ``None`` for a sheet stored as a
        dict before issue 13, or no sheet stored)."""
        sheet = self.get()
        raw = self._raw
        return sheet, (raw if isinstance(raw, str) and self._sheet is sheet else None)

    def stored_text(self) -> str | None:
        """The stored sheet's JSON text (what ``save`` wrote), or None."""
        attr = self._attr()
        raw = attr.db_value if attr is not None else None
        return raw if isinstance(raw, str) else None

    def store(self, sheet: Sheet) -> None:
        key, category = SHEET_ATTR
        text = jsontext.dumps(sheet.to_dict())  # json.dumps, its encoder built once
        attr = self._attr()
        if attr is None:
            self.obj.attributes.add(key, text, category=category)
        else:
            # One UPDATE (AttributeHandler.add() saves the row twice, value then strvalue),
            # as a plain statement: wodcombat/world/plain_writes.py says why.
            plain_writes.update_text(attr, text)
        # The next get() parses the stored text: a sheet reads back as from_dict made it.

    @property
    def exists(self) -> bool:
        return self.obj.attributes.has(SHEET_ATTR[0], category=SHEET_ATTR[1])


class TableSheet(SheetAdapter):
    """The sheet as one row of ``wodcombat.models.CombatSheet`` (see the module doc). The
    row's text is read once and kept with the sheet parsed from it; every write goes
    through ``store``, which keeps what it wrote, so a command reads no row in steady state.
    ``rows_changed()`` (a rollback, wodcombat/typeclasses/rollback.py) makes each read its
    row again."""

    def __init__(self, obj):
        super().__init__(obj)
        self._epoch = None  # the rows' epoch ``_text`` was read or written in
        self._text: str | None = None  # the row's text; None: no row
        self._sheet: Sheet | None = None  # parsed from ``_text``

    def _stored(self) -> str | None:
        if self._epoch != _rows_current:
            with connection.cursor() as cur:
                cur.execute(_SELECT, [self.obj.id])
                row = cur.fetchone()
            self._text, self._sheet, self._epoch = (row[0] if row else None), None, _rows_current
        return self._text

    def get(self) -> Sheet:
        text = self._stored()
        if text is None:
            return Sheet().with_pools_for(rulebook.get().traits)
        if self._sheet is None:
            self._sheet = Sheet.from_dict(json.loads(text))
        return self._sheet

    def read(self) -> tuple[Sheet, str | None]:
        """(the sheet, the JSON text it was parsed from): the log splices the text in."""
        sheet = self.get()
        return sheet, self._text

    def stored_text(self) -> str | None:
        return self._stored()

    def store(self, sheet: Sheet) -> None:
        text = jsontext.dumps(sheet.to_dict())  # json.dumps, its encoder built once
        with connection.cursor() as cur:
            # UPDATE first, whatever this adapter last read: a second Python instance of the
            # object (one kept past an idmapper flush) may have made the row meanwhile
            cur.execute(_UPDATE, [text, self.obj.id])
            if not cur.rowcount:  # its first sheet
                cur.execute(_INSERT, [self.obj.id, text])
        self._epoch = _rows_current
        # The next get() parses the stored text: a sheet reads back as from_dict made it.
        self._text, self._sheet = text, None

    @property
    def exists(self) -> bool:
        return self._stored() is not None


def _sql():
    from wodcombat.models import CombatSheet

    table = CombatSheet._meta.db_table
    return (f"SELECT text FROM {table} WHERE obj_id = %s",
            f"UPDATE {table} SET text = %s WHERE obj_id = %s",
            f"INSERT INTO {table} (obj_id, text) VALUES (%s, %s)")


_SELECT, _UPDATE, _INSERT = _sql()
