"""The game's website (issue 12): front page, fight list, the live combat page's JSON, the
character page, and the web client's libraries served by the game (no CDN).

A fight is played through the commands (exact dice), then the pages are read with Django's
test client as a browser would: the page shows what +combat and +sheet show.
"""

import re

from django.test import Client
from django.test.utils import override_settings

from tests.commands.test_combat import CombatTest
from wodcombat.world import fight_view

CDN = re.compile(r"""<(script|link)[^>]*(src|href)=["']?(https?:)?//""")


@override_settings(WEBCLIENT_ENABLED=True, WEBSERVER_ENABLED=True)
class WebPagesTest(CombatTest):
    def setUp(self):
        super().setUp()
        self.staff = Client()
        self.staff.force_login(self.account)  # char1's account: a Developer
        self.other = Client()
        self.other.force_login(self.account2)  # char2's account: a player

    def _fight_id(self):
        return self.state().id

    def test_front_page_is_the_games_own(self):
        page = self.staff.get("/").content.decode()
        self.assertNotIn("Welcome to Evennia", page)
        self.assertIn("World of Darkness", page)
        self.assertIn("Fights running now", page)
        self.assertIn("Online now", page)

    def test_front_page_lists_running_fights(self):
        self.setup_fight()
        page = self.staff.get("/").content.decode()
        self.assertIn(f"/combat/{self._fight_id()}/", page)

    def test_staff_see_every_fight_a_stranger_none_until_public(self):
        self.setup_fight()
        fid = self._fight_id()
        stranger = Client()  # not logged in, in no fight
        self.assertEqual(stranger.get(f"/combat/{fid}/").status_code, 404)
        self.assertEqual(stranger.get(f"/combat/{fid}.json").status_code, 404)
        self.assertEqual(self.staff.get(f"/combat/{fid}/").status_code, 200)
        self.assertIn("Anyone may watch", self.cmd("+combat/public on").text)
        self.assertEqual(stranger.get(f"/combat/{fid}.json").status_code, 200)
        self.assertIn("Only the organizer", self.player("+combat/public off").text)

    def test_player_sees_the_fight_they_are_in(self):
        self.setup_fight()
        fid = self._fight_id()
        self.assertIn(fid, self.other.get("/combat/").content.decode())
        self.assertEqual(self.other.get(f"/combat/{fid}.json").status_code, 200)

    def test_an_organizer_who_does_not_fight_is_named(self):
        """A spotlight organizer runs the fight outside the order: the page names him, not
        his "#1"."""
        self.cmd("+combat/start spotlight")
        self.player("+combat/join")
        snap = self.staff.get(f"/combat/{self._fight_id()}.json").json()
        self.assertIsNone(self.state().get(f"#{self.char1.id}"))
        self.assertEqual(snap["organizer"], "Char")

    def test_combat_json_follows_the_fight(self):
        """HLT-01 boxes on the page; the room's text of the last command; TURN-01 order."""
        self.setup_fight()
        url = f"/combat/{self._fight_id()}.json"
        before = self.staff.get(url).json()
        self.assertEqual(before["phase"], "declare")
        self.assertEqual([r["name"] for r in before["rows"]], ["Char", "Char2", "Thug"])
        self.assertEqual(before["waiting"][0]["name"], "Thug")
        thug = before["rows"][2]
        self.assertEqual(len(thug["track"]["boxes"]), 7)
        self.assertEqual({b["mark"] for b in thug["track"]["boxes"]}, {" "})
        self.cmd("+combat/declare Thug=attack Char2")
        self.player("+combat/dodge")
        self.cmd("+combat/declare attack Thug")
        with self.dice(8, 7, 6, 2, 1, 9, 6, 3, 2, 7, 3):  # as test_small_fight_end_to_end
            self.cmd("+combat/act")
        after = self.staff.get(url).json()
        self.assertGreater(after["version"], before["version"])
        thug = next(r for r in after["rows"] if r["name"] == "Thug")
        self.assertEqual(thug["track"]["boxes"][0]["mark"], "/")
        self.assertEqual(thug["track"]["level"], "Bruised")
        said = after["recent"][-1]["html"]
        self.assertIn("Char attack: Dexterity 3 + Brawl 2 = 5 vs 6", said)
        self.assertIn("Thug takes 1 bashing (2 rolled, 1 soaked): Healthy -&gt; Bruised", said)

    def test_character_page_is_the_sheet_for_owner_and_staff(self):
        url = f"/sheet/{self.char2.id}/"
        mine = self.other.get(url)
        self.assertEqual(mine.status_code, 200)
        self.assertIn("Sheet: Char2", mine.content.decode())
        self.assertEqual(self.staff.get(url).status_code, 200)
        self.assertEqual(self.other.get(f"/sheet/{self.char1.id}/").status_code, 404)
        self.assertEqual(Client().get(url).status_code, 302)  # to the login page

    def test_webclient_and_website_load_no_library_from_a_cdn(self):
        for url in ("/webclient/", "/"):
            page = self.staff.get(url).content.decode()
            self.assertIsNone(CDN.search(page), f"{url} loads from another host")
        page = self.staff.get("/webclient/").content.decode()
        self.assertIn("vendor/jquery-3.2.1.min.js", page)
        self.assertIn("vendor/goldenlayout-1.5.9.min.js", page)

    def test_fight_view_reads_without_writing(self):
        self.setup_fight()
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        script = fight_view.find(self._fight_id())
        with CaptureQueriesContext(connection) as ctx:
            fight_view.snapshot(script)
        writes = [q["sql"] for q in ctx.captured_queries
                  if q["sql"].split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]
        self.assertEqual(writes, [])
