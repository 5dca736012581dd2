"""Issue 27: the combat system added to a stock Evennia game the README's way, then played.

Each test builds the wheel (``pip wheel .``), makes a game with ``evennia --init`` in a temp
dir, pip-installs the wheel into a venv of its own, adds the README's lines, migrates and
starts it on free ports, and plays a fight over telnet: start, join, npc, init, declare,
act, log, undo, end. The host's own commands still answer and its Room is its own. The
second host has its own top-level ``combat`` package and its own ``+roll``, and renames ours
by the setting; it also runs on rules copied out with ``evennia wodcombat copy-rules``.
Dice are the server's own, so a declaration or an action is typed when the fight waits for
its actor, as a player would.
"""

import json
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.request

import pytest

from tests.e2e.harness import REPO_ROOT
from tests.e2e.host_game import DOCUMENTED, HostGame, Typist, build_wheel, waiting

TRANSCRIPT = "/tmp/host_game_transcript.txt"
ERRORS = ("Traceback", "went wrong", "Usage:", "unknown switch")

HOST_ROLL = '''
from evennia import Command


class CmdHostRoll(Command):
    """The host's own dice: +roll."""

    key = "+roll"

    def func(self):
        self.caller.msg("HOST-ROLL answers")
'''


@pytest.fixture(scope="module")
def wheel():
    dest = tempfile.mkdtemp(prefix="wod-wheel-")
    try:
        yield build_wheel(dest)
    finally:
        shutil.rmtree(dest, ignore_errors=True)


