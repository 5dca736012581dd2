"""Issue 32: what the service hands the engine, and how a declaration is worded.

``combat_service.Sheets`` reads each sheet once, when the engine first asks for it, and a
repeated ask is a plain dict lookup; ``in``, ``get`` and iteration see only the sheets read
(the log and undo ask ``read`` which those are). ``actions_text`` words a list of declared
actions for the ``+combat`` table and the room, each option of an attack in its place.
"""

from __future__ import annotations

import pytest

from wodcombat.world.combat_service import Sheets
from wodcombat.world.fight_phrases import actions_text


class _Adapter:
    def __init__(self, name: str, reads: list):
        self.name, self.reads = name, reads

    def read(self):
        self.reads.append(self.name)
        return f"sheet of {self.name}", f'{{"of": "{self.name}"}}'


class _Obj:
    def __init__(self, name: str, reads: list):
        self.sheet = _Adapter(name, reads)


class _Objects:
    """``combat_service.Objects`` as the service uses it: key -> object or None."""

    def __init__(self, reads: list, *keys: str):
        self.known = {k: _Obj(k, reads) for k in keys}

    def __call__(self, key):
        return self.known.get(key)


def test_a_sheet_is_read_once_however_often_the_engine_asks():
    reads: list = []
    sheets = Sheets(_Objects(reads, "#1", "#2"))
    for _ in range(3):
        assert sheets["#1"] == "sheet of #1"
    assert reads == ["#1"]
    assert sheets.texts == {"#1": '{"of": "#1"}'}
    assert dict(sheets.read) == {"#1": "sheet of #1"}


def test_in_get_and_iteration_see_only_the_sheets_read():
    reads: list = []
    sheets = Sheets(_Objects(reads, "#1", "#2"))
    assert "#2" not in sheets and "#2" not in sheets.read
    assert sheets.get("#2") is None
    assert list(sheets) == [] and len(sheets) == 0
    assert reads == []  # asking so read nothing
    sheets["#2"]
    assert "#2" in sheets.read and list(sheets) == ["#2"]


def test_a_key_with_no_sheet_is_a_key_error_listed_once():
    reads: list = []
    sheets = Sheets(_Objects(reads, "#1"))
    for _ in range(2):
        with pytest.raises(KeyError):
            sheets["#9"]
    assert sheets.missing == ["#9"]
    assert "#9" not in sheets.read


NAMES = {"#1": "Bob", "#2": "Ann"}.get


def test_a_plain_attack_and_a_defense_are_worded_as_before():
    assert actions_text([{"kind": "attack", "target": "#1"}], NAMES) == "attack Bob"
    assert actions_text([{"kind": "dodge"}, {"kind": "attack", "targets": ["#1", "#2"]}],
                        NAMES) == "dodge; attack Bob and Ann"
    assert actions_text([], NAMES) == "nothing"


@pytest.mark.rule("TURN-02")
def test_every_option_of_an_attack_is_worded_in_its_place():
    """TURN-02: the Willpower and specialty declared are worded with the action."""
    action = {"kind": "attack", "target": "#1", "weapon": "knife", "off_hand": True,
              "maneuver": "weapon_strike", "location": "head", "position": "rear",
              "moving": 3, "ability": "Melee", "ammo": "silver", "drain": True,
              "sever": True, "specialty": True, "willpower": True}
    assert actions_text([action], NAMES) == (
        "attack Bob with knife off hand as weapon strike at head from rear moving 3 yd "
        "using Melee using silver draining severing (specialty, Willpower)")
    # the defaults say nothing: the maneuver "attack", the front, no Willpower spent
    plain = {"kind": "attack", "target": "#2", "maneuver": "attack", "position": "front",
             "willpower": False}
    assert actions_text([plain], NAMES) == "attack Ann"
