"""Issue 30: the one path from the game's text to a page's HTML (wodcombat/world/web_text.py) keeps
colours and line breaks and makes no link, handler or script URL of anything a player
typed, whatever the input side let through."""

import re

import pytest

from tests.web_payloads import ESCAPED, EVERY, NESTED, SHEET, SPEC_A, SPEC_B, URL, unsafe_in
from wodcombat.world.web_text import strip_links, to_html, to_plain


def assert_inert(page: str):
    assert "<a" not in page
    assert "onclick" not in page.lower()
    assert "javascript:" not in page.lower()
    assert unsafe_in(page) == []


@pytest.mark.parametrize("text", EVERY, ids=["nested", "stored", "url", "sheet", "escaped"])
def test_no_payload_becomes_a_link(text):
    from evennia.utils.text2html import parse_html

    assert unsafe_in(parse_html(text)), "the payload no longer attacks Evennia's parser"
    assert_inert(to_html(text))


def test_a_links_visible_text_stays_its_command_goes():
    page = to_html(NESTED)
    assert page.startswith("P11") and page.endswith("CLICK11")
    assert "alert(document.domain)" in page  # as text: the quote cannot close anything
    assert to_html(URL) == "CLICK12"


def test_two_specialties_joined_stay_inert():
    page = to_html(SHEET)
    assert_inert(page)
    assert page.count("<br>") == 2 and "SHEETCLICK" in page
    assert_inert(to_html(SPEC_A) + to_html(SPEC_B))


def test_a_typed_pipe_stays_a_pipe():
    assert to_html(ESCAPED) == "|lcwindow.__pwned=4CLICK14"
    assert to_plain("a || b") == "a | b"
    assert strip_links("a || b |rred") == "a || b |rred"


def test_colours_and_line_breaks_are_kept():
    page = to_html("|rHurt|n -1|/next line\tand a tab")
    assert '<span class="color-009">Hurt</span>' in page
    assert "<br>next line" in page
    assert "<br>" not in to_html("one line")


def test_html_typed_is_escaped_and_urls_are_text():
    page = to_html('<script>x()</script> <img src=x onerror=y> http://evil.example/"')
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    assert "http://evil.example/" in page and "href" not in page
    assert_inert(page)


def test_a_long_text_and_a_deep_nesting():
    long = (NESTED + URL + SPEC_A + SPEC_B) * 30
    long = long[:3000]
    assert len(long) == 3000
    assert_inert(to_html(long))
    deep = "|l" * 1000 + "c" * 1000 + "x|ltCLICK|le"  # each removal makes the next |lc
    assert len(deep) == 3012
    page = to_html(deep)
    assert_inert(page)
    assert re.search(r"\|l[cute]", page) is None


def test_plain_text_has_no_codes_and_no_link():
    assert to_plain("|rThug|n") == "Thug"
    assert to_plain(NESTED).endswith("CLICK11") and "|l" not in to_plain(NESTED)
    assert to_plain(None) == "" and to_html(None) == ""