@pytest.fixture
def workdir():
    path = tempfile.mkdtemp(prefix="wod-host-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_the_readme_shows_every_line_the_host_adds():
    with open(os.path.join(REPO_ROOT, "README.md"), encoding="utf-8") as fh:
        readme = fh.read()
    section = readme[readme.index("## Add it to your game"):]
    section = section[:section.index("\n## ", 5)]
    missing = [line for line in DOCUMENTED if line not in section]
    assert not missing, missing


def get(game: HostGame, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{game.web_port}{path}", timeout=20) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def watch_on_the_web(game: HostGame, admin: Typist) -> None:
    """The plugin's pages through the host's urls: a public fight is listed and shown."""
    assert "Anyone may watch this fight on the website now." in admin("+combat/public on")
    status, page = get(game, "/combat/")
    assert status == 200, page
    ids = re.findall(r'href="/combat/([^/"]+)/"', page)
    assert ids, page
    status, page = get(game, f"/combat/{ids[0]}/")
    assert status == 200 and "wod/combat.js" in page, page
    status, data = get(game, f"/combat/{ids[0]}.json")
    assert status == 200 and json.loads(data)["rows"], data
    status, page = get(game, "/webclient/")
    assert status == 200 and "wod/webclient_gauges.js" in page, page
    assert get(game, "/static/wod/webclient_gauges.js")[0] == 200


def play_fight(admin: Typist, bob: Typist, web: HostGame | None = None) -> dict[str, str]:
    """One fight of the admin, bob and an NPC, to the end; the replies that matter."""
    seen = {}

    def ok(typist, line):
        reply = typist(line)
        bad = [e for e in ERRORS if e in reply]
        assert not bad, f"{line!r} answered {bad}:\n{reply}"
        return reply

    # slot by slot (the default is ahead): each declaration and action typed in its slot
    seen["start"] = ok(admin, "+combat/start=slots")
    seen["join"] = ok(bob, "+combat/join")
    seen["npc"] = ok(admin, "+combat/npc Thug=thug")
    ok(admin, "+combat/init")
    ok(bob, "+combat/init")
    ok(admin, "+combat/init Thug=4")
    ok(admin, "+combat/next")
    lines = {"admin": (admin, "+combat/declare attack Thug"),
             "bob": (bob, "+combat/declare attack Thug"),
             "Thug": (admin, "+combat/declare Thug=attack bob")}
    acts = {"admin": (admin, "+combat/act"), "bob": (bob, "+combat/act"),
            "Thug": (admin, "+combat/act Thug")}
    for what, table in (("declare", lines), ("act", acts)):
        for _ in range(8):
            now = [(n, w) for n, w in waiting(admin("+combat")) if w == what]
            if not now:
                break
            typist, line = table[now[0][0]]
            seen.setdefault(what, "")
            seen[what] += ok(typist, line)
    if web is not None:
        watch_on_the_web(web, admin)
    seen["log"] = ok(admin, "+combat/log 5")
    seen["undo"] = ok(admin, "+combat/undo")
    seen["end"] = ok(admin, "+combat/end")
    with open(TRANSCRIPT, "a", encoding="utf-8") as fh:
        fh.write("\n".join(f"== {k}\n{v.strip()}" for k, v in seen.items()) + "\n")
    return seen


def _login(game: HostGame):
    admin_client = game.connect()
    admin_client.login("admin", game.admin_password, 30)
    bob_client = game.connect()
    bob_client.create_account("bob", "bob-s3cret-pass", 30)
    bob_client.login("bob", "bob-s3cret-pass", 30)
    return Typist(admin_client), Typist(bob_client)


def test_a_stock_game_adds_it_and_plays_a_fight(wheel, workdir):
    game = HostGame.create(workdir, wheel)
    try:
        game.start()
        admin, bob = _login(game)
        # the host's own commands and classes
        assert "Limbo" in admin("look")
        assert 'You say, "hello"' in admin("say hello")
        assert "+combat" in admin("help")
        room = admin("py print('ROOM ' + type(here).__module__ + ' ' + "
                     "','.join(c.__name__ for c in type(here).__mro__[:3]))")
        assert "ROOM typeclasses.rooms Room,ObjectParent,DefaultRoom" in room, room
        me = admin("py print('ME ' + type(me).__module__ + ' ' + type(me).__mro__[1].__name__)")
        assert "ME typeclasses.characters CombatCharacterMixin" in me, me
        # the plugin: sheets, rolls, the rules shipped with the package, a whole fight
        assert "Dexterity" in admin("+sheet/set dex=3")
        assert "admin rolls Dexterity" in admin("+roll dex+brawl")
        assert "numetal" in admin("+rules")
        assert "rules: loaded" in game.log(400)  # the plugin's start hook ran beside the host's
        seen = play_fight(admin, bob, web=game)
        assert "Thug" in seen["npc"]
        assert "attack" in seen["declare"].lower()
        assert re.search(r"\bdamage|miss", seen["act"], re.I), seen["act"]
        assert "Combat log: last 5" in seen["log"] and " t1 act " in seen["log"], seen["log"]
        assert "undoes the last resolution" in seen["undo"], seen["undo"]
        assert "The fight is over." in seen["end"], seen["end"]
        assert "Thug" not in admin("look")  # the fight's NPCs leave with it
    finally:
        game.stop()


def test_a_host_with_its_own_combat_package_and_roll_keeps_both(wheel, workdir):
    game = HostGame.create(
        workdir, wheel, rules_dir=True,
        extra_settings='WODCOMBAT_COMMAND_KEYS = {"+roll": "+wodroll"}\n')
    rules = os.path.join(game.gamedir, "rules")  # WODCOMBAT_RULES_DIR, as README's step 5
    try:
        # the host's own top-level combat package and its own +roll, before ours
        os.makedirs(os.path.join(game.gamedir, "combat"))
        with open(os.path.join(game.gamedir, "combat", "__init__.py"), "w") as fh:
            fh.write('WHOSE = "the host\'s own combat package"\n')
        with open(os.path.join(game.gamedir, "commands", "hostroll.py"), "w") as fh:
            fh.write(HOST_ROLL)
        path = os.path.join(game.gamedir, "commands", "default_cmdsets.py")
        with open(path) as fh:
            text = fh.read()
        text = text.replace("        self.add(CombatCmdSet)",
                            "        from commands.hostroll import CmdHostRoll\n"
                            "        self.add(CmdHostRoll())\n        self.add(CombatCmdSet)")
        with open(path, "w") as fh:
            fh.write(text)
        missing = game.evennia("wodcombat", "check")
        assert missing.returncode != 0 and "WODCOMBAT_RULES_DIR" in missing.stderr
        assert "Traceback" not in missing.stderr, missing.stderr
        copied = game.evennia("wodcombat", "copy-rules", "rules")
        assert copied.returncode == 0, copied.stderr
        assert os.path.exists(os.path.join(rules, "numetal"))
        checked = game.evennia("wodcombat", "check")
        assert checked.returncode == 0 and "All rules files are valid" in checked.stdout, \
            checked.stdout + checked.stderr
        game.start()
        admin, bob = _login(game)
        assert "HOST-ROLL answers" in admin("+roll dex+brawl")
        assert "admin rolls Dexterity" in admin("+wodroll dex+brawl")
        whose = admin("py import combat; print('WHOSE ' + combat.WHOSE)")
        assert "WHOSE the host's own combat package" in whose, whose
        assert rules in admin("+rules")
        seen = play_fight(admin, bob)
        assert "undoes the last resolution" in seen["undo"], seen["undo"]
        assert 'You say, "done"' in admin("say done")
    finally:
        game.stop()


def test_check_names_the_file_and_line_from_the_shell(wheel, workdir):
    game = HostGame.create(workdir, wheel)
    rules = os.path.join(workdir, "rules")
    assert game.evennia("wodcombat", "copy-rules", rules).returncode == 0
    again = game.evennia("wodcombat", "copy-rules", rules)
    assert again.returncode != 0 and "nothing was copied" in again.stderr
    path = os.path.join(rules, "core", "dice.yaml")
    with open(path) as fh:
        text = fh.read()
    with open(path, "w") as fh:
        fh.write(text.replace("  sides: 10", "  sides: [10", 1))
    result = game.evennia("wodcombat", "check", rules)
    assert result.returncode != 0
    assert re.search(r"core/dice\.yaml:\d+: YAML syntax error", result.stdout), result.stdout
