"""Re-apply each logged fight from its first state with the dice and sheets it logged, and
report the first event, state or text that differs. Exit 0 when every log replays the same.

The rules come from the rules folder (``--rules``, default ``rules/``); a fight logged under
rules that have since changed may differ for that reason alone.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wodcombat.combat.rules.ruleset import load_ruleset  # noqa: E402
from wodcombat.world import combat_replay  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="*", help="combat log files (.jsonl)")
    ap.add_argument("--all", action="store_true", help="every log in --dir")
    ap.add_argument("--dir", default=str(ROOT / "server" / "logs" / "combat"))
    ap.add_argument("--rules", default=str(ROOT / "rules"))
    args = ap.parse_args(argv)
    paths = [pathlib.Path(p) for p in args.logs]
    if args.all:
        paths += sorted(pathlib.Path(args.dir).glob("*.jsonl"))
    if not paths:
        ap.error("name a log file, or --all")
    cache: dict = {}

    def rules(name: str):
        if name not in cache:
            cache[name] = load_ruleset(args.rules, name)
        return cache[name]

    bad = 0
    for path in paths:
        try:
            report = combat_replay.replay(combat_replay.read(path), rules)
        except Exception as err:  # a log that cannot be read is a failure, said plainly
            print(f"{path}: cannot replay: {err}")
            bad += 1
            continue
        if report.ok:
            print(f"{path}: {report.commands} command(s) replay identically")
        else:
            bad += 1
            print(f"{path}: after {report.commands} identical command(s), {report.difference}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
