"""Issue 29: the fight page as the organizer's control surface. Each control is one POST of
a ``+combat`` line to ``/combat/<id>/do`` with Django's CSRF check, run as the visitor's
character through the command handler: the same permission checks and the same room text
as typed. Refusals change nothing: no CSRF token, a GET, a logged-out visitor, a line that
is not +combat, a player who may not (the command's own words), a fight one may not see.

Dice are exact faces (tests/fixed_dice.py); rule IDs: ../shared/rules-catalog.md.
"""

import re

import pytest
from django.test import Client
from django.test.utils import override_settings

from tests.commands.test_combat import CombatTest
from tests.helpers import capture_msgs
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combatlog, fight_control


def csrf_client(account) -> Client:
    """A browser that sends the CSRF token as the page's script does (a header from the
    cookie the fight page set)."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if account is not None:
        client.force_login(account)
    return client


@override_settings(WEBCLIENT_ENABLED=True, WEBSERVER_ENABLED=True)
class WebControlTest(CombatTest):
    def setUp(self):
        super().setUp()
        self.staff = csrf_client(self.account)  # char1's account: a Developer, organizes
        self.other = csrf_client(self.account2)  # char2's account: a player
        self.anon = csrf_client(None)

    def fid(self):
        return self.state().id

    def post(self, client, line, fid=None, token=True):
        fid = fid or self.fid()
        if token:
            client.get(f"/combat/{fid}/")  # the page sets the CSRF cookie, if one may see it
            if "csrftoken" not in client.cookies:  # else one from any other page of the site
                client.cookies["csrftoken"] = "k" * 32
        cookie = client.cookies.get("csrftoken")
        headers = {"HTTP_X_CSRFTOKEN": cookie.value} if token and cookie else {}
        return client.post(f"/combat/{fid}/do", {"line": line}, **headers)

    def fingerprint(self):
        """What a refused POST must leave as it was: the state and the log."""
        script = combat_in(self.room1)
        return (script.get_state().to_dict(), len(combatlog.read(script.combat_id)),
                self.char2.sheet.get().health)

    # ------------------------------------------------------------ what the page runs

    @pytest.mark.rule("TURN-01")
    def test_organizer_moves_on_from_the_page_and_the_room_reads_it(self):
        """TURN-01: +combat/next from the page starts the declaration phase, as typed."""
        self.assertIn("starts a fight", self.cmd("+combat/start").text)
        self.player("+combat/join")
        with self.dice(5):
            self.cmd("+combat/init")
        with self.dice(3):
            self.player("+combat/init")
        with capture_msgs(self.char2) as seen:
            answer = self.post(self.staff, "+combat/next")
        self.assertEqual(answer.status_code, 200)
        lines = "\n".join(answer.json()["lines"])
        self.assertIn("Turn 1: declare phase", lines)
        self.assertNotIn("|", lines)  # plain text: the page draws it with textContent
        self.assertEqual(self.state().phase, "declare")
        self.assertIn("Turn 1: declare phase", "\n".join(seen[self.char2]))
        self.assertIn("Your turn to declare", "\n".join(seen[self.char2]))

    @pytest.mark.rule("TURN-01", "TURN-03", "ATK-01", "DMG-02")
    def test_organizer_runs_an_npc_and_a_player_declares_and_acts_from_the_page(self):
        """TURN-01/03 from the page: the NPC declares (organizer), the player dodges and the
        organizer declares; ATK-01/DMG-02: the organizer's attack with exact dice."""
        self.setup_fight()
        self.assertEqual(self.post(self.staff, "+combat/declare Thug=attack Char2")
                         .status_code, 200)
        answer = self.post(self.other, "+combat/dodge")
        self.assertIn("Char2 declares: dodge", "\n".join(answer.json()["lines"]))
        self.post(self.staff, "+combat/declare attack Thug")
        self.assertEqual(self.state().phase, "act")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):
            answer = self.post(self.staff, "+combat/act")
        text = "\n".join(answer.json()["lines"])
        self.assertIn("[8 7 6 2 1] => 2 successes", text)
        self.assertIn("Thug takes 1 bashing (2 rolled, 1 soaked): Healthy -> Bruised", text)
        self.assertIn("Thug's turn to act: +combat/act Thug", text)  # told who is up

    def test_the_page_says_what_each_visitor_may_do(self):
        self.setup_fight()
        mine = self.other.get(f"/combat/{self.fid()}.json").json()["me"]
        self.assertEqual((mine["keys"], mine["runs"], mine["templates"]),
                         ([f"#{self.char2.id}"], False, []))
        run = self.staff.get(f"/combat/{self.fid()}.json").json()["me"]
        self.assertEqual((run["keys"], run["runs"], run["staff"]),
                         ([f"#{self.char1.id}"], True, True))
        self.assertIn("thug", run["templates"])
        page = self.staff.get(f"/combat/{self.fid()}/").content.decode()
        self.assertIn('name="csrfmiddlewaretoken"', page)
        self.assertIn(f'data-do="/combat/{self.fid()}/do"', page)

    # ------------------------------------------------------------ refused, nothing changed

    def test_every_post_without_the_csrf_token_is_refused(self):
        self.setup_fight()
        before = self.fingerprint()
        for client in (self.staff, self.other, self.anon):
            answer = self.post(client, "+combat/next", token=False)
            self.assertEqual(answer.status_code, 403)
        self.assertEqual(self.fingerprint(), before)

    def test_a_logged_out_visitor_is_refused(self):
        self.setup_fight()
        self.cmd("+combat/public on")  # a fight anyone may watch is still not theirs to run
        before = self.fingerprint()
        answer = self.post(self.anon, "+combat/next")
        self.assertEqual(answer.status_code, 403)
        self.assertIn("Log in", answer.json()["error"])
        self.assertEqual(self.fingerprint(), before)

    def test_a_player_who_may_not_gets_the_commands_own_refusal(self):
        self.setup_fight()
        before = self.fingerprint()
        typed = self.player("+combat/damage Char2=3 lethal").text
        for line in ("+combat/next", "+combat/damage Char2=3 lethal", "+combat/end",
                     "+combat/undo", "+combat/declare Thug=attack Char"):
            answer = self.post(self.other, line)
            self.assertEqual(answer.status_code, 200, line)
            self.assertTrue(answer.json()["lines"], line)
            self.assertEqual(self.fingerprint(), before, line)
        self.assertEqual("\n".join(self.post(self.other, "+combat/damage Char2=3 lethal")
                                   .json()["lines"]), typed)

    def test_a_fight_one_may_not_see_answers_as_one_that_is_not_there(self):
        self.cmd("+combat/start")  # char2 is not in it and it is not public
        self.cmd("+combat/npc Thug=thug")
        before = self.fingerprint()
        hidden = self.post(self.other, "+combat/end")
        unknown = self.post(self.other, "+combat/end", fid="0" * len(self.fid()))
        self.assertEqual((hidden.status_code, unknown.status_code), (404, 404))
        self.assertEqual(hidden.content, unknown.content)
        self.assertEqual(self.fingerprint(), before)

    def test_a_get_is_refused(self):
        self.setup_fight()
        before = self.fingerprint()
        for client in (self.staff, self.anon):
            self.assertEqual(client.get(f"/combat/{self.fid()}/do?line=%2Bcombat%2Fend")
                             .status_code, 405)
        self.assertEqual(self.fingerprint(), before)

    def test_only_combat_lines_run(self):
        self.setup_fight()
        before = self.fingerprint()
        for line in ("say hello", "look", "+combatx", "+sheet", "", "   ", "@py 1",
                     "+combat/next\n+combat/end", "x" * 500, "+combat/declare " + "a" * 400,
                     "+comba/next"):
            answer = self.post(self.staff, line)
            self.assertEqual(answer.status_code, 400, repr(line[:30]))
            self.assertIn("error", answer.json())
        self.assertEqual(self.fingerprint(), before)
        self.assertIn("+combat commands only", self.post(self.staff, "say hi").json()["error"])

    def test_an_account_with_no_character_in_the_fight_is_refused(self):
        """A player who may watch a public fight but has no character in it runs nothing."""
        self.cmd("+combat/start")
        self.cmd("+combat/public on")
        before = self.fingerprint()
        answer = self.post(self.other, "+combat/join")
        self.assertEqual(answer.status_code, 403)
        self.assertIn("None of your characters", answer.json()["error"])
        self.assertEqual(self.fingerprint(), before)

    def test_checked_line(self):
        self.assertEqual(fight_control.checked_line("  +COMBAT/next "), "+COMBAT/next")
        self.assertEqual(fight_control.checked_line("+combat"), "+combat")
        for bad in ("+combat\x1b[2J", None, 5):
            with self.assertRaises(fight_control.Refused):
                fight_control.checked_line(bad)

    def test_a_character_off_the_map_is_refused(self):
        """Evennia takes a character nobody plays off the map: the page says to connect."""
        self.setup_fight()
        before = self.fingerprint()
        try:
            self.char2.location = None
            answer = self.post(self.other, "+combat/dodge")
        finally:
            self.char2.location = self.room1  # a cached object: put back for later tests
        self.assertEqual(answer.status_code, 409)
        self.assertIn("connect to the game", answer.json()["error"])
        self.assertEqual(self.fingerprint(), before)

    def test_the_page_names_its_parts_for_a_screen_reader(self):
        """Headings for each part, a caption on the fighters' table, and a label on every
        control (a label around it or an aria-label)."""
        self.setup_fight()
        page = self.staff.get(f"/combat/{self.fid()}/").content.decode()
        self.assertIn("<caption", page)
        heads = re.findall(r"<h2[^>]*>([^<]+)</h2>", page)
        self.assertEqual(heads, ["Last rolls, as the room read them", "Your turn",
                                 "Run the fight", "Any +combat command"])
        body = page.split('id="fight"', 1)[1]
        for tag in re.finditer(r"<(input|select)\b[^>]*>", body):
            if 'type="hidden"' in tag.group(0):
                continue
            before = body[:tag.start()]
            inside_label = before.rfind("<label") > before.rfind("</label>")
            own_id = re.search(r'id="([^"]+)"', tag.group(0))
            named = "aria-label" in tag.group(0) or bool(
                own_id and f'for="{own_id.group(1)}"' in body)
            self.assertTrue(inside_label or named, tag.group(0))
        for form in re.findall(r"<form[^>]*>", body):
            self.assertTrue("aria-label" in form or 'id="fight-free"' in form, form)
