"""Every fight the e2e scenes logged replays to identical events, state and room text
(issue 8: the purity test). Named to run after the other e2e files, on the same server."""

import glob
import os
import pathlib

from wodcombat.combat.rules.ruleset import load_ruleset
from wodcombat.world import combat_replay

RULES = pathlib.Path(__file__).resolve().parents[2] / "rules"


def test_every_logged_fight_replays_identically(game_server):
    logs = sorted(glob.glob(os.path.join(game_server.gamedir, "server", "logs", "combat",
                                         "*.jsonl")))
    assert logs, "the e2e scenes logged no fight"
    cache = {}

    def rules(name):
        return cache.setdefault(name, load_ruleset(RULES, name))

    replayed = 0
    for path in logs:
        records = combat_replay.read(path)
        if not any(r["event"] == "intent" for r in records):
            continue
        report = combat_replay.replay(records, rules)
        assert report.ok, f"{os.path.basename(path)}: {report.difference}"
        replayed += report.commands
    assert replayed > 0
