"""Issue 13: wodcombat/world/jsontext.py encodes as json.dumps does; text_width.prefitted text goes
out as fit makes it."""

import json

import pytest

from wodcombat.world import jsontext

VALUES = [
    {"seq": 1, "ts": 1796250796.518, "combat": "1-2026", "faces": [8, 7, 1], "ok": True,
     "none": None, "nested": {"a": [1, 2.5, {"b": "c"}], "e": []}, "tuple": (1, "x")},
    "plain text", "|w[Combat]|n Bob \u00e9\u4e2d \"quoted\" \\ back\nslash", 3, -0.0, 1e300,
    [], {}, [{"x": float("inf")}], {"k": float("nan")}, {1: "int key", 2.5: "float key"},
]


@pytest.mark.parametrize("value", VALUES)
def test_same_text_as_json_dumps(value):
    assert jsontext.dumps(value) == json.dumps(value)
    assert jsontext.dumps_or_str(value) == json.dumps(value, default=str)


def test_a_value_json_has_no_form_for():
    with pytest.raises(TypeError):
        jsontext.dumps({"x": object()})
    assert jsontext.dumps_or_str({"x": {1, 2}}) == json.dumps({"x": {1, 2}}, default=str)


def test_a_prefitted_text_is_sent_as_fit_makes_it_and_as_a_plain_string():
    import pickle

    from wodcombat.world.text_width import fit, fit_message, prefitted

    room = "|w[Combat]|n " + "word " * 30
    prompt = "|w[Combat]|n Your turn to act: +combat/act"
    text = prefitted(room, prompt)
    assert text == room + "\n" + prompt  # what the code that sent it sees
    sent = fit_message(text)
    assert type(sent) is str and sent == fit(room + "\n" + prompt) != text
    assert type(pickle.loads(pickle.dumps(text))) is str
