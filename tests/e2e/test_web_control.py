"""Issue 29: the fight page as the organizer's control surface, in a real browser (headless
Chromium) against a real server. The organizer runs a turn from the page (adds two NPCs
from a template, rolls and declares for them, acts, deals damage, undoes it, moves on)
while a player on telnet reads the same lines; then the player, on the page, declares and
acts when the fight waits on them. Dice are the game's own: the loops answer whoever the
page says is up."""

import re
import time
import uuid

from tests.e2e.test_web_browser import shoot, wait

WHO_UP = re.compile(r"(\S+) \((initiative|declare|act)\)")


def login(drv, base, name, password):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    drv.get(base + "/auth/login/")
    drv.find_element(By.NAME, "username").send_keys(name)
    drv.find_element(By.NAME, "password").send_keys(password + Keys.ENTER)
    wait(lambda: "Logged in as" in drv.page_source, what=f"{name}'s website login")


def open_fight(drv, base):
    from selenium.webdriver.common.by import By

    drv.get(base + "/combat/")
    drv.find_element(By.CSS_SELECTOR, "table a").click()
    wait(lambda: drv.find_elements(By.CSS_SELECTOR, "#fight-rows tbody tr"),
         what="the fight page's rows")


def replies(drv, after: int = 0) -> str:
    """The text of the replies after the ``after``-th (the page keeps the last 12)."""
    return drv.execute_script(
        "var out = [], after = arguments[0];"
        "document.querySelectorAll('#fight-replies > div').forEach(function (d) {"
        "  if (+d.getAttribute('data-n') > after) { out.push(d.textContent); } });"
        "return out.join('\\n');", after)


def answered(drv) -> int:
    return drv.execute_script(
        "var last = document.querySelector('#fight-replies > div:last-child');"
        "return last ? +last.getAttribute('data-n') : 0;")


def run(drv, element, until, what):
    """Click ``element``; wait until ``until`` shows in the replies that follow."""
    seen = answered(drv)
    element.click()
    try:
        wait(lambda: answered(drv) > seen and until in replies(drv, seen), what=what)
    except AssertionError as err:
        raise AssertionError(f"{err}; the page was told: {replies(drv, seen)!r}") from None
    return replies(drv, seen)


def up(drv) -> list[tuple[str, str]]:
    text = drv.execute_script(
        "return document.getElementById('fight-waiting').textContent;")
    return WHO_UP.findall(text)


def npc_button(drv, npc, label):
    from selenium.webdriver.common.by import By

    item = drv.find_element(By.XPATH, f"//ul[@id='fight-npcs']/li[strong='{npc}']")
    return item.find_element(By.XPATH, f".//button[text()='{label}']")


def yours(drv, label):
    from selenium.webdriver.common.by import By

    return wait(lambda: drv.find_elements(
        By.XPATH, f"//div[@id='fight-yours-do']/button[text()='{label}']"),
        what=f"the page's {label!r} for you")[0]


def test_organizer_runs_a_turn_and_a_player_plays_from_the_page(game_server, browser):  # noqa: F811
    drv = browser
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base = f"http://{game_server.host}:{game_server.web_port}"
    org, pc = "Org" + uuid.uuid4().hex[:5], "Pc" + uuid.uuid4().hex[:5]
    org_pw, pc_pw = "pw-" + uuid.uuid4().hex[:10], "pw-" + uuid.uuid4().hex[:10]
    with game_server.connect(timeout=20) as o, game_server.connect(timeout=20) as p:
        o.create_and_login(org, org_pw, timeout=20)
        p.create_and_login(pc, pc_pw, timeout=20)
        for line in ("+sheet/set dex=3", "+sheet/set wits=3", "+sheet/set brawl=3"):
            o.command(line, until="set to")
        for line in ("+sheet/set dex=2", "+sheet/set wits=2", "+sheet/set dodge=2"):
            p.command(line, until="set to")
        # slot by slot: the test walks the page's buttons through each slot in turn (paced
        # ahead, the default, a declared action resolves in its slot with no Act to press)
        o.command("+combat/start=slots", until="starts a fight")
        p.command("+combat/join", until="joins the fight")
        try:
            organizer_turn(drv, base, (org, org_pw, pc), o, p, By, Select)
            player_turn(drv, base, pc, pc_pw, o, p, By)
        finally:
            o.send("+combat/end")
            o.read_until("fight", timeout=20)


