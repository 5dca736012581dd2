"""A whole fight paced ahead over telnet (issue 11, "Done when"): two players and a staff
member with three NPCs; everyone types their declaration as soon as the turn opens, the
staff member accepts the NPCs' template defaults with one line (+combat/declare/auto), and
nobody types +combat/act: the game reveals declarations low to high (TURN-01) and resolves
actions high to low (TURN-03) by itself, turn after turn, until staff end the fight.

The same people then play a fight slot by slot (each typing when the game says so, with
+combat/act), and both logs pass the same checks: declarations low to high and actions
high to low in each turn's logged order, every declared action resolved once, every roll
recounted from its faces, and the JSONL replays to the same events (bin/replay's check).
Dice are random here: the checks are structural. Transcript: /tmp/ahead_fight_transcript.txt.
"""

import glob
import json
import os
import pathlib
import re
import uuid

from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.world import combat_replay

TRANSCRIPT = "/tmp/ahead_fight_transcript.txt"
RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"
RATS = ("Rat1", "Rat2", "Rat3")
DOWN = ("Incapacitated", "(DEAD", "(TORPOR", "(UNCONSCIOUS")
TURNS = 3
MARK = "zzaheadmark"


class Table:
    """The three people at the keyboard, and what each read."""

    def __init__(self, clients: dict):
        self.clients = clients
        self.lines: list[str] = []
        self.marks = 0

    def say(self, who: str, line: str) -> str:
        """Type ``line`` as ``who``; everything they read until the game answered."""
        client = self.clients[who]
        self.marks += 1
        mark = f"{MARK}{self.marks}"
        client.send(line)
        client.send(mark)  # an unknown command: its reply marks the end of the answer
        out = client.read_until(mark, timeout=30)
        out += client.read_until("available", timeout=30)
        out = out[:out.rindex("Command")] if "Command" in out else out
        self.lines.append(f"{who}> {line}\n{out.strip()}\n")
        assert "Traceback" not in out and "went wrong" not in out, out
        return out

    def status(self) -> tuple[int, str, list[tuple[str, str]], str]:
        """(turn, phase, [(name, what) the fight waits for], the whole screen)."""
        out = self.say("staff", "+combat")
        m = re.search(r"turn (\d+), (\w+) phase", out)
        assert m, out
        now = re.search(r"^ Now: (.+)$", out, re.M)
        waiting = re.findall(r"(\S+) \((\w+)\)", now[1]) if now else []
        return int(m[1]), m[2], waiting, out


def standing_rats(screen: str) -> list[str]:
    rows = {r: next((ln for ln in screen.splitlines() if f" {r} " in ln), "") for r in RATS}
    return [r for r, row in rows.items() if row and not any(d in row for d in DOWN)]


def set_up(table: Table, names: dict, options: str) -> None:
    table.say("staff", f"+combat/start {options}".rstrip())
    for who in ("alice", "bob"):
        assert "joins" in table.say(who, "+combat/join")
    assert "Rat3 joins" in table.say("staff", "+combat/npc 3 Rat=thug")
    for rat in RATS:  # the staff member stands back: the Rats go for the nearest player
        table.say("staff", f"+combat/range {rat}/{names['staff']}=30")
    for who in ("staff", "alice", "bob"):
        assert "initiative" in table.say(who, "+combat/init")
    assert "Rat3 rolls initiative" in table.say("staff", "+combat/init Rat1,Rat2,Rat3=4")
    table.say("staff", "+combat/next")


def declarations(table: Table, names: dict, rats: list[str]) -> dict:
    """What each of the three declares this turn: alice the first Rat standing, bob the
    last, the staff member watches."""
    return {"alice": f"+combat/declare attack {rats[0]}",
            "bob": f"+combat/declare attack {rats[-1]}",
            "staff": "+combat/declare other directs the rats"}


def play_ahead(table: Table, names: dict) -> None:
    """Everyone types at once when the turn opens; nobody types +combat/act."""
    set_up(table, names, "=ahead")
    for turn in range(1, TURNS + 1):
        t, phase, _, screen = table.status()
        assert (t, phase) == (turn, "declare"), screen
        rats = standing_rats(screen)
        if not rats:
            break
        # Highest initiative first (the status lists them so): everyone but the lowest types
        # before their slot, whatever the initiative dice gave.
        order = sorted(declarations(table, names, rats).items(),
                       key=lambda kv: screen.find(f" {names[kv[0]]} "))
        for who, line in order:
            reply = table.say(who, line)
            assert re.search(r"declared ahead|declares:|cannot|out of action|is down",
                             reply), reply
        table.say("staff", "+combat/declare/auto")
        t, phase, waiting, screen = table.status()
        # Nothing is left to choose: the whole turn resolved by itself.
        assert (t, phase) == (turn + 1, "declare"), screen
    log = table.say("staff", "+combat/log 40")
    assert "Combat log" in log and not re.search(r"#\d+", log), log
    assert "Fight summary" in table.say("staff", "+combat/end")


def play_slot_by_slot(table: Table, names: dict, turns: int = 2) -> None:
    """The same fight slot by slot (=slots; the default is ahead): each types when the
    game says it is their turn."""
    set_up(table, names, "=slots")
    who_is = {names["alice"]: "alice", names["bob"]: "bob", names["staff"]: "staff"}
    for turn in range(1, turns + 1):
        lines = None
        for _ in range(30):
            t, phase, waiting, screen = table.status()
            if t > turn:
                break
            lines = lines or declarations(table, names, standing_rats(screen) or ["Rat1"])
            if not waiting:
                table.say("staff", "+combat/next")
                continue
            name, what = waiting[0]
            if name in RATS:
                table.say("staff", "+combat/declare/auto" if what == "declare"
                          else f"+combat/act {name}")
            else:
                who = who_is[name]
                table.say(who, lines[who] if what == "declare" else "+combat/act")
        else:
            raise AssertionError("the turn did not end:\n" + "\n".join(table.lines[-8:]))
    assert "Fight summary" in table.say("staff", "+combat/end")


