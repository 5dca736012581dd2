"""Monte Carlo fights from the rules on disk: what a rule edit does to a matchup, before
``+rules/reload`` (issue 13).

Each fight runs on the game's engine path (``combat/simulate.py``): ``new_combat``, then the
intents the commands send, through ``engine.apply``. A side is an NPC template (thug, gunman,
ghoul, vampire, garou), a trait list as ``+combat/npc`` takes it (``str=3,dex=3,brawl=2``), or
a JSON/YAML file holding a sheet (``Sheet.to_dict``, as ``+sheet`` stores it; a file may also
say ``{"name": ..., "sheet": {...}, "default": "attack {pc} with knife"}``).

  bin/simulate thug gunman                         10,000 fights under the default ruleset
  bin/simulate thug gunman -r revised -n 100000 --seed 7 --png out.png
  bin/simulate garou str=4,dex=3,sta=3,brawl=3 --b-does "attack {pc}; dodge"

Progress goes to stderr, the summary to stdout. The same seed and number of fights give the
same result whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bin"))

from wodcombat.combat import simulate as sim  # noqa: E402
from wodcombat.combat.core.errors import WodError  # noqa: E402
from wodcombat.combat.rules.ruleset import load_library, load_ruleset  # noqa: E402
from wodcombat.combat.core.sheet import Sheet  # noqa: E402
from wodcombat.commands import matchup  # noqa: E402

DEFAULT_RULESET = "numetal"  # server/conf/settings.py COMBAT_RULESET's default


def file_side(rules, path: pathlib.Path, key: str, does: str | None) -> sim.Side:
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    if not isinstance(data, dict):
        raise WodError(f"{path}: a sheet is a mapping (Sheet.to_dict), not {type(data).__name__}.")
    sheet_data = data.get("sheet") if isinstance(data.get("sheet"), dict) else data
    sheet = Sheet.from_dict(sheet_data).with_pools_for(rules.traits)
    name = str(data.get("name") or path.stem)
    return matchup.side(rules, name, sheet, does or data.get("default"), key)


def parse_side(rules, text: str, key: str, does: str | None) -> sim.Side:
    path = pathlib.Path(text)
    if path.suffix.lower() in (".json", ".yaml", ".yml") or path.is_file():
        if not path.is_file():
            raise WodError(f"No sheet file {path}.")
        return file_side(rules, path, key, does)
    return matchup.parse_side(rules, text, key, does)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers: a rate per CPU-second is
    steadier than wall time on a machine shared with other work."""
    try:
        import resource
    except ImportError:  # not Unix
        return time.process_time()
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class Progress:
    """A bar on stderr, redrawn at most ten times a second (and at the end)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        secs = now - self.start
        rate = done / secs if secs else 0.0
        eta = (total - done) / rate if rate else 0.0
        fill = round(30 * done / total) if total else 30
        sys.stderr.write(f"\r[{'#' * fill:<30}] {done:>9,}/{total:,} {rate:>8,.0f}/s "
                         f"eta {eta:5.0f}s")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].replace("\n", " "),
        epilog="Sides: " + ", ".join(matchup.NPC_TEMPLATES) + ", a trait list "
               "(str=3,dex=2,brawl=2) or a .json/.yaml sheet file.")
    ap.add_argument("a", help="side A (joins as a player character)")
    ap.add_argument("b", help="side B (joins as an NPC)")
    ap.add_argument("-r", "--ruleset", default=os.environ.get("WOD_RULESET", DEFAULT_RULESET),
                    help=f"ruleset (default {DEFAULT_RULESET})")
    ap.add_argument("-n", "--trials", type=int, default=10_000, help="fights (default 10,000)")
    ap.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    ap.add_argument("-j", "--workers", type=int, default=os.cpu_count() or 1,
                    help="processes (default: one per core)")
    ap.add_argument("--turns", type=int, default=20,
                    help="turn cap; a fight still going then is a draw (default 20)")
    ap.add_argument("--a-does", default=None,
                    help="what A declares each turn, e.g. 'attack {pc} with knife; dodge' "
                         "({pc}: the other side); default: its template's, else attack")
    ap.add_argument("--b-does", default=None, help="the same for B")
    ap.add_argument("--rules", default=str(ROOT / "rules"), help="the rules folder")
    ap.add_argument("--png", default=None, help="write a plot of the distributions here")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if args.trials < 1 or args.turns < 1 or args.workers < 1:
        ap.error("--trials, --turns and --workers take a positive number")
    try:
        library = load_library(args.rules)
        if args.ruleset.strip().lower() in library.refused:
            load_ruleset(args.rules, args.ruleset.strip().lower())  # raises with every error
        rules = library.get(args.ruleset)
        a = parse_side(rules, args.a, sim.A, args.a_does)
        b = parse_side(rules, args.b, sim.B, args.b_does)
    except (WodError, OSError, ValueError) as why:
        print(f"simulate: {why}", file=sys.stderr)
        return 2
    m = matchup.matchup(rules, args.rules, a, b, args.turns)
    progress = Progress(not args.quiet and sys.stderr.isatty() or os.environ.get(
        "WOD_PROGRESS") == "1")
    start, cpu0 = time.perf_counter(), cpu_seconds()
    tally = sim.simulate(m, args.trials, args.seed, workers=args.workers, rules=rules,
                         progress=progress)
    secs = time.perf_counter() - start
    cpu = cpu_seconds() - cpu0
    summary = sim.summarize(m, tally)
    if args.json:
        from dataclasses import asdict

        print(json.dumps({"ruleset": m.ruleset, "seed": args.seed, "seconds": secs,
                          "cpu_seconds": cpu,
                          **asdict(summary)}, indent=1))
    else:
        print("\n".join(matchup.summary_lines(m, summary, seconds=secs)))
        per_cpu = f", {tally.fights / cpu:,.0f} per CPU-second" if cpu > 0 else ""
        print(f"{tally.fights / secs:,.0f} fights/s on {args.workers} worker(s){per_cpu}, "
              f"seed {args.seed}")
    if args.png:
        import plot_png

        plot_png.write_summary(args.png, m, summary)
        print(f"plot: {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
