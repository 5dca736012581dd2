"""The web client draws the game's gauges (issue 29): GMCP ``Char.Vitals`` and
``Char.Combat`` reach Evennia's web client as ``char_vitals`` / ``char_combat``; the
game's plugin (wodcombat/static/wod/webclient_gauges.js) draws the health track (HLT-01), the
wound penalty (HLT-06), Willpower and the fight's turn in a panel, and the client prints no
"Error or Unhandled event" for them. The page asks no host but the game's own (Evennia's font
plugin asked fonts.googleapis.com for seven fonts)."""

import json
import uuid
from urllib.parse import urlparse

import pytest

from tests.e2e.harness import chromium
from tests.e2e.test_web_browser import shoot, wait


@pytest.fixture
def logged_browser():
    """Chromium as in test_web_browser, keeping its network log (every request it made)."""
    yield from chromium({"goog:loggingPrefs": {"performance": "ALL"}})


def requested_hosts(driver) -> set[str]:
    """The hosts of every request the browser sent (or tried to) since the last call."""
    hosts = set()
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") in ("Network.requestWillBeSent",
                                     "Network.webSocketCreated"):
            url = (message["params"].get("request") or message["params"]).get("url", "")
            if url.startswith(("http", "ws")):
                hosts.add(urlparse(url).hostname)
    return hosts


def panel_text(browser) -> str:
    return browser.execute_script(
        "var p = document.getElementById('wod-gauges');"
        "return p && !p.hidden ? p.textContent : '';")


def test_web_client_draws_the_gauges_and_asks_no_other_host(game_server, logged_browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser = logged_browser
    base = f"http://{game_server.host}:{game_server.web_port}"
    name = "Gauge" + uuid.uuid4().hex[:5]
    password = "pw-" + uuid.uuid4().hex[:10]
    with game_server.connect(timeout=20) as telnet:
        telnet.create_and_login(name, password, timeout=20)
        telnet.command("+sheet/set willpower=4/6", until="set to")

    browser.get(base + "/auth/login/")
    browser.find_element(By.NAME, "username").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password + Keys.ENTER)
    wait(lambda: "Logged in as" in browser.page_source, what="website login")
    browser.get(base + "/webclient/")
    field = wait(lambda: [f for f in browser.find_elements(By.CSS_SELECTOR, ".inputfield")
                          if f.is_displayed()], what="the web client's input")[0]

    # at login: the track unhurt and Willpower, drawn (not printed as an unknown event)
    wait(lambda: "Healthy" in panel_text(browser), what="the health gauge at login")
    assert "Willpower 4/6" in panel_text(browser)

    def send(line, until):
        field.click()
        field.send_keys(line + Keys.ENTER)
        wait(lambda: until in browser.find_element(By.TAG_NAME, "body").text,
             what=f"{until!r} after {line!r}")

    send("+combat/start", "starts a fight")
    send("+combat/npc Goon=thug", "Goon joins")
    wait(lambda: "Fight" in panel_text(browser) and "of 2" in panel_text(browser),
         what="the fight panel")
    send(f"+combat/damage {name}=2 lethal", "lethal")
    wait(lambda: "Hurt (-1)" in panel_text(browser), what="the track after the hit")
    marked = browser.find_elements(By.CSS_SELECTOR, "#wod-gauges .wod-box.wod-lethal")
    assert [b.text for b in marked] == ["X", "X"]
    shoot(browser, "webclient-gauges.png")

    body = browser.find_element(By.TAG_NAME, "body").text
    assert "Unhandled event" not in body and "char_vitals" not in body
    send("+combat/end", "fight")
    wait(lambda: "Fight" not in panel_text(browser), what="the fight panel to go")

    hosts = requested_hosts(browser)
    assert hosts and hosts <= {game_server.host}, hosts
