"""Issue 29, scene logs: a fight's text as its room read it, downloaded from its page as
plain text and as a page of its own, to whoever may watch the fight and nobody else."""

from django.test import Client
from django.test.utils import override_settings

from tests.commands.test_combat import CombatTest


@override_settings(WEBCLIENT_ENABLED=True, WEBSERVER_ENABLED=True)
class TestFightLogDownload(CombatTest):
    def setUp(self):
        super().setUp()
        self.staff = Client()
        self.staff.force_login(self.account)

    def test_text_and_html_hold_every_line_the_room_read_in_order(self):
        self.char2.key = "Bad <b>Guy</b>"  # a name with markup in it: text, never HTML
        self.cmd("+combat/start")
        self.player("+combat/join")
        with self.dice(5):
            self.cmd("+combat/init")
        fid = self.state().id
        page = self.staff.get(f"/combat/{fid}/").content.decode()
        self.assertIn(f'href="/combat/{fid}/log.txt"', page)
        text = self.staff.get(f"/combat/{fid}/log.txt")
        self.assertEqual(text["Content-Type"], "text/plain; charset=utf-8")
        self.assertIn(f'filename="fight-{fid}.txt"', text["Content-Disposition"])
        body = text.content.decode()
        self.assertTrue(body.startswith(f"Fight in {self.room1.key} (numetal), {fid}\n"))
        starts, joins, rolls = (body.index(s) for s in (
            "[Combat] Char starts a fight", "Bad <b>Guy</b> joins", "rating 6 + [5] = 11"))
        self.assertLess(starts, joins)
        self.assertLess(joins, rolls)
        self.assertNotIn("|w", body)
        html = self.staff.get(f"/combat/{fid}/log.html").content.decode()
        self.assertIn("<h1>Fight in", html)
        self.assertIn("rating 6 + [5] = 11", html)
        self.assertIn("Bad &lt;b&gt;Guy&lt;/b&gt; joins", html)
        self.assertNotIn("<b>", html)
        self.assertNotIn("<script", html)

    def test_refused_to_whoever_may_not_watch_and_for_a_wrong_format(self):
        self.cmd("+combat/start")
        fid = self.state().id
        player = Client()
        player.force_login(self.account2)  # not in the fight, and it is not public
        nobody = Client()
        refused = self.staff.get("/combat/no-such-fight/log.txt").content
        for client, url in ((player, f"/combat/{fid}/log.txt"),
                            (nobody, f"/combat/{fid}/log.html"),
                            (self.staff, f"/combat/{fid}/log.exe")):
            reply = client.get(url)
            self.assertEqual(reply.status_code, 404, url)
            self.assertEqual(reply.content, refused)  # one answer: its existence does not show
