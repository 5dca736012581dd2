"""The turn scheduler: initiative, who declares and acts when, extra actions, aborts.

Every operation is a pure function ``(state, intent..., ruleset, rng) -> Step(state, events)``:
nothing is stored or printed here. Events (``core.events.Event``, or plain JSON-safe dicts
``{"event": ...}``: both read ``e["event"]`` and ``e.get(...)`` alike) are for
the combat log and the renderer; an illegal intent raises ``IllegalAction`` saying why and
what is allowed instead, and leaves the caller's state untouched (states are frozen).

The turn (seed 000 "Basics"; TURN-xx / INIT-xx of the rules catalog):

* ``initiative``: everyone taking part rolls (INIT-01); turn 1 waits for the organizer's
  ``advance`` so late arrivals can still join; later turns re-roll only with the combat
  option (INIT-04) and otherwise go straight on.
* ``declare`` (classic mode): slots from low to high initiative (TURN-01); multiple actions,
  powers, Willpower and extra actions are declared here (TURN-02).
* ``act``: the main phase, high to low (TURN-03): one action each (TURN-06), or every split
  action in everyman's turn (TURN-11). The simple mode (TURN-05) has no declare phase:
  each slot declares, then acts, high to low.
* ``extra``: the remaining actions in the same order (TURN-06/07); supernatural extras last
  (MAN-06).

The order is a tuple of slots; everyone in a slot shares initiative and rating and acts
simultaneously (INIT-06). ``cursor`` points at the slot the phase waits for. A character who
delays (TURN-04) may act at any later moment of that phase; when the slots are done, the
delayed ones still holding an action are waited for, higher rating first (INIT-06: "or delay
until the same moment"), before the next phase starts.

Declared defenses (block, dodge, parry; TURN-09 anticipated ones) never hold the turn up:
they wait for an attack and are spent by ``defend`` when the attack layer resolves one.

Cost: each operation is O(n) in the number of combatants (one index, one pass to replace a
combatant); sorting happens once per phase.

Layout: this module is the turn's one door (``from . import scheduler as sch`` everywhere
in the engine); the operations live in ``combat/d10/turn/``, one seam each: ``rules`` (the
YAML and the result values), ``phases`` (who is waited for, moving the turn on),
``penalties`` (MAN-05..08), ``setup`` (start, join, initiative), ``declaring``, ``acting``
(act, delay, defend, pass), ``swap`` (abort, change), ``extras`` (Celerity, Rage),
``conditions``.
"""

from __future__ import annotations

from .turn.acting import (  # noqa: F401
    next_action,
    act,
    delay,
    defense_not_due,
    defend,
    skip,
)
from .turn.conditions import (  # noqa: F401
    add_condition,
    remove_condition,
)
from .turn.declaring import (  # noqa: F401
    declare,
)
from .turn.extras import (  # noqa: F401
    activate_celerity,
    spend_rage,
)
from .turn.penalties import (  # noqa: F401
    action_penalties,
    penalty_for,
)
from .turn.phases import (  # noqa: F401
    initiative_rating,
    effective_initiative,
    active_conditions,
    prompts,
    pending,
    simultaneous_with,
    anticipated_defense,
    prompt_events,
)
from .turn.rules import (  # noqa: F401
    INITIATIVE_SCHEMA,
    TURNS_SCHEMA,
    SCHEMA,
    TurnRules,
    turn_rules,
    Step,
    InitRequest,
)
from .turn.setup import (  # noqa: F401
    new_combat,
    set_options,
    join,
    remove,
    end,
    roll_initiatives,
    roll_initiative,
    advance,
)
from .turn.swap import (  # noqa: F401
    abort,
    change_action,
)

# pacing.py reads the next action a combatant's slot runs
from .turn.phases import next_index as _next_index  # noqa: F401,E402