# ---------------------------------------------------------------- the log's checks


def recount(r) -> int:
    hits = sum((2 if r["specialty"] and f == 10 else 1) for f in r["faces"]
               if f >= r["difficulty"])
    return max(0, hits - r["faces"].count(1)) + (1 if r["willpower"] else 0)


def check_log(recs: list[dict]) -> dict:
    """The checks a fight's JSONL passes however it was typed. Returns counts."""
    seqs = [r["seq"] for r in recs]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    for r in recs:
        if r["event"] == "roll":  # DICE-02: every result recomputed from its faces
            assert r["pool"] == len(r["faces"]) and r["successes"] == recount(r), r
    turns = sorted({r["turn"] for r in recs if r["event"] == "declare"})
    declared = acted = 0
    for turn in turns:
        of_turn = [r for r in recs if r["turn"] == turn]
        order = {}  # phase -> {key: slot index}, from the order the phase logged
        for r in of_turn:
            if r["event"] == "phase" and r["phase"] in ("declare", "act"):
                order[r["phase"]] = {k: i for i, slot in enumerate(r["order"])
                                     for k in slot["keys"]}
        decl = [r for r in of_turn if r["event"] == "declare"]
        acts = [r for r in of_turn if r["event"] == "act" and r["phase"] == "act"]
        # TURN-01 low to high, TURN-03 high to low: the slots never go back
        slots = [order["declare"][r["actor"]] for r in decl]
        assert slots == sorted(slots), (turn, decl)
        slots = [order["act"][r["actor"]] for r in acts]
        assert slots == sorted(slots), (turn, acts)
        done = [(r["actor"], r["index"]) for r in acts]
        assert len(done) == len(set(done)), f"turn {turn}: an action resolved twice {done}"
        fell = {r["actor"] for r in of_turn if r["event"] == "outcome"
                and r["outcome"] not in ("ok", "")}
        for d in decl:
            for i, a in enumerate(d["actions"]):
                if a["kind"] in ("attack", "other"):
                    declared += 1
                    if (d["actor"], i) in done:
                        acted += 1
                    elif turn < turns[-1]:  # the last turn may end before its actions
                        assert d["actor"] in fell, f"turn {turn}: {d} never resolved"
    assert declared and acted, "nothing was declared and resolved"
    return {"turns": len(turns), "declared": declared, "acted": acted}


def replays(recs: list[dict]) -> None:
    cache = {}
    report = combat_replay.replay(
        recs, lambda name: cache.setdefault(name, load_ruleset(RULES, name)))
    assert report.ok, report.difference


def new_log(pattern: str, earlier: set) -> list[dict]:
    files = sorted(set(glob.glob(pattern)) - earlier)
    assert len(files) == 1, files
    earlier.update(files)
    return [json.loads(line) for line in open(files[0]) if line.strip()]


def test_whole_fight_ahead_nobody_acts(game_server):
    logs = os.path.join(game_server.gamedir, "server", "logs", "combat", "*.jsonl")
    earlier = set(glob.glob(logs))  # the tests share one server: other fights' logs
    suffix = uuid.uuid4().hex[:4]
    names = {"alice": f"alice{suffix}", "bob": f"bob{suffix}", "staff": game_server.admin_user}
    with game_server.connect() as a, game_server.connect() as b, \
            game_server.connect() as s:
        s.read_until("connect", 20)
        s.login(game_server.admin_user, game_server.admin_password, 20)
        for c, who in ((a, "alice"), (b, "bob")):
            c.create_and_login(names[who], "pw-" + uuid.uuid4().hex[:10], timeout=20)
        table = Table({"alice": a, "bob": b, "staff": s})
        for who in ("alice", "bob"):  # vampires soak the Rats' knives (lethal)
            for line in ("splat=vampire", "str=3", "dex=3", "wits=3", "brawl=3",
                         "stamina=4"):
                table.say(who, f"+sheet/set {line}")
        try:
            play_ahead(table, names)
            ahead = new_log(logs, earlier)
            for who in ("alice", "bob"):  # staff put the players back on their feet
                table.say("staff", f"+sheet/revive {names[who]}")
                for kind in ("aggravated", "lethal", "bashing"):
                    table.say("staff", f"+sheet/heal {names[who]}=7 {kind}")
            play_slot_by_slot(table, names)
            slot = new_log(logs, earlier)
        finally:
            with open(TRANSCRIPT, "w", encoding="utf-8") as fh:
                fh.write("\n".join(table.lines))
    typed = [r["intent"]["intent"] for r in ahead if r["event"] == "intent"]
    assert "act" not in typed, "someone typed +combat/act"
    assert [r for r in ahead if r["event"] == "ahead"], "nothing was entered ahead"
    assert "act" in [r["intent"]["intent"] for r in slot if r["event"] == "intent"]
    everyone = {names["alice"], names["bob"], names["staff"], *RATS}
    for recs in (ahead, slot):  # in turn 1 all six declared
        named = {r["actor"]: r["name"] for r in recs if r["event"] == "join"}
        first = {named[r["actor"]] for r in recs if r["event"] == "declare" and r["turn"] == 1}
        assert first == everyone, first
    counts = check_log(ahead)
    assert counts["turns"] >= 1, counts
    check_log(slot)
    assert [r for r in ahead if r["event"] == "summary"]
    replays(ahead)
    replays(slot)
