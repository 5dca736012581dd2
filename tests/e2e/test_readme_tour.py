"""The README's tour, typed line by line over telnet on the real server (issue 11): every
reply is not an error, no line a player reads is wider than 78 columns, and no rule ID or
source document reaches a player.

The lines come from README.md itself (``<who>> <command>   <comment>``), so the tour and
this test cannot drift apart. alice and bob get fresh names (the e2e tests share one
server). A fight is paced ahead by default (issue 28): declarations are typed in the
README's order, whoever's slot it is, as players pose; the game keeps each for its slot.
Dice are random, so an ``+combat/act`` line is typed when the game says it is that one's
turn; one whose slot never comes (the action resolved by itself, the NPC went down first)
is skipped and said in the transcript.
"""

import os
import re
import uuid

from tests.e2e import harness
from tests.e2e.harness import REPO_ROOT

TRANSCRIPT = "/tmp/readme_tour_transcript.txt"
LINE = re.compile(r"^(alice|bob|staff)> (\S.*?)(?:\s{2,}.*)?$")
ERRORS = ("Usage:", "unknown switch", "went wrong", "Traceback", "is not available")
# A refusal is red from its first character (|r, "ESC[31m"); a rolled 1 is red inside a
# line. The client keeps this invisible mark where red starts.
RED = "\u2063"
RULE_ID = re.compile(r"\b[A-Z]{3,5}-\d{2}\b|\bseed \d{3}")


def tour_lines() -> list[tuple[str, str]]:
    with open(os.path.join(REPO_ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    tour = text[text.index("## A short tour"):]
    tour = tour[:tour.index("\n## ", 5)]
    out = []
    for line in tour.splitlines():
        m = LINE.match(line)
        if m:
            out.append((m[1], m[2].strip()))
    return out


class Tour:
    def __init__(self, clients, names):
        self.clients, self.names = clients, names
        self.log: list[str] = []
        self.marks = 0

    def typed(self, line: str) -> str:
        for who in ("alice", "bob"):
            line = re.sub(rf"\b{who}\b", self.names[who], line)
        return line

    def send(self, who: str, line: str) -> str:
        """Type ``line`` as ``who``; everything they read until the game answered."""
        client = self.clients[who]
        line = self.typed(line)
        self.marks += 1
        mark = f"zztourmark{self.marks}"
        client.send(line)
        client.send(mark)  # an unknown command: its "not available" reply marks the end
        out = client.read_until(mark, timeout=20)
        out += client.read_until("available", timeout=20)
        reply = out[:out.rindex("Command")] if "Command" in out else out
        self.log.append(f"{who}> {line}\n{reply.strip()}\n")
        return reply

    def check(self, who: str, line: str) -> str:
        reply = self.send(who, line)
        if not line.startswith("help"):
            bad = [e for e in ERRORS if e in reply]
            bad += ["red reply"] if re.search(rf"(^|\n){RED}", reply) else []  # not a red 1
            assert not bad, f"{who}> {line} answered with an error ({bad}):\n{reply}"
        return reply

    def now(self) -> list[tuple[str, str]]:
        """(name, what) the fight waits for, from the organizer's +combat."""
        status = self.send("alice", "+combat")
        m = re.search(r"^ Now: (.+)$", status, re.M)
        return re.findall(r"(\S+) \((\w+)\)", m[1]) if m else []


def actor(who: str, line: str, names) -> str:
    """Whom a declare or act line is for: the NPC named before = or after /act, else the
    typist."""
    m = re.match(r"\+combat/declare (\w+)=", line) or re.match(r"\+combat/act (\w+)$", line)
    return m[1] if m else names[who]


def test_readme_tour(game_server, monkeypatch):
    plain = harness.strip_ansi
    monkeypatch.setattr(harness, "strip_ansi", lambda t: plain(t.replace("\x1b[31m", RED)))
    suffix = uuid.uuid4().hex[:4]
    names = {"alice": f"alice{suffix}", "bob": f"bob{suffix}"}
    lines = tour_lines()
    assert len(lines) > 30, lines
    with game_server.connect() as a, game_server.connect() as b, \
            game_server.connect() as staff:
        for c in (a, b, staff):
            c.read_until("connect", 20)
        staff.login(game_server.admin_user, game_server.admin_password, 20)
        tour = Tour({"alice": a, "bob": b, "staff": staff}, names)
        pending = {"act": []}  # declarations are typed at once: the pace is ahead
        for who, line in lines:
            if line.startswith(("create ", "connect ")):
                client = tour.clients[who]
                client.send(tour.typed(line))
                until = "was created" if line.startswith("create") else "You become"
                out = client.read_until(until, 20) + client.read_available(0.5)
                tour.log.append(f"{who}> {tour.typed(line)}\n{out.strip()}\n")
                assert "Traceback" not in out, out
                continue
            kind = next((k for k in pending if line.startswith(f"+combat/{k}")), None)
            if kind:  # typed when the game says it is that one's turn
                pending[kind].append((who, line))
                continue
            play_turn(tour, pending["act"], "act", names)
            tour.check(who, line)
        play_turn(tour, pending["act"], "act", names)
    with open(TRANSCRIPT, "w", encoding="utf-8") as f:
        f.write("\n".join(tour.log))
    seen = {"alice": a.transcript, "bob": b.transcript}
    # Paced ahead, nobody typed +combat/act: the declared attacks resolved by themselves.
    assert re.search(r"attacks (Thug|alice)", a.transcript), "no attack resolved by itself"
    for who, text in seen.items():
        wide = [line for line in text.replace(RED, "").splitlines() if len(line) > 78]
        assert not wide, f"{who} read lines wider than 78 columns:\n" + "\n".join(wide)
        assert not RULE_ID.findall(text), (who, RULE_ID.findall(text))


def play_turn(tour: Tour, lines: list, what: str, names) -> None:
    """Type each waiting line when the fight waits for its actor to ``what``."""
    for _ in range(3 * len(lines) + 2):
        if not lines:
            return
        waiting = dict((n.lower(), w) for n, w in tour.now())
        ready = [(who, line) for who, line in lines
                 if waiting.get(actor(who, line, names).lower()) == what]
        if not ready:
            break
        who, line = ready[0]
        lines.remove((who, line))
        tour.check(who, line)
    for who, line in lines:  # their slot never came (the NPC went down first ...)
        tour.log.append(f"{who}> {tour.typed(line)}\n(skipped: the game never asked)\n")
    lines.clear()
