"""Issue 14, fault test: kill -9 the Server mid-command at random points and check, after
every restart, that the fight's state, every sheet, the log rows and the JSONL export agree;
finally, that an idle fight gets its timeout after a crash.

The scene: the admin and an NPC (Goon) in a fight in a fresh room. Each round sends one
command that writes (a declaration or an action for whoever the turn waits for,
``+combat/next``, ``+combat/damage``/``+combat/heal`` on Goon) and kills the **Server
process only** (``server/server.pid``; the Portal stays up) after a random delay, so the
kill lands before, during or after the command's commit. A command commits within a few ms
of being sent here, so half the delays are drawn from 0-6 ms (that window) and the others
from 0-80 ms; the test prints how many kills landed before and after the commit.
``bin/gamectl.py start`` then starts the Server again (the Portal is still running) and the
checks run:

* read straight from the SQLite file (no game cache involved): the fight's state (its newest
  ``CombatRecord`` row's; the Script's ``state`` Attribute before the first), the rows and
  the sheets. The last row's intent (or undo) ``digest`` is the fingerprint of the stored
  state; the rows' seqs run 1, 2, 3... with no gap or overlap; the JSONL export holds
  exactly a prefix of the rows' records (the export is written at the fight's clock tick
  after the commits, so a kill may leave it behind, never ahead and never with a record the
  rows do not have);
* inside the server (``py``): ``wodcombat.world.combat_replay.replay`` over the rows reports ok, and
  re-applying every logged intent gives, for every sheet the fight changed, the sheet that
  is stored now (compared in the test with the SQLite copy) and the sheet the next command
  read;
* then one more command is run to completion (no kill) and the export must then EQUAL the
  rows once the fight's clock has ticked (the export is appended to at the tick; one that is
  behind is rebuilt from the rows, ``combatlog.export``).

Last, with ``+combat/timeout 4`` set while the fight waits for someone, the Server is killed,
stays down 5 s (the deadline passes meanwhile) and is started again: the timeout is applied
once ("Time is up for" once in ``+combat/log``), and the checks above hold again.

``WOD_FAULT_KILLS`` sets the number of kills (default 20); ``WOD_FAULT_SEED`` the random seed
(printed, so a failing run can be repeated).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import random
import re
import signal
import sqlite3
import time
import uuid
from base64 import b64decode

import pytest

EXPORT_TICK = 2  # s: the combat clock's tick, when each fight's export is appended to
SLACK = re.compile(r"^\s*(\S+)\s+(?:\[NPC\])?\s*(initiative|declare|act)\s+waiting", re.M)

# Run inside the server with `py`: replay the rows, and re-apply every logged intent to find
# what each sheet the fight changed must be now. Prints one line: FAULTCHECK <json>.
_SERVER_CHECK = r'''
import json as _j
from wodcombat.world import combat_replay as _cr, combatlog as _cl, rulebook as _rb
from wodcombat.combat.core import intents as _it
from wodcombat.combat.core.dice_log import ReplayDice as _RD
from wodcombat.combat.core.engine import engine_of_state as _eos
from wodcombat.combat.core.sheet import Sheet as _Sh
def _faultcheck(cid):
    recs = _cl.read(cid)
    out = {"records": len(recs)}
    rep = _cr.replay(recs, _rb.get)
    out["replay_ok"] = rep.ok
    out["replay_commands"] = rep.commands
    out["replay_difference"] = None if rep.ok else str(rep.difference)
    start = next(r for r in recs if r["event"] == "start")
    rules = _rb.get(start["ruleset"])
    engine = _eos(start["state"])
    state = engine.load(start["state"])
    expected, chain, carried = {}, [], {}
    for n, (pre, asked, logged) in enumerate(_cr._commands(recs), 1):
        if asked["event"] != "intent":
            out["undo_seen"] = True
            break
        for k, v in asked.get("sheets", {}).items():
            if k in expected and _j.loads(_j.dumps(v)) != expected[k]:
                chain.append("command %d (seq %s) read %s as %s, the fight had left it %s"
                             % (n, asked["seq"], k, v, expected[k]))
        sheets = _cr.sheets_read(asked, carried)  # those logged, the rest carried forward
        res = engine.apply(state, _it.from_dict(asked["intent"]), sheets, rules,
                           _RD(asked.get("dice", ())))
        _cr.carry_changes(carried, res.sheet_changes)
        for k, s in res.sheet_changes.items():
            expected[k] = _j.loads(_j.dumps(s.to_dict()))
        state = engine.stamp(res.state, asked.get("timeout"), asked.get("now", 0.0))
    out["chain"] = chain
    out["sheets"] = expected
    print("FAULTCHECK " + _j.dumps(out))
_faultcheck(__CID__)
'''


# --------------------------------------------------------------------------- helpers


def login(server, timeout=90):
    """A fresh connection, logged in as the admin (retried while the Server comes back)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        c = server.connect()
        try:
            c.read_until("connect", 15)
            c.login(server.admin_user, server.admin_password, 15)
            c.read_available(0.5)
            return c
        except (OSError, TimeoutError, ConnectionError) as err:
            last = err
            c.close()
            time.sleep(1)
    raise TimeoutError(f"could not log in again: {last}\n{server.log_tail()}")


