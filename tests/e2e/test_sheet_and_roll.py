"""A new player over telnet: build a sheet, look at it, roll dice (DICE-01, DICE-02, HLT-01).

Dice on a live server are random, so the test does not hope for an outcome: it reads the
faces the server printed and recounts them by the rules (DICE-02), which fails if the
server's count and its shown dice ever disagree."""

import re
import uuid

ROLL = re.compile(
    r"rolls (?P<terms>.+?) = (?P<pool>\d+) dic?e? vs (?P<diff>\d+)[^:]*: \[(?P<faces>[\d ]*)\] "
    r"=> (?P<outcome>BOTCH|failure|(?P<n>\d+) success(?:es)?)"
)


def recount(faces, difficulty):
    hits = sum(1 for f in faces if f >= difficulty)
    ones = faces.count(1)
    return max(0, hits - ones), hits == 0 and ones > 0


def test_build_sheet_and_roll(game_server):
    name = "Alice" + uuid.uuid4().hex[:5]
    with game_server.connect() as client:
        client.create_and_login(name, "pw-" + uuid.uuid4().hex[:10], timeout=20)
        client.command("+sheet/set dex=3", until="Your Dexterity set to 3", timeout=10)
        client.command("+sheet/set brawl=2", until="Your Brawl set to 2", timeout=10)
        client.command("+sheet/set splat=vampire", until="splat set to vampire", timeout=10)
        client.command("+sheet/set dexterty=4", until="Did you mean Dexterity?", timeout=10)

        sheet = client.command("+sheet", until="Healthy", timeout=10)
        for words in (f"Sheet: {name}", "Dexterity ....", "Brawl", "Willpower 5/5",
                      "Blood 10/10", "Healthy"):
            assert words in sheet, sheet

        reply = client.command("+roll dex+brawl vs 7", until="=>", timeout=10)
        reply += client.read_available(0.3)
        reply = re.sub(r"\n +", " ", reply)  # a long roll line wraps at 78 columns (issue 11)
        m = ROLL.search(reply)
        assert m, reply
        assert m["terms"] == "Dexterity 3 + Brawl 2" and m["pool"] == "5" and m["diff"] == "7"
        faces = [int(f) for f in m["faces"].split()]
        assert len(faces) == 5
        successes, botch = recount(faces, 7)
        if m["outcome"] == "BOTCH":
            assert botch
        elif m["outcome"] == "failure":
            assert successes == 0 and not botch
        else:
            assert int(m["n"]) == successes

        bad = client.command("+roll banana vs 6", until="'banana' is not a trait", timeout=10)
        assert "Traceback" not in bad
        client.command("+roll 5 vs 14", until="Difficulty goes from 2 to 10", timeout=10)
