"""Two sides of a simulated fight from what an admin types, and the summary as text (issue 13).

Shared by ``+combat/odds`` and ``bin/simulate``; no Evennia import, so the script runs
without the game. A side is an NPC template (``+combat/templates``), a trait list in the
words of ``+combat/npc`` (``str=3,dex=3,brawl=2``), or a sheet given by the caller (a
character's, a ``Sheet.to_dict`` file). What it does is its template's default in the words
of ``+combat/declare`` (``{pc}``: the other side), else ``attack <the other>``; the same
words are its ``+combat/act`` where the engine asks no declaration (spotlight).
"""

from __future__ import annotations

from typing import Mapping

from wodcombat.combat import simulate as sim
from wodcombat.combat.spotlight import attack as spotlight_attack
from wodcombat.combat.spotlight import moves as spotlight_moves
from wodcombat.combat.spotlight import tables as spotlight_tables
from wodcombat.combat.core.errors import InputError, WodError
from wodcombat.combat.core.player_text import did_you_mean
from wodcombat.combat.core.sheet import Sheet
from wodcombat.world.prototypes import NPC_TEMPLATE_ALIASES, NPC_TEMPLATES
from wodcombat.world.text_width import WIDTH, wrap

from .combat_declare import DeclarationParser, split_words

ATTACK_VERBS = ("attack", "bite")
# Declaration words after the target that +combat/act does not take (maneuver, location ...)
D10_ONLY_WORDS = ("as", "at", "from", "moving", "using", "on", "spec", "wp", "off", "and")


def template_key(text: str) -> str | None:
    """The template ``text`` names (alias, exact, unique prefix), or None."""
    key = " ".join(text.lower().split())
    key = NPC_TEMPLATE_ALIASES.get(key, key)
    if key in NPC_TEMPLATES:
        return key
    hits = [k for k in NPC_TEMPLATES if k.startswith(key)] if key else []
    return hits[0] if len(hits) == 1 else None


def unknown_side(text: str, extra: str = "", traits: bool = True) -> InputError:
    tip = did_you_mean(text, NPC_TEMPLATES)
    return InputError(f"'{text.strip()}' is not an NPC template{extra}.{tip} Templates: "
                      f"{', '.join(NPC_TEMPLATES)} (+combat/templates)"
                      + (", or traits: str=3,dex=2,brawl=2." if traits else "."))


def trait_sheet(rules, text: str) -> Sheet:
    """``str=3,dex=2,brawl=2`` as ``+combat/npc`` reads it (``Sheet.set`` each)."""
    cat = rules.traits
    sheet = Sheet().with_pools_for(cat)
    for part in (p.strip() for p in text.split(",")):
        trait, eq, value = part.partition("=")
        if not eq or not trait.strip():
            raise InputError(f"'{part}' is not <trait>=<value>, e.g. str=3,dex=2,brawl=2.")
        sheet, _ = sheet.set(cat, trait, value)
    return sheet


def declared(rules, text: str, other: str, other_name: str):
    """(actions, activations) of ``text`` in the words of ``+combat/declare``, or None when
    this ruleset's declaration words do not take it."""
    text = text.replace("{pc}", other)

    def find(name: str) -> str:
        if name.strip().lower() in (other, other_name.lower(), "{pc}"):
            return other
        raise InputError(f"'{name}' is not the other side ({other_name}).")

    try:
        d = DeclarationParser(rules, find).parse(text)
    except WodError:
        return None
    return tuple(d.actions), tuple(d.activations)


def acted(text: str, other: str, other_name: str) -> dict | None:
    """``text`` as ``+combat/act`` reads it: ``attack|bite <target> [with <weapon>]`` (the
    first attack of a declaration; what only a d10 declaration says, such as ``as claw`` or
    ``at head``, is left out), or None."""
    for part in text.replace("{pc}", other).split(";"):
        words = part.split()
        if not words or words[0].lower() not in ATTACK_VERBS:
            continue
        words = words[1:]
        cut = next((i for i, w in enumerate(words) if w.lower() in D10_ONLY_WORDS), len(words))
        target, weapon = split_words(" ".join(words[:cut]), "with")
        if target.strip().lower() not in (other, other_name.lower()):
            return None
        action = {"kind": "bite" if words[cut:cut + 2] == ["as", "bite"] else
                  part.split()[0].lower(), "target": other}
        if weapon:
            action["weapon"] = weapon.strip().lower()
        return action
    return None


def _as_move(rules, act: dict) -> dict:
    """Under spotlight's moves reading (issue 31), an attack with a weapon is the move that
    takes the weapon (a gunman's "attack {pc} with pistol" is the table's shoot)."""
    if not act.get("weapon") or act.get("kind") != "attack" or not spotlight_moves.names(rules):
        return act
    try:
        w = spotlight_attack.weapon(rules, act["weapon"], spotlight_tables.spot_rules(rules).tags)
    except WodError:
        return act
    return {**act, "kind": spotlight_moves.move_taking(rules, w.tag) or act["kind"]}


