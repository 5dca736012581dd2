"""Issue 27: a host's own sheet storage, through ``WODCOMBAT_SHEET_ADAPTER``.

``StatsSheet`` is the README's worked example ("Your own sheet"), word for word: a host that
keeps the traits in ``char.db.stats`` and the rest in ``char.db.wod_rest``. The fight of
``test_combat.test_small_fight_end_to_end`` is played on it with the same dice and gives
the same rolls; the damage lands in the host's Attributes, and the project's own sheet
Attribute is never written.
"""

import os

import pytest
from django.test import override_settings

from tests.commands.test_combat import CombatTest
from wodcombat import conf
from wodcombat.combat.core.sheet import Sheet
from wodcombat.typeclasses.sheets import SheetAdapter

ADAPTER = "tests.commands.test_sheet_adapter.StatsSheet"


class StatsSheet(SheetAdapter):
    """Traits in the host's own char.db.stats; the rest (pools, health, gear) beside them."""

    def get(self) -> Sheet:
        rest = dict(self.obj.db.wod_rest or {})
        return Sheet.from_dict({**rest, "traits": dict(self.obj.db.stats or {})})

    def store(self, sheet: Sheet) -> None:
        data = sheet.to_dict()
        self.obj.db.stats = data.pop("traits")
        self.obj.db.wod_rest = data


def test_the_readme_shows_this_adapter():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    for line in ("class StatsSheet(SheetAdapter):",
                 'rest = dict(self.obj.db.wod_rest or {})',
                 'return Sheet.from_dict({**rest, "traits": dict(self.obj.db.stats or {})})',
                 'self.obj.db.stats = data.pop("traits")', "self.obj.db.wod_rest = data"):
        assert line in readme, line


@override_settings(WODCOMBAT_SHEET_ADAPTER=ADAPTER)
class TestHostSheet(CombatTest):
    @pytest.mark.rule("ATK-01", "DMG-02")
    def test_a_fight_reads_and_writes_the_hosts_attributes(self):
        self.assertIsInstance(self.char1.sheet, StatsSheet)
        self.assertEqual(self.char1.db.stats["Dexterity"], 3)
        self.setup_fight()
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            text = self.cmd("+combat/act").text
        self.assertIn("Thug takes 1 bashing (2 rolled, 1 soaked): Healthy -> Bruised", text)
        thug = next(o for o in self.room1.contents if o.key == "Thug")
        self.assertEqual(thug.db.wod_rest["health"]["bashing"], 1)
        self.assertRegex(self.cmd("+combat").text, r"Char2 +Healthy")  # the table is kept
        self.cmd("+combat/damage Char2=2 lethal")
        self.assertEqual(self.char2.db.wod_rest["health"]["lethal"], 2)
        self.assertRegex(self.cmd("+combat").text, r"Char2 +Hurt")  # and drawn again
        self.assertEqual(self.char2.db.stats["Dodge"], 1)
        self.assertIn("Dexterity", self.cmd("+sheet").text)
        for obj in (self.char1, self.char2, thug):
            self.assertFalse(obj.attributes.has("sheet", category="wod"), obj.key)
        # undo puts the host's Attributes back as they were
        self.cmd("+combat/undo")
        self.assertEqual(self.char2.db.wod_rest["health"]["lethal"], 0)


def test_a_wrong_setting_is_named_at_server_start():
    from unittest import mock

    from wodcombat import startstop

    with override_settings(WODCOMBAT_SHEET_ADAPTER="no.such.Adapter",
                           WODCOMBAT_COMMAND_KEYS={"+roll": "two words"}), \
            mock.patch("evennia.utils.logger.log_err") as log_err:
        startstop.check_settings()
    logged = "\n".join(c.args[0] for c in log_err.call_args_list)
    assert "settings.WODCOMBAT_SHEET_ADAPTER = 'no.such.Adapter' cannot be imported" in logged
    assert "WODCOMBAT_COMMAND_KEYS['+roll']" in logged
    with override_settings(WODCOMBAT_SHEET_ADAPTER="no.such.Adapter"):
        with pytest.raises(conf.SettingError, match="WODCOMBAT_SHEET_ADAPTER"):
            conf.sheet_adapter()
