"""Issue 14: after a crash (kill -9 of the Server and Portal) a running fight's clock ticks
again, and an idle deadline that passed while the game was down is applied once, at once.
DEF-04 / TURN-01: the declaring NPC gets the ruleset's idle default."""

import re
import time
import uuid


def test_idle_deadline_passed_while_crashed_is_applied_after_restart(game_server):
    admin = game_server.admin_user
    a = game_server.connect()
    try:
        a.read_until("connect", 30)
        a.login(admin, game_server.admin_password, 30)
        room = "CrashRoom" + uuid.uuid4().hex[:4]
        out = a.command(f"@dig {room}", until="Created", timeout=15) + a.read_available(0.5)
        dbref = re.search(r"#(\d+)", out[out.index("Created"):]).group(1)
        a.command(f"@tel #{dbref}", until=room, timeout=15)
        a.read_available(0.5)
        a.command("+combat/start", until="starts a fight", timeout=15)
        a.command("+combat/npc Goon=thug", until="Goon joins", timeout=15)
        a.command("+combat/init", until="rolls initiative", timeout=15)
        a.command("+combat/init Goon=1", until="rolls initiative", timeout=15)
        a.command("+combat/next", until="declare phase", timeout=15)
        a.command("+combat/timeout 4", until="idle timeout", timeout=15)
        out = a.command("+combat/slackers", until="imeout", timeout=15)
        if "Goon" not in out:  # the admin's random initiative is the lower: declare first
            a.command("+combat/declare pass", until="Goon", timeout=15)
            out = a.command("+combat/slackers", until="imeout", timeout=15)
        assert "Goon" in out and "declare" in out, out
    finally:
        a.close()

    seconds = game_server.crash_and_start(down=5)  # the 4 s deadline passes while down
    print(f"\n[e2e] restart after kill -9 took {seconds:.1f} s")
    a = game_server.connect()
    try:
        a.read_until("connect", 30)
        a.login(admin, game_server.admin_password, 30)
        a.read_available(1.0)
        deadline = time.monotonic() + 30
        log = ""
        while time.monotonic() < deadline:
            log = a.command("+combat/log 30", until="Combat log", timeout=15)
            log += a.read_available(0.5)
            if "Time is up for Goon" in log:
                break
            time.sleep(1)
        assert "Time is up for Goon (declare)" in log, log
        assert log.count("Time is up for Goon") == 1, log
        a.command("+combat/end", until="The fight is over", timeout=15)
    finally:
        a.close()


def test_play_status_and_start_tell_the_truth_after_a_server_crash(game_server):
    """Issue 14: after a Server-only crash, status names the dead process and start says it
    started it again (not "already running")."""
    import os
    import signal

    with open(os.path.join(game_server.gamedir, "server", "server.pid")) as fh:
        os.kill(int(fh.read().strip()), signal.SIGKILL)
    time.sleep(1)
    out = game_server.gamectl("status", check=False).stdout
    assert "Portal: running" in out and "Server: NOT RUNNING" in out, out
    out = game_server.gamectl("start", check=False, timeout=120).stdout
    assert "the Server had stopped and was started again" in out, out
    game_server.wait_for_telnet()
    out = game_server.gamectl("status", check=False).stdout
    assert "Portal: running" in out and "Server: running" in out, out
