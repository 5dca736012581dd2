"""Everything a player and a staff member read over a real telnet connection fits 78
columns, and no player reads a rule ID (issue 11, "Done when"): every command of
``help +combat`` and its topic pages (the Examples of ``help +combat/examples``, typed
by the organizer in a running fight), ``+sheet``,
``+rules`` (and /list, /weapons, /armor), ``+combat``, ``+combat/log`` and the error
replies of the issue's syntax traps. ``+rules`` is the admins' view of the catalog and may
show rule IDs; nothing else may. The telnet client strips ANSI and telnet codes, so a line's
length is its visible width (less the blanks Evennia pads its help Subtopics grid
with, which show nothing). Transcript: /tmp/output_width_transcript.txt.
"""

import re
import uuid

from tests.e2e.test_ahead_fight import Table

MARK = "zzwidthmark"

TRANSCRIPT = "/tmp/output_width_transcript.txt"
RULE_ID = re.compile(r"\b[A-Z]{3,5}-\d{2}\b|\bseed \d{3}")
WIDTH = 78

PLAYER_LINES = (
    "help +combat", "help +sheet", "help +roll", "help +rules", "help",
    "help +combat/declare", "help +combat/turn", "help +combat/start", "help +combat/staff",
    "help +combat/ranges", "help +combat/spotlight", "help +combat/examples",
    "+sheet", "+rules", "+rules/list", "+rules/weapons", "+rules/armor", "+combat",
    "+roll dex+brawl", "+sheet/set splat=werewolf", "+sheet/set splat=vampire",
    "+sheet/set dex=3", "+sheet/set bogus=3", "+sheet/set", "+roll", "+roll dex+nothing",
    "+combat/atack Thug", "+combat/bogus",
)
# The syntax traps and refusals of issue 11, typed in a running fight.
FIGHT_ERRORS = (
    "+combat/start=simple", "+combat/declare attack", "+combat/declare atack Thug",
    "+combat/declare attack Nobody", "+combat/act", "+combat/delay", "+combat/log lots",
    "+combat/init Thug=4", "+combat/declare attack Thug with sword",
)
STAFF_ERRORS = ("+combat/mod Thug=sleepy", 'combat/mod Thug=prone";;;',
                "+combat/damage Thug=lots", "+combat/range Thug=far", "+combat/kick Nobody")


def examples(help_text: str) -> list[str]:
    """The command lines under Examples: in ``help +combat/examples``."""
    part = help_text[help_text.index("Examples:"):]
    return re.findall(r"^\s+(\+combat\S*(?: .*)?)$", part, re.M)


PAGE = re.compile(r"\(Page \[(\d+)/(\d+)\][^\n]*")


def paged(table: Table, who: str, line: str) -> str:
    """A reply Evennia shows page by page (long help): every page, then quit the pager."""
    client = table.clients[who]
    client.send(line)
    out = ""
    while True:
        text, m = client._wait(PAGE, 30)
        out += text
        client.send("next")
        if int(m[1]) + 1 >= int(m[2]):  # the last page ends the pager by itself
            break
    client.send(MARK)
    out += client.read_until(MARK, 30)
    out += client.read_until("available", 30)
    table.lines.append(f"{who}> {line} (every page)\n{out.strip()}\n")
    assert "Traceback" not in out and "went wrong" not in out, out
    return out


def test_every_reply_fits_78_columns_and_names_no_rule(game_server):
    name = "wid" + uuid.uuid4().hex[:5]
    with game_server.connect() as p, game_server.connect() as s:
        s.read_until("connect", 20)
        s.login(game_server.admin_user, game_server.admin_password, 20)
        p.create_and_login(name, "pw-" + uuid.uuid4().hex[:10], timeout=20)
        table = Table({"player": p, "staff": s})
        player = {}  # line -> reply, what the player read
        for line in PLAYER_LINES:
            player[line] = table.say("player", line)
            if PAGE.search(player[line]):
                player[line] = paged(table, "player", line)
        with open(TRANSCRIPT, "w", encoding="utf-8") as fh:
            fh.write("\n".join(table.lines))
        typed = examples(player["help +combat/examples"])
        assert len(typed) > 30, typed
        table.say("staff", "+combat/start")
        player["+combat/join"] = table.say("player", "+combat/join")
        table.say("staff", "+combat/npc Thug=thug")
        for line in FIGHT_ERRORS:
            player[line] = table.say("player", line)
        for line in (*typed, *STAFF_ERRORS, "+rules numetal", "+rules numetal=DMG"):
            table.say("staff", line)
        for line in ("+combat", "+combat/log 50", "+combat/slackers", "+sheet"):
            player[line] = table.say("player", line)
        table.say("staff", "+combat/end")
        with open(TRANSCRIPT, "w", encoding="utf-8") as fh:
            fh.write("\n".join(table.lines))
        read = {"player": p.transcript, "staff": s.transcript}
        rules_free = p.transcript
    for who, text in read.items():
        wide = [ln for ln in text.splitlines() if len(ln.rstrip()) > WIDTH]
        assert not wide, f"{who} read lines wider than {WIDTH} columns:\n" + "\n".join(wide)
    named = {line: RULE_ID.findall(reply) for line, reply in player.items()
             if not line.startswith("+rules")}
    assert not {k: v for k, v in named.items() if v}, named
    # what the player read while staff typed (room messages of every Example) counts too
    for line, reply in player.items():
        if line.startswith("+rules"):
            rules_free = rules_free.replace(reply, "")
    assert not RULE_ID.findall(rules_free), RULE_ID.findall(rules_free)
