"""A sentence about someone turned to them, or back to the room: the engine words a refusal
about whom it concerns ("Bob can't ..."); the reader is told "You can't ...", and a defense
told to the defender ("You cannot soak ...") reaches the room as "Thug cannot soak ..."."""

from __future__ import annotations

import re


_VERBS = {"has": "have", "is": "are", "was": "were", "needs": "need", "takes": "take",
          "carries": "carry", "gets": "get", "does": "do", "holds": "hold", "knows": "know",
          "wears": "wear", "spends": "spend", "acts": "act", "rolls": "roll",
          "declares": "declare", "joins": "join", "goes": "go", "uses": "use",
          "isn't": "aren't", "hasn't": "haven't", "doesn't": "don't", "loses": "lose"}
# Only the possessive and reflexive: "they" and "them" often mean something else in the
# same sentence ("to get them", "they resolve when ...").
_THEM = {"their": "your", "themself": "yourself", "themselves": "yourself"}


def second_person(text: str, name: str) -> str:
    """A refusal about ``name`` said to ``name``: "Bob can delay only when it is their turn"
    -> "You can delay only when it is your turn" (the engine names whom a rule concerns; the
    reader is told in the second person)."""
    if not name or not re.search(rf"(?<![\w#]){re.escape(name)}(?!\w)", text):
        return text

    def cap(word: str, at: int) -> str:
        start = at == 0 or text[:at].rstrip().endswith((".", "!", "?"))
        return word[0].upper() + word[1:] if start else word

    def own(m: re.Match) -> str:
        return cap("your", m.start())

    def subject(m: re.Match) -> str:
        already, verb = m.group(1) or "", m.group(2) or ""
        verb = _VERBS.get(verb.lower(), verb) if verb else ""
        return cap("you", m.start()) + (f" {already.strip()}" if already else "") + (
            f" {verb}" if verb else "")

    # A command quoted in the text ("Staff can undo it: +sheet/revive Bob") keeps its name,
    # and so does what the reader typed, quoted back ("'admin' is not in this fight").
    commands: list[str] = []

    def keep(m: re.Match) -> str:
        commands.append(m.group(0))
        return f"\x00{len(commands) - 1}\x00"

    text = re.sub(r"\+[\w/]+(?:\s+[^\s,;]+)?|(?<!\w)'[^'\n]+'(?!\w)", keep, text)
    n = re.escape(name)
    text = re.sub(rf"(?<![\w#]){n}'s(?!\w)", own, text)
    text = re.sub(rf"(?<![\w#]){n}(?!\w)(\s+already)?(?:\s+([\w']+))?", subject, text)
    # Later verbs of the same subject ("Bob is dazed and incapacitated and loses ...")
    # agree with "you" too.
    def agree(m: re.Match) -> str:
        return re.sub(r"\band ([\w']+)",
                      lambda v: "and " + _VERBS.get(v.group(1), v.group(1)), m.group(0))

    text = re.sub(r"(?:^|(?<=[.!?] ))You\b[^.;:!?\x00]*", agree, text)
    text = re.sub(r"\b(themselves|themself|their)\b",
                  lambda m: _THEM[m.group(1)], text)
    return re.sub(r"\x00(\d+)\x00", lambda m: commands[int(m.group(1))], text)


_THIRD = {v: k for k, v in _VERBS.items()} | {m: m for m in (  # modal verbs take no -s
    "can", "can't", "cannot", "may", "must", "might", "should", "will", "would", "could")}


def third_person(text: str, name: str) -> str:
    """A refusal said to the defender, told to the room about them: "You can't block lethal
    damage you cannot soak" -> "Thug can't block lethal damage they cannot soak" (the attack
    rules word why a defense fails for the one defending; the room hears it as narration)."""
    seen = []

    def subject(m: re.Match) -> str:
        verb = m.group(2)
        who = "they" if seen else name
        seen.append(who)
        if who == name:
            verb = _THIRD.get(verb, verb + "s" if verb.isalpha() and verb.islower()
                              and not verb.endswith("s") else verb)
        return f"{who} {verb}"

    text = re.sub(r"\b([Yy]ou) ([\w']+)", subject, text)
    return re.sub(r"\b[Yy]our\b", "their", text)
