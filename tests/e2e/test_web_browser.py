"""The website and web client in a real browser (issue 12): headless Chromium (Debian's
``chromium`` and ``chromidriver``, installed by bin/setup-system) against the test server,
with no way to the internet: every library the pages load is served by the game.

A player logs in on the website, plays from the web client while their telnet session stays
connected (one account, two sessions), and the combat page open in another tab changes as
the fight moves, without a reload. Screenshots of the combat page and the character page go
to server/logs/screenshots/ (git-ignored)."""

import os
import shutil
import tempfile
import time
import uuid

import pytest

from tests.e2e.harness import REPO_ROOT

CHROMIUM = os.environ.get("WOD_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("WOD_CHROMEDRIVER", "/usr/bin/chromedriver")
SHOTS = os.path.join(REPO_ROOT, "server", "logs", "screenshots")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1280,1000")


@pytest.fixture
def browser():
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        if os.environ.get("WOD_REQUIRE_BROWSER"):
            pytest.fail(f"no {CHROMIUM} / {CHROMEDRIVER}: run bin/setup-system")
        pytest.skip("Chromium is not installed (bin/setup-system installs it)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="wod-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


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
    browser.find_element(By.CSS_SELECTOR, "a[href^=\"/sheet/\"]").click()
    wait(lambda: "Sheet: " + name in browser.find_element(By.ID, "sheet").text,
         what="the character page")
    assert "Willpower 4/6" in browser.find_element(By.ID, "sheet").text
    shoot(browser, "character-page.png")

    browser.switch_to.window(client_tab)
    send("+combat/end", "fight")
