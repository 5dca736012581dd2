"""One family of errors, so callers can tell bad rules, bad typing and illegal moves apart.

Every error carries a message written for the person who can fix it: an admin for rules
files, a player for commands. Messages say what to type instead.
"""

from __future__ import annotations

from dataclasses import dataclass


class WodError(Exception):
    """Base of every error this engine raises on purpose."""


class InputError(WodError):
    """What was typed cannot be understood (syntax, unknown name, value out of range)."""


class IllegalAction(WodError):
    """Understood, but the rules do not allow it now."""


@dataclass(frozen=True, slots=True)
class RuleIssue:
    """One problem in a rules file: which file, which key path, which line, what is wrong."""

    file: str
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        key = f" [{self.path}]" if self.path else ""
        return f"{where}{key}: {self.message}"


class RulesError(WodError):
    """Rules data is invalid; ``issues`` holds every problem found, not just the first."""

    def __init__(self, issues: list[RuleIssue] | tuple[RuleIssue, ...]):
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in self.issues) or "invalid rules")
