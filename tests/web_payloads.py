"""Stored script injection through Evennia's link markup (issue 30), the forms an attacker
used, and a check of what a page's HTML makes of them: shared by the unit, page and
browser tests."""

from html.parser import HTMLParser

#: a nested link: Evennia's one-pass strip of typed links leaves a live onclick behind
NESTED = ('P11|lcA|lt|lc|le\\"+alert(document.domain)]);window.__pwned=1;'
          "document.title='pwned';function Evennia(){}//|ltCLICK11|le")
#: NESTED as Evennia's one-pass strip of what players type stored it: one live link whose
#: command closes the quote of ``Evennia.msg("...")`` and runs (``function Evennia`` is
#: hoisted, so the page's own Evennia does not even matter)
NESTED_STORED = 'P11|lc\\"+(window.__pwned=1)]);function Evennia(){}//|ltCLICK11|le'
#: the |lu form: a javascript: URL
URL = "|lujavascript:window.__pwned=2;document.title='pwned'|ltCLICK12|le"
#: split over two sheet specialties: the first opens a comment the second closes
SPEC_A = '|lcA|lt|lc|le\\"+(window.__pwned=3)]);/*'
SPEC_B = "*/function Evennia(){}//|ltSHEETCLICK|le"
SPEC_A_STORED = '|lc\\"+(window.__pwned=3)]);/*'  # as stored by the one-pass strip
#: ``||`` is a typed pipe: Evennia's HTML parser still makes a link of what follows
ESCAPED = "||lcwindow.__pwned=4|ltCLICK14|le"
#: the two as the sheet shows them, the lines between them inside the comment
SHEET = f"Brawl ({SPEC_A_STORED})|/Dexterity 3|/Dodge ({SPEC_B})"
#: each a live link or handler in Evennia's own ``parse_html``
EVERY = (NESTED, NESTED_STORED, URL, SHEET, ESCAPED)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags_of(page: str) -> list[tuple[str, dict]]:
    parser = _Tags()
    parser.feed(page)
    parser.close()
    return parser.tags


def unsafe_in(page: str) -> list[str]:
    """What in ``page`` could run or link: <a> elements, on* handlers, javascript: URLs."""
    found = []
    for tag, attrs in tags_of(page):
        if tag == "a":
            found.append(f"<a {attrs}>")
        found += [f"<{tag} {k}=...>" for k in attrs if k.startswith("on")]
        found += [f"<{tag} {k}={v!r}>" for k, v in attrs.items()
                  if v and "javascript:" in v.replace(" ", "").lower()]
    return found
