"""The website and web client in a real browser (issue 12): headless Chromium (Debian's
``chromium`` and ``chromidriver``, installed by bin/setup-system) against the test server,
with no way to the internet: every library the pages load is served by the game.

A player logs in on the website, plays from the web client while their telnet session stays
connected (one account, two sessions), and the combat page open in another tab changes as
the fight moves, without a reload. Screenshots of the combat page and the character page go
to server/logs/screenshots/ (git-ignored)."""

import base64
import os
import time
import uuid


from tests.e2e.harness import REPO_ROOT
from tests.web_payloads import ESCAPED, NESTED_STORED, SPEC_A_STORED, SPEC_B, URL

SHOTS = os.path.join(REPO_ROOT, "server", "logs", "screenshots")


def wait(pred, timeout=20.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def shoot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name)
    driver.save_screenshot(path)
    return path


def test_web_client_plays_and_the_combat_page_follows(game_server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base = f"http://{game_server.host}:{game_server.web_port}"
    name = "Web" + uuid.uuid4().hex[:5]
    password = "pw-" + uuid.uuid4().hex[:10]
    telnet = game_server.connect(timeout=20)
    telnet.create_and_login(name, password, timeout=20)
    for line in ("+sheet/set dex=3", "+sheet/set wits=2", "+sheet/set brawl=3",
                 "+sheet/set willpower=4/6"):
        telnet.command(line, until="set to")

    # the website's login, then the web client (it logs in with the website's session)
    browser.get(base + "/auth/login/")
    browser.find_element(By.NAME, "username").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password + Keys.ENTER)
    wait(lambda: "Logged in as" in browser.page_source, what="website login")
    browser.get(base + "/webclient/")
    assert "library not found" not in browser.find_element(By.TAG_NAME, "body").text
    assert browser.execute_script("return !!window.jQuery && !!window.GoldenLayout")
    field = wait(lambda: [f for f in browser.find_elements(By.CSS_SELECTOR, ".inputfield")
                          if f.is_displayed()], what="the web client's input")[0]

    def send(line, until=None):
        field.click()
        field.send_keys(line + Keys.ENTER)
        if until:
            wait(lambda: until in browser.find_element(By.TAG_NAME, "body").text,
                 what=f"{until!r} in the web client after {line!r}")

    send("+combat/start", "starts a fight")
    # the telnet session is still connected and hears its own character's fight
    telnet.read_until("starts a fight", timeout=20)
    send("+combat/npc Goon=thug", "Goon joins")
    send("+combat/public on", "Anyone may watch")

    # the combat page in a second tab
    client_tab = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(base + "/combat/")
    browser.find_element(By.CSS_SELECTOR, "table a").click()
    fight_tab = browser.current_window_handle
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#fight-rows tbody tr"),
         what="the combat page's rows")
    browser.execute_script("window.__stayed = 'yes';")  # gone if the page reloads
    version0 = int(browser.find_element(By.ID, "fight").get_attribute("data-version"))

    browser.switch_to.window(client_tab)
    field = [f for f in browser.find_elements(By.CSS_SELECTOR, ".inputfield")
             if f.is_displayed()][0]
    send("+combat/init", "rolls initiative")
    send("+combat/init Goon=4", "Goon rolls initiative")
    send("+combat/next", "declare phase")
    # a turn: both declare (the order depends on the dice: a command out of turn is refused
    # and changes nothing), then both act; the organizer declares and acts for the NPC
    for _ in range(2):
        send(f"+combat/declare Goon=attack {name}")
        send("+combat/declare attack Goon")
        time.sleep(1)
    for _ in range(2):
        send("+combat/act")
        send("+combat/act Goon")
        time.sleep(1)
    send("+combat/damage Goon=2 lethal", "lethal")

    browser.switch_to.window(fight_tab)
    wait(lambda: int(browser.find_element(By.ID, "fight").get_attribute("data-version"))
         > version0, what="the combat page to change")

    def goon_marks():  # read in one script call: the page redraws rows under us
        text = browser.execute_script(
            "var rows = document.querySelectorAll('#fight-rows tbody tr');"
            "for (var i = 0; i < rows.length; i++) {"
            "  if (rows[i].cells[1].textContent.indexOf('Goon') === 0) {"
            "    return rows[i].cells[2].textContent; } } return '';")
        return text.count("X") >= 2

    wait(goon_marks, what="Goon's lethal boxes on the combat page")  # HLT-01
    assert browser.execute_script("return window.__stayed") == "yes", "the page reloaded"
    said = browser.find_element(By.ID, "fight-recent").text
    assert "Goon" in said and "lethal" in said
    shoot(browser, "combat-page.png")

    browser.get(base + "/")
    browser.find_element(By.CSS_SELECTOR, "#main-copy a[href^=\"/sheet/\"]").click()
    wait(lambda: "Sheet: " + name in browser.find_element(By.ID, "sheet").text,
         what="the character page")
    assert "Willpower 4/6" in browser.find_element(By.ID, "sheet").text
    shoot(browser, "character-page.png")

    browser.switch_to.window(client_tab)
    send("+combat/end", "fight")