def side(rules, name: str, sheet: Sheet, does: str | None, key: str) -> sim.Side:
    """A side keyed ``key`` (``sim.A`` or ``sim.B``) doing ``does`` (declaration words, with
    ``{pc}`` for the other side), else attacking the other."""
    other = sim.B if key == sim.A else sim.A
    plain = ({"kind": "attack", "target": other},)
    own = declared(rules, does, other, "") if does else None
    act = acted(does, other, "") if does else None
    if does and own is None and act is None:
        raise InputError(f"'{does}' is not an action this ruleset takes; e.g. attack {{pc}} "
                         f"with knife.")
    actions, activations = own or (plain, ())
    fallback = [plain]
    reload = declared(rules, "reload", other, "")
    if reload is not None:  # a gun run dry: reloaded as a staffer would (RNG-06)
        fallback.append(reload[0])
    if act is None:  # not an attack: done in words where the engine asks no declaration
        act = {"kind": "other", "text": does[:200]} if does else dict(plain[0])
    act = _as_move(rules, act)
    return sim.Side(name, sheet.to_dict(), declare=actions, activations=activations,
                    act=act, fallback=tuple(fallback))


def template_side(rules, text: str, key: str, does: str | None = None) -> sim.Side | None:
    """The side an NPC template gives (its sheet and default), or None if none is named."""
    tkey = template_key(text)
    if tkey is None:
        return None
    row = NPC_TEMPLATES[tkey]
    sheet = Sheet.from_dict(row["sheet"]).with_pools_for(rules.traits)
    return side(rules, tkey, sheet, does or row.get("default"), key)


def parse_side(rules, text: str, key: str, does: str | None = None) -> sim.Side:
    """A template or a trait list (``str=3,...``); anything else: a clear error."""
    found = template_side(rules, text, key, does)
    if found is not None:
        return found
    if "=" in text:
        return side(rules, "traits", trait_sheet(rules, text), does, key)
    raise unknown_side(text)


def matchup(rules, rules_dir: str, a: sim.Side, b: sim.Side, turn_cap: int) -> sim.Matchup:
    if a.name == b.name:  # the two columns of the summary need telling apart
        a = sim.Side(f"{a.name} (A)", a.sheet, a.declare, a.activations, a.act, a.fallback)
        b = sim.Side(f"{b.name} (B)", b.sheet, b.declare, b.activations, b.act, b.fallback)
    return sim.Matchup(rules_dir, rules.name, a, b, turn_cap)


# ---------------------------------------------------------------- the summary as text


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def bar(share: float, width: int) -> str:
    return "#" * round(share * width)


def distribution(hist: Mapping[int, int], width: int = 40, top: int = 12) -> list[str]:
    """``value | ####  share`` lines, the rarest tail folded into the last line (``12+``)."""
    n = sum(hist.values())
    if not n:
        return ["    (none)"]
    keys = sorted(hist)
    if len(keys) > top:
        cut = keys[top - 1]
        folded = {k: v for k, v in hist.items() if k < cut}
        folded[cut] = sum(v for k, v in hist.items() if k >= cut)
        last = f"{cut}+"
    else:
        folded, last = dict(hist), None
    peak = max(folded.values())
    lines = []
    for k in sorted(folded):
        label = last if last and k == max(folded) else str(k)
        share = folded[k] / n
        lines.append(f"  {label:>4} |{bar(folded[k] / peak, width):<{width}} {pct(share)}")
    return lines


def spread(hist: Mapping[int, int], top: int = 6) -> str:
    """``0:57% 1:16% 2:14% 3:9% 4+:4%``: a distribution on one line."""
    n = sum(hist.values())
    if not n:
        return "none"
    keys = sorted(hist)
    parts = []
    for i, k in enumerate(keys[:top]):
        if i == top - 1 and len(keys) > top:
            parts.append(f"{k}+:{100 * sum(v for kk, v in hist.items() if kk >= k) / n:.0f}%")
        else:
            parts.append(f"{k}:{100 * hist[k] / n:.0f}%")
    return " ".join(parts)


def summary_lines(m: sim.Matchup, s: sim.Summary, *, seconds: float | None = None,
                  width: int = 36, compact: bool = False) -> list[str]:
    """The report, at most 78 columns: who wins (95% interval), how long, how hard.
    ``compact``: the turns as bars, each side's damage per attack on one line."""
    lines = [f"{m.a.name} vs {m.b.name}: {s.fights:,} fights, ruleset {m.ruleset}"
             + (f", {seconds:.1f}s" if seconds is not None else "")]
    rows = ((m.a.name, s.a.share, s.a.ci), (m.b.name, s.b.share, s.b.ci),
            (f"draw (past {m.turn_cap} turns)", s.draw_share, s.draw_ci))
    label_w = min(28, max(len(r[0]) for r in rows))
    lines.append("Outcome (95% interval):")
    for label, share, ci in rows:
        lines.append(f"  {label[:label_w]:<{label_w}} {pct(share)}  "
                     f"[{pct(ci[0]).strip()}-{pct(ci[1]).strip()}] {bar(share, 20)}".rstrip())
    decided = sum(s.turns.values())
    lines.append(f"Turns until one side falls ({decided:,} fights): mean {s.turns_mean:.2f}, "
                 f"median {s.turns_median:g}")
    lines += distribution(s.turns, width, top=8 if compact else 12)
    for st in (s.a, s.b):
        lines.append(f"{st.name[:24]}: {st.attacks:,} attacks, {pct(st.hit_rate).strip()} "
                     f"land, damage per attack mean {st.damage_mean:.2f}")
        if compact:
            lines.append(f"  damage: {spread(st.damage)}")
        else:
            lines += distribution(st.damage, width)
    if s.refused:  # what a side chose and the engine refused (it fell back: Side.fallback)
        lines.append("Refused, then a fallback (attack, step closer, reload, pass):")
    for who, why, times in s.refused:
        lines += wrap(f"  {who} {times:,}x: {why}", indent=4)
    return [line[:WIDTH] for line in lines]
