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


# ---------------------------------------------------------------- V5 dice (spotlight)


def v5_faces_text(faces: Iterable[int], hunger: int, success_at: int = 6) -> str:
    """V5 dice, the Hunger dice shown apart after the others (issue 10): '[8 6 3] Hunger
    [10 1]'. Successes green; on a Hunger die a 10 (messy) and a 1 (bestial) stand out."""
    faces = list(faces)
    normal, hungry = faces[hunger:], faces[:hunger]

    def one(f: int, hunger_die: bool) -> str:
        if hunger_die and f == 1:
            return f"|r{f}|n"
        if hunger_die and f == 10:
            return f"|R{f}|n"
        return f"|g{f}|n" if f >= success_at else str(f)

    text = "[" + " ".join(one(f, False) for f in normal) + "]"
    if hungry:
        text += " Hunger [" + " ".join(one(f, True) for f in hungry) + "]"
    return text


def v5_outcome_text(successes: int, result: str) -> str:
    """'4 successes, critical' / '2 successes, win' / '0 successes, bestial failure'. A
    plain win reads "win" (V5's word for a test passed): "3 successes, success" said the
    same thing twice."""
    count = f"{successes} success{'es' if successes != 1 else ''}"
    colour = {"messy critical": "|R", "bestial failure": "|r", "failure": "|y"}.get(result, "|g")
    return f"{count}, {colour}{'win' if result == 'success' else result}|n"
