"""help +combat: a first page a new player reads in one screen, the rest on topic pages.

Issue 28: ``help +combat`` was seven pager pages. The command's docstring now uses Evennia's
help subtopics (``# subtopics`` / ``## <topic>``, evennia/help/utils.py), so
``help +combat/declare`` and the like are found by Evennia's own help command with no
setting for the host game to add.
"""

import re

from evennia.help.utils import parse_entry_for_subcategories

from tests.commands.test_combat import CombatTest
from wodcombat.commands.combat import CmdCombat

SCREEN_LINES = 24
WIDTH = 78
TOPICS = ("declare", "turn", "start", "staff", "ranges", "spotlight", "examples")


def pages() -> dict[str, str]:
    """Topic -> its text, as Evennia's help command splits the docstring (None: page 1)."""
    tree = parse_entry_for_subcategories(CmdCombat().get_help(None, None))
    return {key: (val if isinstance(val, str) else val[None]) for key, val in tree.items()}


def named(switch: str, text: str) -> bool:
    """``/switch`` anywhere, or a Switches line that starts with it (``dodge, block -``)."""
    return bool(re.search(rf"/{switch}\b", text)
                or re.search(rf"^\s+(?:\w+, )*{switch}(?:, \w+)*\s+- ", text, re.M))


class TestHelpPages(CombatTest):
    def test_first_page_fits_one_screen(self):
        text = self.cmd("help +combat").text
        lines = text.splitlines()
        self.assertNotIn("(Page [", text)  # not paged
        self.assertLessEqual(len(lines), SCREEN_LINES, text)
        # visible columns: Evennia pads its Subtopics grid with blanks past 78
        self.assertFalse([ln for ln in lines if len(ln.rstrip()) > WIDTH], text)
        for typed in ("+combat ", "+combat/join", "+combat/init", "+combat/declare",
                      "+combat/act"):
            self.assertIn(typed, text)
        self.assertIn("lowest initiative first", text)  # the turn, in two lines
        self.assertIn("+combat/declare", text.split("Subtopics:")[-1])  # where to read more

    def test_every_topic_is_found_by_help(self):
        for topic in TOPICS:
            text = self.cmd(f"help +combat/{topic}").text
            # Evennia shows the title without the + (combat is an alias)
            self.assertIn(f"Help for combat/{topic}", text)
            self.assertNotIn("No help entry found", text)
        self.assertEqual(set(TOPICS), {k for k in pages() if k is not None})

    def test_every_switch_is_named_in_some_page(self):
        text = "\n".join(pages().values())
        switches = (*CmdCombat.wod_switches, *CmdCombat.flag_switches,
                    *CmdCombat.switch_aliases)
        self.assertEqual([s for s in switches if not named(s, text)], [])

    def test_every_page_fits_78_columns(self):
        from textwrap import dedent

        for topic, text in pages().items():
            wide = [ln for ln in dedent(text).splitlines() if len(ln) > WIDTH]
            self.assertEqual(wide, [], topic)

    def test_an_error_gives_the_switch_own_usage(self):
        """A malformed /start is answered with /start's form, from its own page."""
        text = self.cmd("+combat/start numetal=fast").text
        self.assertIn("Usage: +combat/start [<ruleset>][=simple|reroll|slots]", text)
        self.assertNotIn("+combat/join", text)
        text = self.cmd("+combat extra").text  # the first page's forms, without their notes
        self.assertIn("Usage: +combat | +combat/join | +combat/init", text)
        self.assertNotIn("join the fight", text)