def organizer_turn(drv, base, who, o, p, By, Select):  # noqa: N803
    org, org_pw, pc = who
    login(drv, base, org, org_pw)
    open_fight(drv, base)
    wait(lambda: drv.find_element(By.ID, "fight-run").is_displayed(),
         what="the organizer's controls")
    form = drv.find_element(By.ID, "fight-add")
    form.find_element(By.NAME, "name").send_keys("Goon")
    count = form.find_element(By.NAME, "count")
    count.clear()
    count.send_keys("2")
    Select(form.find_element(By.NAME, "template")).select_by_value("thug")
    run(drv, form.find_element(By.TAG_NAME, "button"), "Goon2 joins", "two NPCs")
    p.read_until("Goon2 joins", timeout=20)  # the telnet player reads the same lines

    run(drv, yours(drv, "Roll initiative"), "rolls initiative", "your initiative")
    wait(lambda: drv.find_elements(By.XPATH, "//ul[@id='fight-npcs']/li[strong='Goon2']"),
         what="the NPC list")
    for npc in ("Goon1", "Goon2"):
        run(drv, npc_button(drv, npc, "Initiative"), f"{npc} rolls initiative",
            f"{npc}'s initiative")
    p.command("+combat/init", until="rolls initiative")
    next_button = drv.find_element(By.CSS_SELECTOR,
                                   "#fight-run button[data-line='+combat/next']")
    run(drv, next_button, "declare phase", "the declaration phase")
    p.read_until("declare phase", timeout=20)

    auto = drv.find_element(By.CSS_SELECTOR,
                                "#fight-run button[data-line='+combat/declare/auto']")
    run(drv, auto, "Goon", "the NPCs' declarations")
    for _ in range(20):  # declarations, lowest initiative first; then the act phase
        time.sleep(1)
        now = up(drv)
        if not now or now[0][1] != "declare":
            break
        who = now[0][0]
        if who == org:
            box = drv.find_element(By.CSS_SELECTOR, "#fight-yours-do input")
            box.clear()
            box.send_keys("attack Goon1")
            run(drv, yours(drv, "Declare"), "declares", "your declaration")
        elif who.startswith("Goon"):
            box = npc_button(drv, who, "Act").find_element(By.XPATH, "../input")
            box.clear()
            box.send_keys(f"attack {pc}")
            run(drv, npc_button(drv, who, "Declare"), "declares", f"{who} declares")
        else:
            p.command("+combat/dodge", until="declares")
    assert act_from_page(drv, org, p, once=True), "nobody acted from the page"

    harm = drv.find_element(By.ID, "fight-harm")
    Select(harm.find_element(By.NAME, "who")).select_by_visible_text("Goon2")
    Select(harm.find_element(By.NAME, "what")).select_by_value("damage")
    amount = harm.find_element(By.NAME, "amount")
    amount.clear()
    amount.send_keys("2 lethal")
    said = run(drv, harm.find_element(By.TAG_NAME, "button"), "Goon2 takes 2 lethal",
               "the staff damage")
    p.read_until("Goon2 takes 2 lethal", timeout=20)
    undo = drv.find_element(By.CSS_SELECTOR, "#fight-run button[data-line='+combat/undo']")
    said = run(drv, undo, "ndo", "the undo")
    p.read_until("ndo", timeout=20)
    assert "Traceback" not in said
    # the turn waits on someone to act: Next says so (the command's own words), and moves
    # nothing; once all have acted the next turn begins by itself
    said = run(drv, next_button, "", "next")
    assert "Still waiting for" in said or "[Combat]" in said, said
    shoot(drv, "fight-page-controls.png")
    act_from_page(drv, org, p, once=False)
    p.read_until("Turn 2 begins", timeout=20)


def act_from_page(drv, org, p, once):
    """Whoever the act phase waits on acts: the organizer and the NPCs from the page, the
    player on telnet; ``once``: stop after the page's first action. Whether the page acted."""
    from selenium.webdriver.common.by import By

    acted = False
    for _ in range(30):
        time.sleep(1)
        now = up(drv)
        if (once and acted) or not now or now[0][1] != "act":
            break
        who = now[0][0]
        if who == org:
            run(drv, yours(drv, "Act"), "[Combat]", "your action")
            acted = True
        elif who.startswith("Goon"):
            run(drv, npc_button(drv, who, "Act"), "[Combat]", f"{who}'s action")
            acted = True
        else:
            p.command("+combat/act", until="[Combat]")
    assert drv.find_elements(By.ID, "fight-replies")
    return acted


def organizer_moves(o):
    """The organizer, on telnet, answers for himself and his NPCs; a line out of turn is
    refused and changes nothing."""
    for line in ("+combat/declare/auto", "+combat/declare dodge", "+combat/act",
                 "+combat/act Goon1", "+combat/act Goon2"):
        o.send(line)
    o.read_available(1.0)


def player_turn(drv, base, pc, pc_pw, o, p, By):  # noqa: N803
    """The player on the page: what the fight waits on them for, and its buttons."""
    drv.delete_all_cookies()  # logged out: the website's session was a cookie
    login(drv, base, pc, pc_pw)
    open_fight(drv, base)
    assert not drv.find_element(By.ID, "fight-run").is_displayed()
    for _ in range(40):  # the organizer moves the fight on until it waits on the player
        time.sleep(1)
        now = dict((w, k) for k, w in reversed(up(drv)))
        if now.get("declare") == pc or now.get("act") == pc:
            break
        organizer_moves(o)
        if not up(drv):
            o.send("+combat/next")
    text = drv.find_element(By.ID, "fight-yours-now").text
    assert text.startswith("The fight waits on you to"), text
    if now.get("declare") == pc:
        box = drv.find_element(By.CSS_SELECTOR, "#fight-yours-do input")
        box.send_keys("attack Goon1")
        run(drv, yours(drv, "Declare"), "declares", "the player's declaration")
        o.read_until("declares", timeout=20)  # the organizer reads it too
    for _ in range(40):
        time.sleep(1)
        now = dict((w, k) for k, w in reversed(up(drv)))
        if now.get("act") == pc:
            break
        organizer_moves(o)
        if not up(drv):
            o.send("+combat/next")
    run(drv, yours(drv, "Act"), "[Combat]", "the player's action")
