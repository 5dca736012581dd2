"""The game's text on a web page (issue 30): the one way text that players may have written
becomes HTML or page text.

Players' words reach the pages (an NPC's name, a specialty, what the room read) carrying
the game's markup. Colours are wanted; Evennia's links are not: ``|lc cmd|lt text|le``
becomes ``<a onclick="Evennia.msg(...cmd...)">`` in ``parse_html``, ``|lu url|lt text|le``
``<a href="url">``, and Evennia strips what players type of links in a single pass, so a
link nested in another survives it and its ``cmd`` can close the quote and write script.
So links are removed here again, to a fixed point, whatever the input side did, and the
HTML is drawn by a parser that makes no link of anything (plain ``http://`` text either).
"""

from __future__ import annotations

import html
import re

from django.utils.safestring import SafeString, mark_safe
from evennia.utils.ansi import strip_ansi
from evennia.utils.text2html import TextToHTMLparser

#: a whole link on one line: its command or URL is dropped, its visible text kept. One that
#: spans lines (two sheet entries joined into one) loses only its codes, so the lines
#: between stay on the page.
_LINE = r"(?:(?!\|/)[^\n])*?"
_LINK = re.compile(rf"\|l[cu]({_LINE})\|lt({_LINE})\|le")
#: what is left of one (an opening without its end, an end without its opening ...)
_TOKEN = re.compile(r"\|l[cute]")
#: what the HTML must never hold; the parser below makes none, this is the last check
_UNSAFE = re.compile(r"<a[\s>]|<[^>]*\son\w*\s*=|javascript:", re.IGNORECASE)
#: stands for a typed ``||`` (a literal pipe) while links are removed: Evennia's parser
#: turns ``||lc`` into ``|lc`` and then into a link; kept aside, it stays the text typed
_PIPE = "\ue000"


def _strip_links(text: str) -> str:
    """``text`` with every Evennia link form gone, ``||`` held as ``_PIPE``, repeated until
    nothing changes: removing one link may join the pieces around it into another."""
    text = str(text).replace(_PIPE, "")
    while True:
        cleaned = _TOKEN.sub("", _LINK.sub(r"\2", text.replace("||", _PIPE)))
        if cleaned == text:
            return text
        text = cleaned


def strip_links(text: str) -> str:
    """``text`` with no Evennia link in it, colours kept (``||`` stays ``||``)."""
    return _strip_links(text).replace(_PIPE, "||")


class _NoLinkParser(TextToHTMLparser):
    """Evennia's colour and line-break HTML, with every link kept as its text only."""

    def sub_mxp_links(self, match):
        return match.group(2)  # already HTML-escaped by the parser's first pass

    def sub_mxp_urls(self, match):
        return match.group(2)

    def convert_urls(self, text):
        return text


_PARSER = _NoLinkParser()


def to_plain(text) -> str:
    """The text a page shows as text (``textContent``, an escaped template variable): no
    link, no colour code."""
    return strip_ansi(_strip_links(text or "")).replace(_PIPE, "|")


def to_html(text) -> SafeString:
    """The game's text as HTML for a page: colours as spans, ``|/`` as line breaks, every
    character a player typed escaped, no link. The only place the site marks player text
    safe."""
    out = _PARSER.parse(_strip_links(text or "")).replace(_PIPE, "|")
    if _UNSAFE.search(out):  # the parser changed under us: fall back to plain text
        out = html.escape(to_plain(text)).replace("\n", "<br>")
    return mark_safe(out)
