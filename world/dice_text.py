"""One way to show a die roll, for ``+roll`` and for combat: ones red, successes green,
the outcome coloured; the colour codes degrade to plain text on a client without colour."""

from __future__ import annotations

from typing import Iterable


def faces_text(faces: Iterable[int], difficulty: int) -> str:
    out = []
    for f in faces:
        if f == 1:
            out.append(f"|r{f}|n")
        elif f >= difficulty:
            out.append(f"|g{f}|n")
        else:
            out.append(str(f))
    return " ".join(out) or "no dice"


def outcome_text(successes: int, botch: bool, *, failure: str = "failure") -> str:
    if botch:
        return "|rBOTCH|n"
    if successes == 0:
        return f"|y{failure}|n"
    return f"|g{successes} success{'es' if successes != 1 else ''}|n"
