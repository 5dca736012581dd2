"""The site laid out at 1280, 800 and 400 px (issue 29): the header (brand, menu, "Logged in
as ... / Log Out") and each page the game serves fit the window, nothing is cut off inside
its box, nothing scrolls sideways and no menu entry breaks over two lines. Screenshots of
the fight page at 1280 and 400 px go to server/logs/screenshots/ (docs/screenshots/ holds
the copies the README shows)."""

import uuid

from tests.e2e.test_web_browser import shoot, wait

WIDTHS = (1280, 800, 400)

# Every visible element past the window's edges or cut inside its own box; the page's
# sideways scroll; a menu entry drawn on more than one line.
OVERFLOW = """
var W = document.documentElement.clientWidth, bad = [];
function name(e) {
  return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && e.className.baseVal === undefined
     ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
    ' "' + (e.textContent || '').trim().slice(0, 30) + '"';
}
if (document.documentElement.scrollWidth > W) {
  var widest = null, far = 0;
  document.querySelectorAll('body *').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.right > far) { far = r.right; widest = e; }
  });
  bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + W +
           (widest ? ' (widest: ' + name(widest) + ')' : ''));
}
document.querySelectorAll('body *').forEach(function (e) {
  var s = getComputedStyle(e), r = e.getBoundingClientRect();
  if (s.display === 'none' || s.visibility === 'hidden' || !r.width || !r.height) return;
  if (e.closest('.sr-only')) return;  // drawn off-screen on purpose, for screen readers
  if (r.right > W + 0.5 || r.left < -0.5) bad.push(name(e) + ' reaches ' + Math.round(r.right));
  if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1)
    bad.push(name(e) + ' cuts its content: ' + e.scrollWidth + ' > ' + e.clientWidth);
});
document.querySelectorAll('.navbar .nav-link, .navbar button').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (!r.width || e.closest('.dropdown-menu')) return;
  var range = document.createRange(); range.selectNodeContents(e);
  var tops = new Set(Array.from(range.getClientRects())
    .map(function (q) { return Math.round(q.top); }));
  if (tops.size > 1) bad.push(name(e) + ' breaks over ' + tops.size + ' lines');
});
return bad;
"""


def login(browser, base, name, password):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(base + "/auth/login/")
    browser.find_element(By.NAME, "username").send_keys(name)
    browser.find_element(By.NAME, "password").send_keys(password + Keys.ENTER)
    wait(lambda: "Logged in as" in browser.page_source, what="website login")


def test_every_page_fits_at_1280_800_and_400_px(game_server, browser):
    from selenium.webdriver.common.by import By

    base = f"http://{game_server.host}:{game_server.web_port}"
    name = "Layout" + uuid.uuid4().hex[:5]
    password = "pw-" + uuid.uuid4().hex[:10]
    with game_server.connect(timeout=20) as telnet:
        telnet.create_and_login(name, password, timeout=20)
        telnet.command("+combat/start", until="starts a fight")
        telnet.command("+combat/npc Longnamed Bodyguard=thug", until="joins")
        telnet.command("+combat/damage Longnamed Bodyguard=6 lethal", until="lethal")
        telnet.command("+combat/public on", until="Anyone may watch")
    login(browser, base, game_server.admin_user, game_server.admin_password)  # staff: the
    # widest menu (Admin, API)
    browser.get(base + "/combat/")
    fight = browser.find_element(By.CSS_SELECTOR, "table a").get_attribute("href")
    browser.get(base + "/")
    sheet = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a")
             if "/sheet/" in (a.get_attribute("href") or "")][0]
    pages = {"front": base + "/", "fights": base + "/combat/", "fight": fight,
             "sheet": sheet, "help": base + "/help/"}
    found = {}
    for width in WIDTHS:
        browser.set_window_size(width, 900)
        inner = browser.execute_script("return window.innerWidth")
        browser.set_window_size(width + (width - inner), 900)  # the viewport, not the window
        assert browser.execute_script("return window.innerWidth") == width
        for page, url in pages.items():
            browser.get(url)
            if page == "fight":
                wait(lambda: browser.find_elements(By.CSS_SELECTOR, "#fight-rows tbody tr"),
                     what="the fight page's rows")
                if width in (1280, 400):
                    shoot(browser, f"fight-page-{width}.png")
            bad = browser.execute_script(OVERFLOW)
            if bad:
                found[f"{page} at {width} px"] = bad
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())
