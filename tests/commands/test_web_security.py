"""Issue 30, the way out: a player's words never become code or markup on a page, a private
fight answers as a fight that is not there, and no page a visitor reaches answers 500.

The payloads are stored directly (an NPC's name in the fight's state, the room's text in
its log, specialties on a sheet), past whatever cleans what players type: the pages must
hold even for text stored before that cleaning existed.
"""

import itertools
import re
from dataclasses import replace
from types import MappingProxyType

from django.test import Client
from django.test.utils import override_settings
from django.urls import URLResolver, get_resolver

from tests.commands.test_combat import CombatTest
from tests.web_payloads import (ESCAPED, NESTED_STORED, SPEC_A_STORED, SPEC_B, URL, tags_of,
                                unsafe_in)
from wodcombat.world import fight_view

#: what a page a visitor reaches may answer
FINE = {200, 301, 302, 403, 404, 405}
ROUTE_PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")
REGEX_GROUP = re.compile(r"\(\?P<(\w+)>([^()]*)\)")


def url_patterns(resolver=None, prefix=""):
    """(pattern text, name) of every view the site resolves, includes walked."""
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from url_patterns(p, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p.name


def _regex_sample(body: str, value: str) -> str:
    """A value for a regex group: its first alternative if it lists words, else ``value``."""
    first = body.split("|")[0]
    return first if re.fullmatch(r"\w+", first) else value


def urls_for(pattern: str, values: dict[str, list[str]]) -> set[str]:
    """``pattern`` with each parameter filled by each of its candidate values in turn (all
    made-up, then all real ones): path() converters and regex groups both."""
    names = ROUTE_PARAM.findall(pattern)
    groups = REGEX_GROUP.findall(pattern)
    out = set()
    for which in range(2):
        url = pattern
        for conv, name in names:
            pick = values.get(conv or "str", values["str"])
            url = url.replace(f"<{conv}:{name}>" if conv else f"<{name}>", pick[which], 1)
        for name, body in groups:
            url = url.replace(f"(?P<{name}>{body})", _regex_sample(body, values["str"][which]), 1)
        out.add("/" + url.replace("^", "").replace("$", "").replace("\\", ""))
    return out


@override_settings(WEBCLIENT_ENABLED=True, WEBSERVER_ENABLED=True)
class WebSecurityTest(CombatTest):
    def setUp(self):
        super().setUp()
        self.staff = Client(raise_request_exception=False)
        self.staff.force_login(self.account)  # char1's account: a Developer
        self.other = Client(raise_request_exception=False)
        self.other.force_login(self.account2)  # char2's account: a player
        self.anon = Client(raise_request_exception=False)

    def carry_payloads(self) -> str:
        """A fight whose NPC is named with the nested link (as Evennia's input strip left
        it) and whose log's last room text holds every form; char2's sheet with the two
        specialties of the attack."""
        self.setup_fight()
        script = fight_view.find(self.state().id)
        state = script.get_state()
        thug = next(c for c in state.combatants if c.name == "Thug")
        state = state.with_combatants({thug.key: replace(thug, name=NESTED_STORED)})
        script.commit(state, events=[{"event": "intent", "intent": {},
                                      "text": f"{NESTED_STORED} hits|/{URL} {ESCAPED}"}])
        sheet = self.char2.sheet.get()
        self.char2.sheet.save(replace(sheet, specialties=MappingProxyType(
            {"Brawl": SPEC_A_STORED, "Dodge": SPEC_B})))
        return state.id

    # ------------------------------------------------------------ player text

    def test_fight_json_carries_no_markup_from_player_text(self):
        fid = self.carry_payloads()
        answer = self.staff.get(f"/combat/{fid}.json")
        self.assertEqual(answer.status_code, 200)
        text = answer.content.decode()
        self.assertNotIn("<a", text)
        self.assertNotIn("onclick", text)
        self.assertNotIn("javascript:", text)
        data = answer.json()
        self.assertEqual([r["name"] for r in data["rows"]], ["Char", "Char2", "P11CLICK11"])
        self.assertEqual(data["waiting"][0]["name"], "P11CLICK11")
        said = data["recent"][-1]["html"]
        self.assertEqual(said, "P11CLICK11 hits<br>CLICK12 |lcwindow.__pwned=4CLICK14")
        self.assertEqual(unsafe_in(said), [])

    def test_fight_page_carries_no_markup_from_player_text(self):
        fid = self.carry_payloads()
        page = self.staff.get(f"/combat/{fid}/").content.decode()
        self.assertNotIn("onclick", page)
        self.assertNotIn("javascript:", page)
        data = page.split('id="fight-data"', 1)[1]
        self.assertNotIn("<a", data.split("</script>", 1)[0])

    def test_sheet_page_carries_no_markup_from_player_text(self):
        self.carry_payloads()
        page = self.other.get(f"/sheet/{self.char2.id}/").content.decode()
        sheet = re.search(r'<div class="mush" id="sheet">(.*?)</div>', page, re.S).group(1)
        # the two entries (one line) make one link: its text stays, its command goes
        self.assertIn("Specialties:</span> Brawl (SHEETCLICK)<br>", sheet)
        self.assertNotIn("__pwned", sheet)
        self.assertNotIn("<a", sheet)
        self.assertEqual(unsafe_in(sheet), [])
        self.assertEqual({t for t, _ in tags_of(sheet)} - {"span", "br"}, set())
        self.assertNotIn("onclick", page)
        self.assertNotIn("javascript:", page)

    # ------------------------------------------------------------ the policy

    def test_every_page_forbids_inline_script(self):
        self.setup_fight()
        fid = self.state().id
        pages = ["/", "/combat/", f"/combat/{fid}/", f"/sheet/{self.char1.id}/",
                 "/webclient/", "/help/", "/combat/nosuch/", "/sheet/987654/"]
        for url in pages:
            answer = self.staff.get(url)
            self.assertIn(answer.status_code, (200, 404), url)
            policy = answer.headers.get("Content-Security-Policy", "")
            parts = dict(p.strip().split(" ", 1) for p in policy.split(";"))
            self.assertEqual(parts.get("script-src"), "'self'", url)
            self.assertEqual(parts.get("object-src"), "'none'", url)
            self.assertEqual(parts.get("base-uri"), "'self'", url)
            self.assertEqual(parts.get("frame-ancestors"), "'self'", url)
            self.assertIn("ws://*:", parts.get("connect-src", ""), url)
        for url in ("/auth/login/", "/auth/register", "/auth/password_reset/", "/"):
            self.assertIn("Content-Security-Policy", self.anon.get(url).headers, url)

    def test_no_page_holds_an_inline_script_or_handler(self):
        self.setup_fight()
        pages = {url: self.staff.get(url).content.decode()
                 for url in ("/", "/combat/", f"/combat/{self.state().id}/",
                             f"/sheet/{self.char1.id}/", "/webclient/", "/help/")}
        pages["/auth/login/"] = self.anon.get("/auth/login/").content.decode()
        pages["logged out"] = self.other.post("/auth/logout/").content.decode()
        self.assertIn("Logged Out", pages["logged out"])
        for url, page in pages.items():
            for tag, attrs in tags_of(page):
                self.assertEqual([k for k in attrs if k.startswith("on")], [], (url, tag))
                if tag == "script":
                    self.assertTrue(attrs.get("src") or attrs.get("type") == "application/json",
                                    f"{url}: an inline script")
        self.assertIn('name="wod-webclient" data-websocket="1"', pages["/webclient/"])

    # ------------------------------------------------------------ fight ids

    def test_a_private_fight_answers_as_one_that_is_not_there(self):
        self.setup_fight()
        fid = self.state().id
        for suffix in ("/", ".json"):
            private = self.anon.get(f"/combat/{fid}{suffix}")
            unknown = self.anon.get(f"/combat/{'0' * len(fid)}{suffix}")
            self.assertEqual(private.status_code, 404)
            self.assertEqual(unknown.status_code, 404)
            self.assertEqual(private.content, unknown.content, suffix)
            self.assertEqual(private.headers["Content-Type"], unknown.headers["Content-Type"])
        self.assertEqual(private.json(), {"gone": True,
                                          "message": "No such fight, or not one you may see."})
        self.assertEqual(self.other.get(f"/combat/{fid}.json").status_code, 200)  # in it

    def test_another_players_sheet_answers_as_one_that_is_not_there(self):
        mine, missing = (self.staff.get(f"/sheet/{self.char2.id}/"),
                         self.other.get("/sheet/987654/"))
        self.assertEqual(mine.status_code, 200)
        theirs = self.other.get(f"/sheet/{self.char1.id}/")
        self.assertEqual((theirs.status_code, missing.status_code), (404, 404))

    # ------------------------------------------------------------ no 500

    def test_no_page_a_visitor_reaches_answers_500(self):
        self.setup_fight()
        fid = self.state().id
        values = {"int": ["987654", str(self.char1.id)],
                  "str": ["nosuch", fid],
                  "slug": ["nosuch", "char"],
                  "path": ["987654", str(self.char1.id)]}
        urls = set(itertools.chain.from_iterable(
            urls_for(p, values) for p, _ in url_patterns()))
        self.assertIn(f"/combat/{fid}.json", urls)
        self.assertIn(f"/sheet/{self.char1.id}/", urls)
        self.assertIn("/help/nosuch/nosuch/", urls)
        self.assertGreater(len(urls), 150)  # the admin's pages too
        bad = []
        for (who, client), url in itertools.product(
                (("anonymous", self.anon), ("player", self.other), ("staff", self.staff)),
                sorted(urls)):
            status = client.get(url).status_code
            if status not in FINE:
                bad.append(f"{who} GET {url}: {status}")
        self.assertEqual(bad, [])

    def test_evennias_character_and_channel_pages_are_not_served(self):
        for url in ("/characters/", "/characters/detail/char/1/", "/channels/",
                    "/channels/public/", "/characters/puppet/char/1/", "/tbi/"):
            self.assertEqual(self.anon.get(url).status_code, 404, url)
            self.assertEqual(self.other.get(url).status_code, 404, url)
        self.assertEqual(self.anon.get("/auth/login/").status_code, 200)
        self.assertEqual(self.anon.get("/auth/password_reset/").status_code, 200)
