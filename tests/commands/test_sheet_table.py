"""Issue 32: the sheet as one row of the plugin's own table (``TableSheet``, the default).

An act that hurts someone writes the sheet as one plain UPDATE of ``wodcombat_combatsheet``
beside the log's INSERT, never Evennia's Attribute save (its savepoint and ORM machinery
are what an act with every override off paid most for after the engine and the messages).
The sheets of a game made before it move into the table with migration 0004; a deleted
object takes its row with it; a rollback puts the cached sheet back; and a host that names
``AttributeSheet`` keeps the Attribute storage, old sheets stored as a dict included.
"""

import importlib
import json

import pytest
from django.apps import apps
from django.test import override_settings
from evennia import create_object

from tests.commands.test_combat import CombatTest, make_sheet, writes
from wodcombat.models import CombatSheet
from wodcombat.typeclasses.sheets import AttributeSheet, TableSheet

ATTRIBUTE_ADAPTER = "wodcombat.typeclasses.sheets.AttributeSheet"
MIGRATION = importlib.import_module("wodcombat.migrations.0004_combatsheet")


class TestTableSheet(CombatTest):
    @pytest.mark.rule("DMG-02")
    def test_a_hit_writes_the_sheet_row_and_no_attribute(self):
        """DMG-02: the damage lands in the target's row, in the act's one transaction."""
        self.assertIsInstance(self.char1.sheet, TableSheet)
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            act = self.cmd("+combat/act")
        self.assertIn("Thug takes 1 bashing", act.text)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        row = json.loads(CombatSheet.objects.get(obj_id=thug.id).text)
        self.assertEqual(row["health"]["bashing"], 1)
        verbs = [q["sql"].split()[0].upper() for q in writes(act)]
        self.assertEqual(verbs, ["UPDATE", "INSERT"], act.sql)
        self.assertNotIn("typeclasses_attribute", " ".join(q["sql"] for q in act.queries))
        for obj in (self.char1, self.char2, thug):
            self.assertFalse(obj.attributes.has("sheet", category="wod"), obj.key)

    def test_a_sheet_is_read_once(self):
        self.char2.sheet.save(make_sheet(strength=4))
        fresh = TableSheet(self.char2)  # as a reloaded server makes it
        with self.assertNumQueries(1):
            self.assertEqual(fresh.get().traits["Strength"], 4)
            self.assertTrue(fresh.exists)
            fresh.get()
        nobody = create_object("typeclasses.objects.Object", key="Crate", location=self.room1)
        self.assertFalse(nobody.sheet.exists if hasattr(nobody, "sheet") else
                         TableSheet(nobody).exists)

    def test_a_deleted_character_takes_its_row(self):
        npc = create_object("typeclasses.characters.NPC", key="Extra", location=self.room1)
        npc.sheet.save(make_sheet(strength=3))
        pk = npc.id
        self.assertTrue(CombatSheet.objects.filter(obj_id=pk).exists())
        npc.delete()
        self.assertFalse(CombatSheet.objects.filter(obj_id=pk).exists())

    def test_migration_moves_attribute_sheets_into_rows(self):
        """Migration 0004: a sheet Attribute (JSON text, or a dict as stored before issue
        13) becomes the object's row, and the Attribute goes."""
        old = make_sheet(strength=5).to_dict()
        self.char1.attributes.add("sheet", json.dumps(old), category="wod")
        self.char2.attributes.add("sheet", old, category="wod")
        MIGRATION.attributes_to_rows(apps, None)
        for char in (self.char1, self.char2):
            row = CombatSheet.objects.get(obj_id=char.id)
            self.assertEqual(json.loads(row.text)["traits"]["Strength"], 5)
            char.attributes.reset_cache()
            self.assertFalse(char.attributes.has("sheet", category="wod"))
        CombatSheet.objects.filter(obj_id=self.char2.id).delete()
        MIGRATION.rows_to_attributes(apps, None)  # and back
        self.char1.attributes.reset_cache()
        text = self.char1.attributes.get("sheet", category="wod")
        self.assertEqual(json.loads(text)["traits"]["Strength"], 5)


@override_settings(WODCOMBAT_SHEET_ADAPTER=ATTRIBUTE_ADAPTER)
class TestAttributeSheet(CombatTest):
    """A host that names ``AttributeSheet`` keeps the storage of before issue 32."""

    def test_sheet_read_once_and_stored_as_text(self):
        """A sheet is parsed once per stored value (not per read); it is stored as JSON
        text; one stored as a dict (before issue 13) still loads, and any write is seen."""
        from unittest import mock

        from wodcombat.combat.core import sheet as sheet_mod

        self.assertIsInstance(self.char2.sheet, AttributeSheet)
        self.char2.sheet.save(make_sheet(strength=4))
        self.assertIsInstance(self.char2.attributes.get("sheet", category="wod"), str)
        self.assertFalse(CombatSheet.objects.filter(obj_id=self.char2.id).exists())
        with mock.patch.object(sheet_mod.Sheet, "from_dict",
                               wraps=sheet_mod.Sheet.from_dict) as parsed:
            first = self.char2.sheet.get()
            self.assertIs(self.char2.sheet.get(), first)
            self.assertEqual(parsed.call_count, 1)
        self.assertEqual(first.traits["Strength"], 4)
        old = make_sheet(strength=2).to_dict()
        self.char2.attributes.add("sheet", old, category="wod")  # a dict, as stored before
        self.assertEqual(self.char2.sheet.get().traits["Strength"], 2)
        self.char2.sheet.save(self.char2.sheet.get())
        self.assertIsInstance(self.char2.attributes.get("sheet", category="wod"), str)

    def test_status_shows_a_sheet_attribute_changed_outside_the_fight(self):
        """HLT-01: staff ``set`` (any write of the Attribute) is seen by the next status."""
        self.setup_fight()
        self.assertNotIn("Injured", self.cmd("+combat").text)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        data = json.loads(thug.attributes.get("sheet", category="wod"))
        data["health"] = {"bashing": 0, "lethal": 3, "aggravated": 0}
        thug.attributes.add("sheet", json.dumps(data), category="wod")
        row = next(ln for ln in self.cmd("+combat").text.splitlines()
                   if "Thug" in ln and "[NPC]" in ln)
        self.assertIn("Injured", row)
