"""The one engine interface both engines implement (issue 8).

``apply(state, intent, sheets, rules, rng) -> Outcome(state, sheet_changes, events)``: pure,
for everything a player, a staff member or the game's clock can do in a fight. The d10
engine (``combat.d10``) and the spotlight engine (``combat.spotlight.engine``) implement it;
``engine_for(rules)`` picks one by the ruleset's ``engine:`` key, so the game side never
branches on which engine runs.
"""
