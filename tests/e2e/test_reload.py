"""Issue 5: a combat survives ``evennia reload`` on the real server, over telnet.

The scene: the admin (organizer) and a player against an NPC. The server is reloaded once
during the declaration phase and once during the action phase; after each, ``+combat`` shows
exactly what it showed before (turn, phase, order, declarations, health), a reconnected
player sees it too, and the fight goes on. After the second reload a short idle timeout is
set and the game's clock, restarted by the reload, passes for whoever the turn waits for
(the timer survives the reload). The scene is finished with +combat/end.
Dice are random here: the driver asks +combat/slackers who the turn waits for.
Rule IDs: TURN-01, TURN-03 (declare low to high, act high to low), DEF-04 (idle default).
"""

import re
import time
import uuid

SLACK = re.compile(r"^\s*(\S+)\s+(?:\[NPC\])?\s*(initiative|declare|act)\s+waiting", re.M)


def wait_back(client, timeout=90):
    """After a reload: retry until the server answers a command again."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.send("+combat")
        try:
            return client.read_until("Organizer:", timeout=5)
        except (TimeoutError, AssertionError, Exception):  # server still restarting
            time.sleep(1)
    raise TimeoutError("the server did not answer after the reload")


def board(client) -> str:
    """The +combat display, without the header's line art (compared across reloads)."""
    out = client.command("+combat", until="Organizer:", timeout=15)
    out += client.read_available(0.6)
    lines = [ln.rstrip() for ln in out.splitlines() if ln.strip()]
    start = next(i for i, ln in enumerate(lines) if "Combat:" in ln)
    return "\n".join(lines[start:])


def pending(client):
    out = client.command("+combat/slackers", until="imeout", timeout=15)
    out += client.read_available(0.3)
    return SLACK.findall(out)


def step(a, b, admin, bob):
    """One command for the first one the turn waits for; False when nobody is waited for."""
    who = pending(a)
    if not who:
        return False
    name, what = who[0]
    if name == "Goon":
        line = {"declare": "+combat/declare Goon=dodge", "act": "+combat/act Goon",
                "initiative": "+combat/init Goon=4"}[what]
        client, until = a, "Goon"
    else:
        client = a if name.lower() == admin.lower() else b
        line = {"declare": "+combat/declare attack Goon",
                "act": "+combat/act", "initiative": "+combat/init"}[what]
        until = name
    out = client.command(line, until=until, timeout=15) + client.read_available(0.4)
    assert "Traceback" not in out and "went wrong" not in out, out
    return True