# Run in the server (issue 30): the payloads stored directly, past whatever cleans what
# players type, as text stored before that cleaning existed would be.
_STORE = """
from dataclasses import replace
from types import MappingProxyType
from evennia import search_object
from wodcombat.typeclasses.combat import combat_in
char = search_object(NAME, exact=True)[0]
script = combat_in(char.location)
state = script.get_state()
goon = next(c for c in state.combatants if c.name == "Goon")
state = state.with_combatants({goon.key: replace(goon, name=NPC)})
script.commit(state, events=[{"event": "intent", "intent": {}, "text": TEXT}])
sheet = char.sheet.get()
char.sheet.save(replace(sheet, specialties=MappingProxyType(SPECS)))
print("PAYLOADS-" + "STORED " + state.id)
"""


def store_payloads(game_server, name: str) -> str:
    text = f"{NESTED_STORED} hits|/{URL} {ESCAPED}"
    specs = {"Brawl": SPEC_A_STORED, "Dodge": SPEC_B}
    code = f"NAME = {name!r}\nNPC = {NESTED_STORED!r}\nTEXT = {text!r}\nSPECS = {specs!r}\n"
    code += _STORE
    line = "py import base64; exec(base64.b64decode('%s').decode(), {})" % (
        base64.b64encode(code.encode()).decode())
    with game_server.connect(timeout=20) as admin:
        admin.login(game_server.admin_user, game_server.admin_password, timeout=20)
        admin.send(line)
        return admin.expect(r"PAYLOADS-STORED (\S+)", timeout=30).group(1)


_CLICK_EVERY = """
var hits = document.evaluate("//*[text()[contains(., 'CLICK')]]", document, null,
                             XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
for (var i = 0; i < hits.snapshotLength; i++) { hits.snapshotItem(i).click(); }
return hits.snapshotLength;
"""


def assert_nothing_ran(browser, where: str, inside: str):
    from selenium.webdriver.common.by import By

    clicked = browser.execute_script(_CLICK_EVERY)
    assert clicked >= 1, f"{where}: no payload text on the page"
    time.sleep(0.5)
    assert browser.execute_script("return window.__pwned === undefined"), f"{where}: ran"
    assert browser.title != "pwned"
    links = browser.find_elements(By.CSS_SELECTOR, f"{inside} a")
    shown = [a.get_attribute("outerHTML") for a in links]
    assert shown == [], f"{where}: <a> from player text: {shown}"


def test_stored_payloads_run_no_script(game_server, browser):
    """Issue 30: a fight and a sheet carrying the link payloads players used render as
    text; clicking every element that shows them runs nothing, and the page holds no <a>
    from them. The policy header is there too (a second wall if the first gave way)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    base = f"http://{game_server.host}:{game_server.web_port}"
    name = "Pay" + uuid.uuid4().hex[:5]
    password = "pw-" + uuid.uuid4().hex[:10]
    with game_server.connect(timeout=20) as telnet:
        telnet.create_and_login(name, password, timeout=20)
        telnet.command("+combat/start", until="starts a fight")
        telnet.command("+combat/npc Goon=thug", until="Goon joins")
        telnet.command("+combat/public on", until="Anyone may watch")
        fid = store_payloads(game_server, name)
        try:
            browser.get(base + "/auth/login/")
            browser.find_element(By.NAME, "username").send_keys(name)
            browser.find_element(By.NAME, "password").send_keys(password + Keys.ENTER)
            wait(lambda: "Logged in as" in browser.page_source, what="website login")

            browser.get(f"{base}/combat/{fid}/")
            wait(lambda: "CLICK12" in browser.find_element(By.ID, "fight-recent").text,
                 what="the room's text with the payloads")
            rows = browser.find_element(By.ID, "fight-rows").text
            assert "P11CLICK11" in rows
            time.sleep(2)  # a poll: the redraw from the JSON is what is clicked
            assert_nothing_ran(browser, "combat page", "#fight")
            shoot(browser, "combat-page-payloads.png")

            browser.get(base + "/")
            browser.find_element(By.CSS_SELECTOR, "#main-copy a[href^=\"/sheet/\"]").click()
            wait(lambda: "SHEETCLICK" in browser.find_element(By.ID, "sheet").text,
                 what="the sheet with the specialties")
            assert_nothing_ran(browser, "sheet page", "#sheet")
            telnet.command("+combat/end", until="fight")
        finally:
            forget_forged_log(game_server, fid)


def forget_forged_log(game_server, fid: str) -> None:
    """The payloads went in past the engine (a forged row): the fight's log is not one the
    engine wrote, so test_zz_replay must not replay it. Its rows go first (an export is
    rebuilt from them), then the export."""
    line = ("py from wodcombat.models import CombatRecord; print('FORGOTTEN-%d' % "
            f"CombatRecord.objects.filter(combat={fid!r}).delete()[0])")
    with game_server.connect(timeout=20) as admin:
        admin.login(game_server.admin_user, game_server.admin_password, timeout=20)
        admin.send(line)
        admin.expect(r"FORGOTTEN-\d+", timeout=30)
    path = os.path.join(game_server.gamedir, "server", "logs", "combat", f"{fid}.jsonl")
    time.sleep(2.5)  # past the fight clock's last tick
    if os.path.exists(path):
        os.remove(path)