def pending(client):
    out = client.command("+combat/slackers", until="imeout", timeout=15)
    out += client.read_available(0.3)
    return SLACK.findall(out)


def next_command(client, admin: str, n: int) -> str:
    """A command that writes, for where the fight stands now."""
    if n % 4 == 1:
        return "+combat/damage Goon=1 bashing"
    if n % 4 == 3:
        return "+combat/heal Goon=1 bashing"
    who = pending(client)
    if not who:
        return "+combat/next"
    name, what = who[0]
    if name == "Goon":
        return {"declare": "+combat/declare Goon=dodge", "act": "+combat/act Goon",
                "initiative": "+combat/init Goon=4"}[what]
    return {"declare": "+combat/declare attack Goon", "act": "+combat/act",
            "initiative": "+combat/init"}[what]


def server_pid(server) -> int:
    with open(os.path.join(server.gamedir, "server", "server.pid")) as fh:
        return int(fh.read().strip())


def kill_server(server) -> None:
    pid = server_pid(server)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise RuntimeError(f"the Server (pid {pid}) outlived kill -9")


def restart_server(server) -> float:
    t0 = time.monotonic()
    r = server.gamectl("start", check=False, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr + server.log_tail()
    server.wait_for_telnet(timeout=90)
    return time.monotonic() - t0


# -- reading the database directly


def _unpickle(value):
    return pickle.loads(b64decode(value))


def _plain(value):
    return json.loads(json.dumps(value, default=list))


class Db:
    """Read-only view of the test server's SQLite file (no Evennia, no caches)."""

    def __init__(self, path: str):
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)

    def close(self):
        self.conn.close()

    def script_state(self, room_id: int) -> str:
        rows = self.conn.execute(
            "SELECT a.db_value FROM scripts_scriptdb s "
            "JOIN scripts_scriptdb_db_attributes sa ON sa.scriptdb_id = s.id "
            "JOIN typeclasses_attribute a ON a.id = sa.attribute_id "
            "WHERE s.db_key = 'wod_combat' AND s.db_obj_id = ? AND a.db_key = 'state'",
            (room_id,)).fetchall()
        assert len(rows) == 1, f"expected one fight state in room #{room_id}, got {len(rows)}"
        started = _unpickle(rows[0][0])  # the state the fight started with
        # issue 13: the newest log rows keep the fight's state: the last whole one and the
        # changes after it (wodcombat/world/state_text.py), read back as combatlog.state_before does
        from wodcombat.world.state_text import read_back

        return read_back(text for (text,) in self.conn.execute(
            "SELECT state FROM wodcombat_combatrecord WHERE combat = ? AND state != '' "
            "ORDER BY last_seq DESC", (json.loads(started)["id"],))) or started

    def rows(self, combat_id: str) -> list[tuple]:
        return self.conn.execute(
            "SELECT first_seq, last_seq, records, undo FROM wodcombat_combatrecord "
            "WHERE combat = ? ORDER BY first_seq", (combat_id,)).fetchall()

    def sheet(self, obj_id: int):
        # issue 32: the sheet's JSON text in the plugin's own table (TableSheet)
        rows = self.conn.execute(
            "SELECT text FROM wodcombat_combatsheet WHERE obj_id = ?", (obj_id,)).fetchall()
        assert len(rows) <= 1, rows
        return json.loads(rows[0][0]) if rows else None