def test_combat_survives_reload(game_server):
    bob = "Rel" + uuid.uuid4().hex[:5]
    bob_pw = "pw-" + uuid.uuid4().hex[:10]
    admin = game_server.admin_user
    a = game_server.connect()
    b = game_server.connect()
    try:
        a.read_until("connect", 30)
        a.login(admin, game_server.admin_password, 30)
        b.create_and_login(bob, bob_pw, timeout=30)
        # a room of its own, so other e2e scenes in the session do not meet this fight
        room = "ReloadRoom" + uuid.uuid4().hex[:4]
        out = a.command(f"@dig {room}", until="Created", timeout=15)
        out += a.read_available(0.5)
        dbref = re.search(r"#(\d+)", out[out.index("Created"):]).group(1)
        a.command(f"@tel #{dbref}", until=room, timeout=15)
        a.send(f"@tel {bob}=#{dbref}")
        b.read_until(room, timeout=15)
        a.read_available(1.0)
        b.read_available(1.0)
        for line in ("+sheet/set dex=3", "+sheet/set wits=2", "+sheet/set brawl=2"):
            a.command(line, until="set to", timeout=15)
        for line in ("+sheet/set dex=2", "+sheet/set wits=2", "+sheet/set dodge=2"):
            b.command(line, until="set to", timeout=15)
        # slot by slot (the default is ahead): the act phase waits for each action typed
        a.command("+combat/start=slots", until="starts a fight", timeout=15)
        a.command("+combat/timeout 0", until="timeout", timeout=15)
        b.command("+combat/join", until="joins the fight", timeout=15)
        a.command("+combat/npc Goon=thug", until="Goon joins", timeout=15)
        a.command("+combat/init", until="rolls initiative", timeout=15)
        b.command("+combat/init", until="rolls initiative", timeout=15)
        a.command("+combat/init Goon=4", until="rolls initiative", timeout=15)
        a.command("+combat/next", until="declare phase", timeout=15)
        a.read_available(0.5)
        b.read_available(0.5)

        # ---- reload 1: during the declaration phase, one declaration made
        assert step(a, b, admin, bob)
        before = board(a)
        assert "declare phase" in before, before
        r = game_server.gamectl("reload", check=False, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        time.sleep(2)
        wait_back(a)
        a.read_available(1.0)
        assert board(a) == before
        # the player reconnects and sees the same fight
        b.close()
        b = game_server.connect()
        b.read_until("connect", 30)
        b.login(bob, bob_pw, 30)
        b.read_available(1.0)
        assert board(b).replace(bob, "X") == before.replace(bob, "X")

        # ---- into the action phase; reload 2 after the first action
        for _ in range(10):
            if "act phase" in board(a):
                break
            assert step(a, b, admin, bob)
        assert "act phase" in board(a)
        assert step(a, b, admin, bob)  # the first action
        before = board(a)
        assert "act phase" in before, before  # the other PC has still to act
        r = game_server.gamectl("reload", check=False, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        time.sleep(2)
        wait_back(a)
        a.read_available(1.0)
        assert board(a) == before

        # ---- the idle clock runs after the reload: a 2-second timeout passes for the
        # one the turn waits for, and the room is told
        assert pending(a)
        a.command("+combat/timeout 2", until="idle timeout", timeout=15)
        out = a.read_until("Time is up for", timeout=30)
        assert "Traceback" not in out
        a.command("+combat/timeout 0", until="timeout", timeout=15)

        # ---- finish the turn and the scene
        for _ in range(20):
            if "turn 2" in board(a):
                break
            step(a, b, admin, bob)
        assert "turn 2" in board(a)
        out = a.command("+combat/end", until="The fight is over", timeout=15)
        assert "Traceback" not in out
        a.command("+combat", until="no fight", timeout=15)
    finally:
        a.close()
        b.close()


def test_combat_survives_full_stop_and_start(game_server):
    """Issue 5: a full stop (portal and server processes gone) and a fresh start on the same
    game dir and database, in the action phase with declared actions still to resolve:
    +combat shows exactly the same turn, phase, order, declarations and health afterwards,
    for the organizer and for the player, and the fight finishes. TURN-01, TURN-03."""
    bob = "Stp" + uuid.uuid4().hex[:5]
    bob_pw = "pw-" + uuid.uuid4().hex[:10]
    admin = game_server.admin_user
    a = game_server.connect()
    b = game_server.connect()
    try:
        a.read_until("connect", 30)
        a.login(admin, game_server.admin_password, 30)
        b.create_and_login(bob, bob_pw, timeout=30)
        room = "StopRoom" + uuid.uuid4().hex[:4]
        out = a.command(f"@dig {room}", until="Created", timeout=15)
        out += a.read_available(0.5)
        dbref = re.search(r"#(\d+)", out[out.index("Created"):]).group(1)
        a.command(f"@tel #{dbref}", until=room, timeout=15)
        a.send(f"@tel {bob}=#{dbref}")
        b.read_until(room, timeout=15)
        a.read_available(1.0)
        b.read_available(1.0)
        for line in ("+sheet/set dex=3", "+sheet/set wits=2", "+sheet/set brawl=2"):
            a.command(line, until="set to", timeout=15)
        for line in ("+sheet/set dex=2", "+sheet/set wits=2", "+sheet/set dodge=2"):
            b.command(line, until="set to", timeout=15)
        # slot by slot (the default is ahead): the act phase waits for each action typed
        a.command("+combat/start=slots", until="starts a fight", timeout=15)
        a.command("+combat/timeout 0", until="timeout", timeout=15)
        b.command("+combat/join", until="joins the fight", timeout=15)
        a.command("+combat/npc Goon=thug", until="Goon joins", timeout=15)
        a.command("+combat/init", until="rolls initiative", timeout=15)
        b.command("+combat/init", until="rolls initiative", timeout=15)
        a.command("+combat/init Goon=4", until="rolls initiative", timeout=15)
        a.command("+combat/next", until="declare phase", timeout=15)
        a.read_available(0.5)
        b.read_available(0.5)

        # ---- every declaration made; the action phase waits for its first action
        for _ in range(10):
            if "act phase" in board(a):
                break
            assert step(a, b, admin, bob)
        before = board(a)
        assert "act phase" in before, before
        waiting = pending(a)
        assert waiting and waiting[0][1] == "act", waiting
        before_b = board(b)

        # ---- full stop, then start on the same game dir / DB / ports
        seconds = game_server.stop_and_start()
        print(f"\n[e2e] stop + start took {seconds:.1f} s")
        a = game_server.connect()
        a.read_until("connect", 30)
        a.login(admin, game_server.admin_password, 30)
        a.read_available(1.0)
        assert board(a) == before
        assert pending(a) == waiting
        b = game_server.connect()
        b.read_until("connect", 30)
        b.login(bob, bob_pw, 30)
        b.read_available(1.0)
        assert board(b) == before_b

        # ---- finish the turn and the scene
        for _ in range(20):
            if "turn 2" in board(a):
                break
            step(a, b, admin, bob)
        assert "turn 2" in board(a)
        out = a.command("+combat/end", until="The fight is over", timeout=15)
        assert "Traceback" not in out
        a.command("+combat", until="no fight", timeout=15)
    finally:
        a.close()
        b.close()