def export_records(server, combat_id: str) -> tuple[list[dict], str]:
    """(the complete lines of the JSONL export, the torn tail if any)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", combat_id)
    path = os.path.join(server.gamedir, "server", "logs", "combat", safe + ".jsonl")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        return [], ""
    lines = text.split("\n")
    tail = lines.pop()  # "" when the file ends with a newline
    return [json.loads(ln) for ln in lines if ln.strip()], tail


def check_store(server, room_id: int, where: str, export_exact: bool) -> tuple[str, list]:
    """The checks on the raw database and the export. Returns (combat id, records)."""
    db = Db(server.env["WOD_DB_PATH"])
    try:
        stored = db.script_state(room_id)
        state = json.loads(stored)
        cid = state["id"]
        rows = db.rows(cid)
    finally:
        db.close()
    assert rows, f"{where}: no log rows for {cid}"
    # (2) contiguous seqs: rows and the records inside them
    records = []
    expect = 1
    for first, last, recs, _undo in rows:
        recs = json.loads(recs)
        assert first == expect and last >= first, f"{where}: row {first}-{last}, expected {expect}"
        assert [r["seq"] for r in recs] == list(range(first, last + 1)), f"{where}: row seqs"
        records.extend(recs)
        expect = last + 1
    # (1) the last command's digest is the stored state's
    last_recs = json.loads(rows[-1][2])
    head = [r for r in last_recs if r["event"] in ("intent", "undo") and "digest" in r]
    assert head, f"{where}: the last row has no intent/undo with a digest: {last_recs}"
    mine = hashlib.sha1(stored.encode()).hexdigest()[:16]
    assert head[-1]["digest"] == mine, (
        f"{where}: the stored state (digest {mine}) is not the one the last row "
        f"(seq {rows[-1][0]}-{rows[-1][1]}) committed (digest {head[-1]['digest']})")
    # (4) the export: a prefix of the rows (never ahead), or equal when exact. It is
    # appended to at the fight's clock tick (every 2 s), so an exact check waits for one;
    # after a kill it may be behind by what the last tick had not written yet.
    deadline = time.monotonic() + (3 * EXPORT_TICK if export_exact else 0)
    while True:
        exported, tail = export_records(server, cid)
        assert exported == records[: len(exported)], (
            f"{where}: the export differs from the rows")
        if not export_exact or (not tail and exported == records):
            break
        assert time.monotonic() < deadline, (
            f"{where}: the export has {len(exported)} records (torn tail {tail!r}), "
            f"the rows {len(records)}")
        time.sleep(0.2)
    return cid, records


def count_records(server, room_id: int) -> int:
    db = Db(server.env["WOD_DB_PATH"])
    try:
        cid = json.loads(db.script_state(room_id))["id"]
        rows = db.rows(cid)
        return rows[-1][1] if rows else 0
    finally:
        db.close()


def write_completely(client, server, room_id: int, line: str, had: int) -> bool:
    """Run ``line`` to the end; True if it wrote a row (the rows grew past ``had``)."""
    client.send(line)
    client.read_available(1.0)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if count_records(server, room_id) > had:
            client.read_available(0.3)
            return True
        time.sleep(0.2)
    return False


def check_in_server(client, server, cid: str, where: str) -> dict:
    """(3) replay over the rows is ok, and every sheet the fight changed is stored as the
    re-applied intents leave it."""
    code = _SERVER_CHECK.replace("__CID__", repr(cid))
    line = "py import base64; exec(base64.b64decode('%s').decode(), {})" % (
        base64.b64encode(code.encode()).decode())
    client.send(line)
    m = client.expect(r"FAULTCHECK (\{.*\})\n", timeout=60)
    out = json.loads(m.group(1))
    assert out["replay_ok"], f"{where}: replay differs: {out['replay_difference']}"
    assert not out["chain"], f"{where}: sheets read do not follow: {out['chain']}"
    db = Db(server.env["WOD_DB_PATH"])
    try:
        for key, sheet in out["sheets"].items():
            stored = db.sheet(int(key.lstrip("#")))
            assert stored == sheet, (
                f"{where}: the stored sheet of {key} is not what the logged commands "
                f"left:\n  stored:   {stored}\n  replayed: {sheet}")
    finally:
        db.close()
    return out


def check_all(client, server, room_id, where, export_exact):
    cid, records = check_store(server, room_id, where, export_exact)
    check_in_server(client, server, cid, where)
    return cid, records


# --------------------------------------------------------------------------- the test


def test_kill_9_mid_command_keeps_state_sheets_rows_and_export_in_agreement(game_server):
    if game_server.env.get("WOD_DATABASE_URL"):
        pytest.skip("reads the SQLite file directly; this run's server is on PostgreSQL")
    try:
        _scene(game_server)
    finally:  # never leave the shared session server down for the tests after this one
        try:
            os.kill(server_pid(game_server), 0)
        except (OSError, ValueError):
            restart_server(game_server)


def _scene(server):
    kills = int(os.environ.get("WOD_FAULT_KILLS") or 20)
    seed = int(os.environ.get("WOD_FAULT_SEED") or random.randrange(1 << 30))
    rnd = random.Random(seed)
    print(f"\n[e2e] fault test: {kills} kills, WOD_FAULT_SEED={seed}")
    admin = server.admin_user
    t_start = time.monotonic()

    a = login(server)
    room = "FaultRoom" + uuid.uuid4().hex[:4]
    out = a.command(f"@dig {room}", until="Created", timeout=15) + a.read_available(0.5)
    room_id = int(re.search(r"#(\d+)", out[out.index("Created"):]).group(1))
    a.command(f"@tel #{room_id}", until=room, timeout=15)
    a.read_available(0.5)
    a.command("+combat/start", until="starts a fight", timeout=15)
    a.command("+combat/timeout 0", until="timeout", timeout=15)
    a.command("+combat/npc Goon=thug", until="Goon joins", timeout=15)
    a.command("+combat/init", until="rolls initiative", timeout=15)
    a.command("+combat/init Goon=4", until="rolls initiative", timeout=15)
    a.command("+combat/next", until="declare phase", timeout=15)
    a.read_available(0.5)
    check_all(a, server, room_id, "before any kill", export_exact=True)

    landed = {"before": 0, "after": 0, "export behind": 0}  # did the killed command commit?
    restarts = []
    timing = []  # (delay ms, [intent time - kill time]) per kill
    for n in range(kills):
        _, before = check_store(server, room_id, f"kill {n + 1}: before", export_exact=True)
        line = next_command(a, admin, n)
        # A command commits a few ms after it is sent on this machine: half the kills
        # aim at that window (0-6 ms), the others anywhere in 0-80 ms.
        delay = rnd.uniform(0.0, 0.006 if rnd.random() < 0.5 else 0.080)
        a.send(line)
        if delay >= 0.001:
            time.sleep(delay)
        killed_at = time.time()
        kill_server(server)
        a.close()
        restarts.append(restart_server(server))
        a = login(server)
        where = f"kill {n + 1} ({line!r} after {delay * 1000:.0f} ms)"
        _, after = check_all(a, server, room_id, where, export_exact=False)
        landed["after" if len(after) > len(before) else "before"] += 1
        exported, tail = export_records(server, after[0]["combat"])
        if len(exported) < len(after) or tail:
            landed["export behind"] += 1
        new = [r for r in after[len(before):] if r["event"] == "intent"]
        timing.append((round(delay * 1000), [round(r["now"] - killed_at, 3) for r in new]))
        # one command run to completion (no kill): its export catches up with the rows
        # (combatlog.export rebuilds an export that is behind), so now they must be EQUAL
        # (a dead Goon takes no healing: staff undo the death, which writes a row too)
        for line in (next_command(a, admin, n + 1), "+combat/damage Goon=1 bashing",
                     "+combat/heal Goon=1 bashing", "+combat/heal Goon=revive",
                     "+combat/next", f"+combat/timeout {n + 1}"):
            if write_completely(a, server, room_id, line, len(after)):
                break
        else:
            raise AssertionError(f"{where}: no command wrote a row after the restart")
        check_store(server, room_id, f"{where}, then {line!r}", export_exact=True)

    # ---- the idle clock after a crash: a 4 s timeout passes while the Server is down
    for _ in range(6):
        if pending(a):
            break
        a.send("+combat/next")
        a.read_available(1.0)
    who = pending(a)
    assert who, "the fight waits for nobody; cannot test its timeout"
    a.command("+combat/timeout 4", until="idle timeout", timeout=15)
    a.read_available(0.3)
    kill_server(server)
    a.close()
    time.sleep(5)
    restarts.append(restart_server(server))
    a = login(server)
    try:
        deadline = time.monotonic() + 30
        log = ""
        while time.monotonic() < deadline:
            log = a.command("+combat/log 30", until="Combat log", timeout=15)
            log += a.read_available(0.5)
            if "Time is up for" in log:
                break
            time.sleep(1)
        a.command("+combat/timeout 0", until="timeout", timeout=15)  # no second expiry
        a.read_available(0.5)
        name, what = who[0]
        assert f"Time is up for {name} ({what})" in log, log
        assert log.count("Time is up for") == 1, log
        log = a.command("+combat/log 30", until="Combat log", timeout=15)
        log += a.read_available(0.5)
        assert log.count(f"Time is up for {name} ({what})") == 1, log
        cid, _ = check_store(server, room_id, "after the timeout", export_exact=True)
        out = check_in_server(a, server, cid, "after the timeout")
        assert out["sheets"], "the fight changed no sheet: the sheet check checked nothing"
        print(f"[e2e] fault test: {out['replay_commands']} commands replayed, sheets "
              f"checked: {sorted(out['sheets'])}")
        a.command("+combat/end", until="The fight is over", timeout=15)
    finally:
        a.close()
    print(f"[e2e] fault test: kills landing before the commit {landed['before']}, after "
          f"{landed['after']} (export left behind: {landed['export behind']}); "
          f"Server restarts {min(restarts):.1f}-{max(restarts):.1f} s; "
          f"total {time.monotonic() - t_start:.0f} s")
    print(f"[e2e] fault test: (delay ms, committed intents' time after the kill) {timing}")
