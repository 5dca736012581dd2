"""+combat: a World of Darkness fight in a room, for both engines.

Every switch has one shape: parse the text into a typed intent (``wodcombat.combat.core.intents``),
check who may ask for it, and hand it to the combat service (``wodcombat/world/combat_service.py``),
which applies it with the engine the fight's ruleset names, commits everything at once and
tells the room. Nothing here decides a rule; a refusal comes back as an error that changes
nothing. Switches one engine does not take are refused by that engine, with what to type
instead.

The path of one ``+combat/act``: ``CmdCombat.do_act`` -> ``Act`` intent ->
``combat_service.run`` (state, lazy sheets, recording dice) -> ``engine.apply`` ->
``Outcome(state, sheet_changes, events)`` -> ``CombatScript.commit`` (state + sheets in one
transaction, then the log: the intent, its dice, the sheets read, the events) ->
``combat_text`` renders the events for the room and prompts whoever is next.
"""

from __future__ import annotations

from wodcombat import conf
from wodcombat.combat.core import intents as it
from wodcombat.combat.core.errors import IllegalAction, InputError
from wodcombat.combat.core.player_text import checked_name, did_you_mean, plain_text
from wodcombat.combat.core.sheet import Sheet
from wodcombat.typeclasses import combat_guard
from wodcombat.typeclasses.combat import combat_in
from wodcombat.world import combat_limits, combat_service, combat_text, combatlog, rulebook
from wodcombat.world.combat_text import is_npc
from wodcombat.world.text_width import wrap

from .base import WhenAsked, WodCommand
from .combat_d10 import D10Switches
from .combat_idle import IdleSwitches
from .combat_odds import OddsSwitches
from .combat_spotlight import SpotlightSwitches
from . import reader_text
from .combat_reader import ReaderSwitches
from .combat_status import status_text
from .combat_watch import WatchSwitches
from .render import header


# Issue 13: a name typed is looked up in a table of the fight's names, kept while the same
# combatants stand in the same places (the state's index is handed on until someone joins
# or leaves; names never change in a fight), not by lowering every name of a crowd of 100.
_NAMES: dict[int, tuple] = {}  # id of a state's index -> (that index, lowered name -> key)
_NAMES_KEPT = 64  # fights at once on a busy game; the oldest is dropped first


def _keys_by_name(state) -> dict[str, str]:
    """Lowered name -> key, the first combatant of each name (as a scan finds)."""
    idx = state.index()
    kept = _NAMES.get(id(idx))
    if kept is not None and kept[0] is idx:  # the index is held here: its id is its own
        return kept[1]
    names: dict[str, str] = {}
    for c in state.combatants:
        names.setdefault(c.name.lower(), c.key)
    if state.index() is not idx:  # an index built anew on each call: nothing to keep
        return names
    if len(_NAMES) >= _NAMES_KEPT:
        del _NAMES[next(iter(_NAMES))]
    _NAMES[id(idx)] = (idx, names)
    return names


# /start's options after =, and the words of a pace (/start and /pace): "slot" is kept for
# those who learned it before "slots".
_PACE_WORDS = {"ahead": "ahead", "slots": "slots", "slot": "slots"}
_START_OPTIONS = {"simple", "classic", "reroll", *_PACE_WORDS}


class CmdCombat(D10Switches, SpotlightSwitches, IdleSwitches, OddsSwitches, WatchSwitches,
                ReaderSwitches, WodCommand):
    """
    Fight in this room. A turn: everyone rolls initiative, then declares
    (lowest initiative first), then acts (highest first).

    Usage:
      +combat                   - the fight: order, actions, health
      +combat/join              - join the fight in this room
      +combat/init              - roll your initiative
      +combat/declare <action>  - what you will do this turn
      +combat/act               - do it

    Examples:
      +combat/declare attack Thug with knife; dodge

    Type them when you like: the game keeps what comes early for your slot
    (slot by slot: +combat/pace slots). Every action: help +combat/declare;
    every switch of a turn: help +combat/turn; more below.

    # subtopics

    ## declare

    Declare what you will do this turn: one action, or several (a split).

    Usage:
      +combat/declare [<npc>=]<action>[; <action>...]
      +combat/declare/wp <action>
      +combat/declare/auto [<npc>,...]
      +combat/attack <target>[=<maneuver>]
      +combat/dodge, +combat/block, +combat/parry
      +combat/defend [dodge||block||parry]
      +combat/pass

    Switches:
      declare   - declare your action(s) when the game says it is your turn
                  (lowest initiative first). Several actions separated by ; are a
                  split: each loses dice (2 actions: -2 and -3). See ACTIONS.
                  Staff: <npc>=<action> declares for an NPC; typed before its
                  slot, it is kept hidden until the slot comes.
                  /declare/auto [<npc>,...]: organizer/staff: each NPC not
                  declared yet takes its template's default (+combat/templates)
      wp        - with /declare, /attack, /dodge, /block, /parry, /defend, /act,
                  /abort or /change: spend a Willpower point (/declare/wp dodge)
      spec      - with /declare, /attack, /dodge, /block, /parry or /defend:
                  your specialty applies (a 10 counts twice)
      auto      - with /declare: /declare/auto, as above
      attack    - shorthand: +combat/attack <target>[=<maneuver>]
      dodge, block, parry - shorthand: declare that defense
      defend    - shorthand: a desperate defense all turn:
                  /defend [dodge||block||parry] (also /desperate)
      pass      - do nothing now (declare nothing, or give up your action)

    ACTIONS (for /declare; the organizer types <npc>=<action> for an NPC):
      attack <target> [with <weapon>] [as <maneuver>] [at <location>]
             [from flank||rear] [moving <yards>] [using <ability>] [spec] [wp]
             moving: move while attacking, up to half your run, -1 die a yard
             (everyman, v20: no penalty);
             using: roll a related ability in place of the stated one (a
             secondary for a primary at -1 difficulty, the other way +1);
             spec: your specialty applies (a 10 counts twice); wp: spend a
             Willpower point for one sure success (also: /declare/wp, or
             spend willpower 1; attack Bob). Declared, never added at /act.
             maneuvers: strike, kick, bite, claw, clinch, clinch strike, hold,
             disarm, sweep, tackle, weapon strike, shoot, burst, throw ...;
             locations: head, arm, leg, hand, heart, eye ...
             off hand: the second weapon (+1 difficulty unless Ambidextrous),
             e.g. attack Bob with pistol, light off hand
             strafe several targets within 3 yards: attack Bob and Ann with
             smg, small as strafe (one roll, successes split among them)
             shots a turn never exceed the weapon's rate of fire
             draining: a vampire's bite drains blood instead of damage;
             severing: a Redcap's bite tries to sever; using <ammo>: rubber,
             silver ... (a jab pistol with rubber is lethal); on botch hurt||down:
             a botched tackle costs you the target's Stamina in damage, or a fall
             (the default). In a clinch or hold only what it allows is accepted.
      dodge, block, parry [against <attacker>] [spec] [wp] - rolled when
             you are attacked;
             dodge prone / dodge cover: the only dodge against gunfire
      defend [dodge||block||parry]  - desperate defense: defend against every
             attack this turn (-1 die on the 2nd, -2 on the 3rd ...), nothing else
      aim <target> [with <weapon>]  - a whole turn, declared alone: +1 die per
             turn on your next shot at them (up to Perception; scope +2)
      reload [<weapon>] [with <ammunition>] - reload a gun (with standard, rubber
             or silver rounds), or one of a crossbow's reload actions
      nock [<bow>]           - nock an arrow: needed before each bow shot
      prepare <n> arrows [for <bow>] - set arrows ready: shots from them need no
             nocking and may be split freely
      repair [<bow>]         - mend a snapped bowstring with a spare string
      move <yards> [toward <name>||away from <name>] - move, as the whole
             action; toward or away changes the range to them
      cover <level>          - you are in none, light, good or superior cover:
             shots at you +1/+2/+3 difficulty; shooting out of good/superior
             cover +1/+2. Not an action; it stays until you declare another.
      rise                   - stand up after being knocked down
      escape                 - break out of a clinch or hold (Strength + Brawl,
             resisted)
      resist                 - (everyman) fight the Kiss: a vampire rolls
             Self-Control, a mortal only with Willpower 9+; the vampire drinks
             with a draining bite (attack <them> as bite draining) after a
             clinch
      ready <weapon>         - pick up a weapon that was knocked away
      celerity               - spend a blood point for extra actions next turn
      extra <action>         - an extra action from Celerity or Rage, e.g.
             extra attack Bob
      rage <n>               - spend Rage for n extra actions this turn
      spend <pool> <n>       - spend points of a pool (checked against per-turn
             limits: blood by generation, Rage or Gnosis, chi)
      heal blood <n> [bashing||lethal] - vampire, ghoul, Ananasi: 1 blood a
             level, at once (not an action), e.g. heal blood 2
      heal aggravated [<n>]  - Ananasi: 5 blood a level (vampires: after a
             day's rest, see /recover)
      regenerate [bashing||lethal] - shifter: a level a turn after a Stamina
             roll, e.g. regenerate
      heal rage              - shifter past Incapacitated, once a scene: Rage
             roll, a level per success; berserk next turn. Works while down.
      heal limb <part> [age <years>] - ghoul: regrow a finger, eye, foot,
             forearm or limb, e.g. heal limb finger
      heal life <n> <type> [on <name>] - mage: the levels your Arete roll
             won, e.g. heal life 1 lethal on Bob
      heal roll [<type>]     - everyman in-combat roll (vampire: your action)
      heal faith [<type>]    - demon: a turn of concentration, 1 Faith, 1
             level (your action)
      ignore wounds          - spend a Willpower: no wound penalty this turn,
             e.g. ignore wounds; attack Bob
      shake <pool>           - (everyman) dazed: a point shakes it off at once,
             Blood for vampires, Rage for shifters, Willpower for mortals
      effect <kind> [<item>] - use a power effect: arete, lore ... (one a turn)
      magic <target> roll <traits||dice> damage <n> [<type>] [diff <n>]
             [lockon] [area] - a damaging power, dodged like an attack; lockon: no
             defense (unless the target has countermagic); area: only moving out
      ambush <target> [with <weapon>] [as <maneuver>] - first turn only, alone:
             Dexterity + Stealth against Perception + Alertness at once; won: a
             free attack (+extra successes as dice, no defense), then declare;
             tied: you strike first (your action); lost: declare as usual
      time <power> <n>       - a time power's extra actions from its successes or
             points: distort time, quicksilver, dream time, faith, tempus fugit
             (numetal; revised: distort time, faith), then extra <action>
      blindfight penalty||bonus - blinded: roll Perception + Blind Fighting; each
             point comes off your own penalty or off the bonus to attack you
      pass, other <text>

    Examples:
      +combat/declare attack Thug
      +combat/declare attack Thug with knife; dodge
      +combat/declare attack Thug as sweep
      +combat/declare attack Thug with knife spec wp
      +combat/declare/wp dodge
      +combat/declare Thug=attack Bob
      +combat/declare/auto
      +combat/defend
      More: help +combat/examples

    ## turn

    The turn in full, and what else you may type during it.

    Usage:
      +combat/init [<npc>=<rating>]
      +combat/act [<npc>]
      +combat/abort <dodge||block||parry>
      +combat/change <action>
      +combat/log [<count>]

    A turn: everyone rolls initiative, the organizer types +combat/next, then
    everyone declares from the lowest initiative to the highest, then acts from
    the highest to the lowest. By default you may declare and act before your
    slot: the game keeps it hidden and reveals and resolves it when the slot
    comes, so nobody waits on a keyboard with nothing to decide. The organizer
    switches to slot by slot (each typed when the game says it is your turn)
    with +combat/pace slots, and back with +combat/pace ahead. A declared
    dodge, block or parry is rolled automatically when you are attacked.
    Damage, soak, wounds, knockdowns, grapples, disarms and deaths are worked
    out for you; weapons come from your sheet (+sheet/equip <weapon>, see
    help +sheet). +combat shows the order, declarations, health and conditions.

    Switches:
      join      - join the fight in this room
      leave     - leave it
      init      - roll your initiative (Dexterity + Wits + 1d10); /init -2
                  applies a modifier by hand (numetal: the roll lists wounds and
                  Gurahl in winter but never applies them). Staff: <npc>=<rating>
      declare   - see help +combat/declare
      act       - perform your declared action when it is your turn (highest
                  initiative first); an attack is rolled and resolved at once
      delay     - hold your action and act later this turn with /act
      abort     - before acting, switch to <dodge||block||parry>; add /wp to spend
                  a Willpower point instead of rolling Willpower
      change    - everyman: your declared action became impossible (the target
                  moved away, died ...): change it to another with a Willpower
                  roll (difficulty 8); /change/wp spends a point instead
      celerity  - spend a blood point: next turn one extra action per Celerity dot
      rage      - /rage <n>: spend Rage for n extra actions this turn (before
                  declaring)
      spend     - /spend <pool> <n>: spend Blood, Gnosis, Quintessence ... for
                  a power
      pass      - do nothing now (declare nothing, or give up your action)
      log       - the last <count> entries of the combat log (default 10)
      slackers  - who the turn waits for and for how long (also /pending)
      screenreader - on||off: +combat, +sheet and the turn lines one fact a
                  line, nothing drawn (for a screen reader); alone: the setting

    Examples:
      +combat/init
      +combat/init -2
      +combat/act
      +combat/act Thug
      +combat/abort dodge/wp
      +combat/change move 10 toward Thug
      +combat/log 30
      +combat/screenreader on

    ## start

    Start a fight and choose how it runs.

    Usage:
      +combat/start [<ruleset>][=simple||reroll||slots]
      +combat/start/mock
      +combat/pace ahead||slots

    Switches:
      start     - start a fight here; you organize it (and join it; under
                  spotlight you only run it: /join to fight). /start/mock: a
                  rehearsal, every sheet put back when it ends. =simple: each
                  character declares and acts in turn; =reroll: initiative
                  every turn; =slots: each declares and acts only in their
                  slot (the default is ahead, below; the game's admin may
                  change it). E.g. +combat/start=simple, +combat/start
                  revised=slots, +combat/start=reroll,slots
      mock      - with /start: /start/mock, as above
      pace      - organizer/staff: ahead (declare and act before your slot; it
                  is revealed and resolved in it) or slots (each typed in its
                  slot). Also =ahead or =slots at /start

    Then: +combat/npc for the opponents (help +combat/staff), and the
    players /join. Under +combat/start spotlight: help +combat/spotlight.

    Examples:
      +combat/start
      +combat/start=simple
      +combat/start revised=slots
      +combat/pace slots
      +combat/start/mock

    ## staff

    What the organizer (who started the fight) and staff type.

    Usage:
      +combat/npc <name>=<template>||<trait>=<n>,...
      +combat/init <npc>=<rating>
      +combat/next [<name>]
      +combat/mod <name>=<condition> [<turns>]
      +combat/odds <template||character>=<template||character>[/<fights>]

    Switches:
      npc       - organizer/staff: <name>=<template> or <name>=<trait>=<n>,...
                  makes an NPC here and joins it; /templates lists them. Several:
                  Thug1,Thug2=thug or 3 Thug=thug (Thug1..Thug3); then init,
                  declare and act take a list: +combat/init Thug1,Thug2=4
      templates - the ready NPC templates (also: +combat/npc alone; also
                  /npcs, /list)
      next      - organizer/staff: move on (start the turn, next phase); with a
                  name, stop waiting for that combatant
      mod       - organizer/staff: <name>=<condition> [<turns>] (prone,
                  blinded, dazed, grappled, staked, immobilized ...; heightened
                  senses, eyes of the beast, sees behind, countermagic). With a
                  number it lasts that many turns counting this one (our reading:
                  blinded 3 put on in turn 2 ends as turn 5 begins, and the room
                  is told); +combat shows the turns left. Without one it lasts
                  until removed: <name>=!<condition>. <name>=cover
                  <none||light||good||superior> sets their cover
      range     - organizer/staff: <a>/<b>=<yards> places two combatants that far
                  apart (shots: point-blank, beyond normal range, too far)
      damage    - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>;
                  past Incapacitated it does what an attack would (torpor,
                  death ...). Add a source (fire, sunlight, silver, firearm ...
                  [head]; unsoakable [enemy]; chimerical) and the levels are
                  damage successes the target soaks as the rules say for it
                  (also /harm)
      heal      - organizer/staff: <name>=<levels> <bashing||lethal||aggravated>;
                  <name>=revive undoes a death or torpor (staff decide)
      pace      - organizer/staff: ahead (declare and act before your slot; it
                  is revealed and resolved in it) or slots. Also =slots at /start
      recover   - organizer/staff: <name>=<type> [freehold||dreaming] [chimerical]
                  [rested] [<n>]: time has healed one level; says how long it took
                  and what care it needs, e.g. +combat/recover Bob=lethal;
                  a vampire's aggravated after a day's rest: =aggravated rested 2
      undo      - organizer/staff: revert the last resolution exactly (the fight,
                  the sheets, points spent); again to go further back this turn
      kick      - organizer/staff: take <name> out of the fight (an NPC made for
                  it leaves the room too; <name>=keep keeps it)
      organizer - organizer/staff: <name> organizes the fight from now on
      fights    - staff: every fight running in the game
      watch     - staff: #<room number> (or its name) follows that fight from
                  anywhere: you read what its room reads, not joining it; off
                  stops; alone, what you watch
      odds      - staff: simulate <a>=<b> on the rules loaded here (or
                  /<ruleset>): who wins how often, how many turns, damage per
                  attack. 1,000 fights (/<fights>, at most 2,000; the server
                  waits while they run); each side does its template's default,
                  else attacks. A character fights as hurt as they are now.
                  bin/simulate runs more from the rules files
      end       - organizer/staff: end the fight; the room hears who was hurt and
                  who fell; NPCs made for it go too (end keep keeps them)
      public    - organizer/staff: on||off: anyone may watch the fight on the
                  website's combat page (else only those in it, and staff)
      flag      - organizer/staff: <flag> marks the fight (numetal's winter:
                  Gurahl -2 initiative); !<flag> clears it
      timeout   - organizer/staff: <seconds> (or 5m; 0 turns it off) the turn
                  waits for someone idle before the game passes for them (or,
                  declaring, gives them a full defense); alone: the setting

    Examples:
      +combat/npc Thug=thug
      +combat/npc Rat=str=1,dex=3,brawl=1
      +combat/init Thug=5
      +combat/flag winter
      +combat/next
      +combat/declare Thug=attack Bob
      +combat/declare/auto
      +combat/damage Bob=2 lethal
      +combat/damage Bob=3 lethal sunlight
      +combat/mod Thug=blinded 3
      +combat/mod Thug=cover superior
      +combat/odds thug=gunman
      +combat/odds Bob=garou/2000/revised

    ## ranges

    How far apart fighters stand, moving, aiming and cover.

    Usage:
      +combat/range <a>/<b>=<yards>
      +combat/declare move <yards> [toward <name>||away from <name>]
      +combat/declare cover <level>

    Switches:
      range     - organizer/staff: <a>/<b>=<yards> places two combatants that far
                  apart (shots: point-blank, beyond normal range, too far)
      mod       - organizer/staff: <name>=cover <none||light||good||superior>
                  sets their cover

    Actions (help +combat/declare has them all):
      move <yards> [toward <name>||away from <name>] - move, as the whole
             action; toward or away changes the range to them
      attack <target> ... moving <yards> - move while attacking, up to half
             your run, -1 die a yard (everyman, v20: no penalty)
      aim <target> [with <weapon>]  - a whole turn, declared alone: +1 die per
             turn on your next shot at them (up to Perception; scope +2)
      cover <level>          - you are in none, light, good or superior cover:
             shots at you +1/+2/+3 difficulty; shooting out of good/superior
             cover +1/+2. Not an action; it stays until you declare another.
      dodge prone / dodge cover: the only dodge against gunfire
      strafe several targets within 3 yards: attack Bob and Ann with
             smg, small as strafe (one roll, successes split among them)
    Under spotlight, ranges are bands: /range <a>/<b>=<range> and /move
    <target>=closer||away||<range> (help +combat/spotlight).

    Examples:
      +combat/range Thug/Bob=20
      +combat/declare move 10 toward Thug
      +combat/declare cover good; attack Thug with pistol, heavy
      +combat/declare attack Thug moving 3
      +combat/declare aim Thug with rifle
      +combat/mod Thug=cover superior

    ## spotlight

    Under the spotlight ruleset (+combat/start spotlight), a fight runs
    differently: PCs act in initiative order, the organizer gives opponents the
    spotlight, and a turn is one move, one action and one free action. The
    organizer runs the fight and is not in the order unless they /join.

    How an action is resolved is this game's reading (the seed names no dice);
    +combat and +rules <ruleset> say which is in force. spotlight reads V5
    pools, as below. spotlight-moves (+combat/start spotlight-moves) reads
    the seed's moves: 2d6 + the move's stat, 10+ a full success, 7-9 a
    success at a cost the organizer names, 6- a miss; a move that harms marks
    its weapon's Harm value (no defence roll). The moves are a table of the
    rules (the shipped one is an example: +rules spotlight-moves).

    Switches:
      /act <move> [<target>] [with <weapon>] - under moves: a move of the
                  table (example: attack, shoot, bite, escape, read)
      /cost <name>=<cost>||<number> - organizer, under moves: name the cost a
                  7-9 owes (a number picks one the move lists)
      /act [attack||bite <target> [with <weapon>]||<what>] - your action; an
                  attack is a V5 contest (your pool against the target's
                  Dexterity + Athletics, or in close combat its Brawl/Melee when
                  larger, Hunger dice apart), harm = margin +
                  weapon; "with" a range tag (pistol) or a weapon of
                  +rules/weapons; without it, the first weapon you carry
      /act <npc>=attack <target> [with <weapon>] - organizer: the NPC's action
      /act grapple <target> - hold someone (no harm) for this round and the
                  next; a bite needs the target held or down (a reading of V5)
      /act power <power> [on <target>] - a Discipline Power you have dots in;
                  a vampire rouses the blood (one die: below 6, Hunger +1; at
                  Hunger 5 it cannot) (a reading of V5)
      /reroll <die>[,<die>...] - right after your attack, one Willpower
                  rerolls up to three of its dice that are not Hunger dice
                  (counted from the left as shown); once a roll, and the roll
                  stands once anything else happens (a reading of V5)
      /move <target>=closer||away||<range> - your move (one range step)
      /move <npc>=<target>=closer||away||<range> - organizer: the NPC's move
      /free [<npc>=][<what>] - a free action  /done [<npc>] - end the turn
      /next <opponent> - organizer: that opponent takes the spotlight (/next alone
                  moves the fight on; after the last PC, the next round)
      /swap <first>=<second> - tied PCs settle who goes first
      /ambush pcs||npcs - organizer: one side is ambushed
      /event <text>  - organizer: something happens between turns
      /range <a>/<b>=<range> - organizer: place two combatants at a range band
      /range all=<range> - organizer: everyone at one band (Hand for a brawl;
                  everyone starts at Close, the rules' default)
      /stake <name>, /unstake <name> - organizer: stake (a vampire is
                  incapacitated at once)
      /feed <name>=<hunger slaked> - blood: revives a vampire in torpor next
                  round; a vampire still up heals that much Harm (Aggravated
                  first) and its Hunger drops
      /damage <name>=<n> superficial||aggravated - organizer: mark Harm
      /mod <name>=<condition> [<rounds>] - organizer: a reminder the
                  Storyteller plays out (blinded, prone, grappled ...) for that
                  many rounds counting this one, or until removed
                  (<name>=!<condition>); +combat shows the rounds left
    Harm stays on the sheet after the fight; when the fight ends each vampire
    with Superficial Harm makes Hunger Checks, each mending 1 to 5 of it by
    Blood Potency, until it is mended or Hunger is 5. Worn armor stops
    Superficial Harm; Superficial Harm to a vampire is halved. Blades, guns
    and bows deal Aggravated Harm to anyone who is not a vampire; only fangs
    give a bite +2 Aggravated; bows roll Dexterity + Firearms (readings of V5).
    In close combat (fists, bites, blades: reach Hand) a defender fights back
    with its Brawl or Melee pool when that is larger than its dodge, and
    winning deals its margin + weapon to the attacker (a reading of V5).
    Impaired (V5, a reading): at 0 HP a Physical pool (a defense too) rolls 2
    dice fewer; with no Willpower left, a Social or Mental one (+roll).
    Declaring, /dodge, /parry, /rage and the like are d10 only there.

    ## examples

    Every example of these pages, in one list.

    Examples:
      +combat/start
      +combat/join
      +combat/init
      +combat/npc Thug=thug
      +combat/npc Rat=str=1,dex=3,brawl=1
      +combat/init Thug=5
      +combat/init -2
      +combat/flag winter
      +combat/next
      +combat/declare attack Thug
      +combat/declare attack Thug with knife; dodge
      +combat/declare attack Thug as sweep
      +combat/declare attack Thug as tackle on botch hurt
      +combat/declare attack Thug as bite draining
      +combat/declare attack Thug with pistol, heavy as jab pistol using rubber
      +combat/declare blindfight penalty; attack Thug
      +combat/declare magic Thug roll arete damage 4 aggravated
      +combat/declare ambush Thug with knife
      +combat/declare attack Bob with pistol, heavy at head
      +combat/declare Thug=attack Bob
      +combat/declare/auto
      +combat/declare rage 2; attack Thug; extra attack Thug; extra attack Thug
      +combat/defend
      +combat/act
      +combat/act Thug
      +combat/abort dodge/wp
      +combat/change move 10 toward Thug
      +combat/damage Bob=2 lethal
      +combat/damage Bob=3 lethal sunlight
      +combat/declare cover good; attack Thug with pistol, heavy
      +combat/declare attack Thug moving 3
      +combat/declare aim Thug with rifle
      +combat/declare attack Thug with pistol, light as burst
      +combat/declare attack Thug with knife; attack Thug with sword off hand
      +combat/declare attack Thug and Rat with smg, small as strafe
      +combat/declare nock; attack Thug with short bow
      +combat/declare prepare 3 arrows
      +combat/declare reload pistol, heavy with rubber
      +combat/declare repair
      +combat/declare attack Thug with knife spec wp
      +combat/declare/wp dodge
      +combat/mod Thug=blinded 3
      +combat/mod Thug=cover superior
      +combat/odds thug=gunman
      +combat/odds Bob=garou/2000/revised
    """

    key = "+combat"
    aliases = ["combat"]
    wod_switches = ("start", "join", "leave", "init", "npc", "templates", "next", "declare",
                    "attack", "dodge", "block", "parry", "defend", "pass", "act", "delay",
                    "abort", "celerity", "rage", "spend", "log", "end", "mod", "damage",
                    "heal", "kick", "timeout", "slackers", "move", "free", "done", "swap",
                    "ambush", "event", "range", "stake", "unstake", "feed", "reroll", "undo",
                    "organizer", "fights", "recover", "flag", "change", "pace",
                    "public", "odds", "watch", "screenreader", "cost")
    # DICE-03/04, TURN-02: +combat/declare/wp attack Bob, +combat/act/wp, +combat/abort/wp;
    # +combat/start/mock: a rehearsal whose sheets are put back when it ends;
    # +combat/declare/auto: every NPC not yet declared takes its template's default
    flag_switches = ("wp", "spec", "mock", "auto")
    flag_takers = ("declare", "attack", "dodge", "block", "parry", "defend", "act", "abort",
                   "change", "start")
    # which flag goes with which switch (the rest of the takers take wp and spec)
    flag_only = {"mock": ("start",), "auto": ("declare",)}
    switch_aliases = {"npcs": "templates", "list": "templates", "desperate": "defend",
                      "pending": "slackers", "harm": "damage"}

    # ================================================================ plumbing

    def func(self):
        """/mock goes with /start only; /wp and /spec never with /start."""
        main = [s.lower() for s in self.switches if s.lower() not in self.flag_switches]
        flags = {s.lower() for s in self.switches if s.lower() in self.flag_switches}
        switch = self.expand_switch(main[0]) if len(main) == 1 else None
        if switch is not None and flags and (flags & set(self.flag_only) or switch == "start"):
            wrong = sorted(f for f in flags
                           if switch not in self.flag_only.get(f, self.flag_takers)
                           or (switch == "start" and f not in self.flag_only))
            if wrong:
                self.msg(f"|r{self.key}: /{wrong[0]} does not go with /{switch}.|n")
                return
        super().func()

    def me(self) -> str:
        return f"#{self.caller.id}"

    def rest_hint(self) -> str:
        if getattr(self, "switch_now", None) == "log":
            return "+combat/log <fewer entries> shows the latest"
        script = getattr(self, "script", None)
        if script is not None:
            return f"the fight's web page, /combat/{script.combat_id}/, shows everyone"
        return super().rest_hint()

    def load(self) -> None:
        self.script = combat_in(self.caller.location)
        if self.script is None:
            raise IllegalAction("There is no fight in this room. Start one: +combat/start")
        self.rs = self.script.ruleset()
        self.engine = self.script.engine()
        self.state = self.script.get_state()
        self.objects = combat_service.Objects()

    def apply(self, intent: it.Intent) -> combat_service.Applied:
        return combat_service.run(self.script, intent, self.rng, objects=self.objects)

    def can_run(self) -> bool:
        # The organizer first: one compare, where the staff check asks the permission
        # hierarchy (about a fifth of what a declaration costs the game side, issue 13).
        return self.script.organizer == self.me() or self.is_staff()

    def need_runner(self, what: str) -> None:
        if not self.can_run():
            raise IllegalAction(f"Only the organizer or staff can {what}.")

    def name(self, key: str) -> str:
        c = self.state.get(key)
        return c.name if c else key

    def combatant(self, name: str):
        """A combatant by name (exact, then unique prefix) or #dbref."""
        name = (name or "").strip()
        if not name:
            raise InputError(self.usage())
        if name.lower() in ("me", "self"):
            name = self.me()
        if name.startswith("#"):
            c = self.state.get(name)
        else:
            low = name.lower()
            key = _keys_by_name(self.state).get(low)
            c = None if key is None else self.state.get(key)
            if c is None:
                hits = [x for x in self.state.combatants if x.name.lower().startswith(low)]
                c = hits[0] if len(hits) == 1 else None
        if c is None:
            names = ", ".join(x.name for x in self.state.combatants) or "nobody yet"
            raise InputError(f"'{name}' is not in this fight. In it: {names}.")
        return c

    def actor(self, name: str | None):
        """Who the caller acts for: themself, an NPC they run, or (unnamed) whoever the
        engine says an unnamed command is for (the spotlight's holder)."""
        if not name or not name.strip():
            # Whether the caller runs the NPCs is asked only if the engine needs to know (the
            # spotlight's holder may be an opponent; a d10 command is the typist's own).
            runs = WhenAsked(self.can_run) if self.script.organizer else False
            key = self.engine.default_actor(self.state, self.me(), runs)
            if key is None:
                raise IllegalAction("You are not in this fight: +combat/join first.")
            return self.state.get(key)
        c = self.combatant(name)
        if c.key == self.me():
            return c
        if not is_npc(c):
            raise IllegalAction(f"You can only act for your own character, not {c.name}; "
                                f"the organizer and staff run NPCs.")
        if not self.can_run():
            raise IllegalAction(f"Only the organizer or staff run NPCs such as {c.name}.")
        return c

    # ================================================================ show

    def do_default(self):
        if self.args.strip():
            raise InputError(self.usage())
        self.load()
        org = self.objects(self.script.organizer)
        sheets = combat_service.Sheets(self.objects)
        if self.reads_aloud():
            self.msg("\n".join(reader_text.status_lines(self.engine, self.state, self.rs,
                                                        sheets, org.key if org else "-")))
            return
        self.msg(status_text(self.script, self.engine, self.state, self.rs, sheets,
                             org.key if org else "-"))

    # ================================================================ setting up

    def do_start(self):
        room = self.caller.location
        if room is None:
            raise IllegalAction("You need to be somewhere to start a fight.")
        if combat_in(room):
            raise IllegalAction("A fight is already running here: +combat to see it, "
                                "+combat/join to join.")
        combat_guard.refuse_second_combat(self.me(), self.caller.key)
        name, given = self.lhs.strip(), (self.rhs or "")
        if self.rhs is None and name.lower() in _START_OPTIONS:
            name, given = "", name  # +combat/start simple: an option, not a ruleset
        rs = rulebook.get(name or None)
        opts = {o.strip().lower() for o in given.split(",") if o.strip()}
        paces = {_PACE_WORDS[o] for o in opts if o in _PACE_WORDS}
        if opts - _START_OPTIONS or {"simple", "classic"} <= opts or len(paces) > 1:
            raise InputError(self.usage())
        mode = next((m for m in ("simple", "classic") if m in opts), None)
        pace = paces.pop() if paces else None
        combat_service.start(room, rs, {"mode": mode, "reroll": "reroll" in opts,
                                        "ahead": None if pace is None else pace == "ahead",
                                        "default_pace": conf.default_pace()},
                             self.caller, self.rng, mock="mock" in self.switch_flags)

    def do_pace(self):
        """ahead: choices entered before the slot, revealed and resolved in it; slots: each
        typed in its slot (issue 11; ahead is the default, WODCOMBAT_DEFAULT_PACE)."""
        self.load()
        word = _PACE_WORDS.get(self.args.strip().lower())
        if word is None:
            raise InputError("+combat/pace ahead (declare and act before your slot; it is "
                             "revealed and resolved in it) or +combat/pace slots (each in "
                             "your slot).")
        self.need_runner("set the fight's pace")
        self.apply(it.SetPace(by=self.me(), ahead=word == "ahead"))

    def do_join(self):
        self.load()
        combat_guard.refuse_second_combat(self.me(), self.caller.key, here=self.script)
        self.apply(it.Join(by=self.me(), actor=self.me(), name=plain_text(self.caller.key)))

    def do_leave(self):
        self.load()
        if self.state.get(self.me()) is None:
            raise IllegalAction("You are not in this fight.")
        self.apply(it.Remove(by=self.me(), actor=self.me(), why="leave"))
        if self.script.organizer == self.me():
            self.hand_over(None)

    def do_kick(self):
        """<name>: out of the fight; an NPC made for it goes too, unless <name>=keep."""
        self.load()
        self.need_runner("take someone out of the fight")
        keep = (self.rhs or "").strip().lower()
        if self.rhs is not None and keep != "keep":
            raise InputError("+combat/kick <name> (an NPC made here: +combat/kick <name>=keep "
                             "keeps it in the room).")
        c = self.combatant(self.lhs if self.rhs is not None else self.args)
        self.apply(it.Remove(by=self.me(), actor=c.key, why="kick"))
        if not keep:
            gone = combat_service.discard_npc(self.script, c.key, self.objects)
            if gone:
                self.msg(f"{gone} was made for this fight and is gone from the room "
                         f"(+combat/kick {gone}=keep would have kept it).")
        if self.script.organizer == c.key:
            self.hand_over(None)

    def hand_over(self, key: str | None) -> None:
        """The organizer role to ``key``, or (None) to the first player left in the fight;
        the room is told."""
        state = self.script.get_state()
        if key is None:
            key = next((c.key for c in state.combatants if not is_npc(c)), None)
        self.script.set_organizer(key)
        name = self.name(key) if key else None
        if state.get(key) is not None:
            name = state.get(key).name
        text = (f"{name} now organizes the fight." if key else
                "Nobody organizes the fight now; staff can: +combat/organizer <name>.")
        self.tell_room(text)

    def do_organizer(self):
        """<name>: hand the organizer role to a player in the fight."""
        self.load()
        self.need_runner("hand over the fight")
        c = self.combatant(self.args)
        if is_npc(c):
            raise IllegalAction(f"{c.name} is an NPC; hand the fight to a player in it.")
        self.hand_over(c.key)

    def do_fights(self):
        """Staff: every running fight in the game."""
        if not self.is_staff():
            raise IllegalAction("Only staff list the fights in every room.")
        from wodcombat.typeclasses.combat_guard import combat_scripts

        lines = [header("Fights running")]
        for script in combat_scripts():
            try:
                st, engine = script.get_state(), script.engine()
            except Exception:  # a broken fight must not hide the others
                continue
            turn, phase = combatlog.clock(st)
            org = self.objects_for(script)(script.organizer)
            room = script.obj
            waiting = ", ".join(self.name_in(st, k) for k in engine.pending(st)) or "-"
            lines.append(f" {(room.key if room else '?')[:18]:<18} #{room.id if room else 0:<5} "
                         f"{script.ruleset_name:<9} t{turn} {str(phase)[:8]:<8} "
                         f"{len(st.combatants):>3} in  org {(org.key if org else '-')[:10]}")
            lines.append(f"   waiting for: {waiting[:66]}")
        if len(lines) == 1:
            lines.append(" None.")
        self.msg("\n".join(lines))

    @staticmethod
    def objects_for(script):
        return combat_service.Objects()

    @staticmethod
    def name_in(state, key: str) -> str:
        c = state.get(key)
        return c.name if c else key

    def do_templates(self):
        from wodcombat.world.prototypes import NPC_TEMPLATES

        lines = [header("NPC templates: +combat/npc <name>=<template>")]
        for key, row in NPC_TEMPLATES.items():
            sheet = Sheet.from_dict(row["sheet"])
            gear = ", ".join(sheet.weapons) + (f"; {sheet.armor}" if sheet.armor else "")
            lines += wrap(f" {key:<10} {row['desc']}" + (f" [{gear}]" if gear else ""),
                          indent=12)
            if row.get("default"):
                lines.append(f"{'':12}default: {row['default'].replace('{pc}', '<nearest PC>')}")
        lines.append(" Or a trait list: +combat/npc Rat=str=1,dex=3,brawl=1")
        lines.append(" +combat/declare/auto declares each NPC's default.")
        self.msg("\n".join(lines))

    def template_sheet(self, text: str) -> tuple[str, Sheet]:
        """(the template's name, its sheet)."""
        from wodcombat.world.prototypes import NPC_TEMPLATE_ALIASES, NPC_TEMPLATES

        key = " ".join(text.lower().split())
        key = NPC_TEMPLATE_ALIASES.get(key, key)
        row = NPC_TEMPLATES.get(key)
        if row is None:
            hits = [k for k in NPC_TEMPLATES if k.startswith(key)] if key else []
            if len(hits) != 1:
                tip = did_you_mean(key, NPC_TEMPLATES)
                raise InputError(f"'{text.strip()}' is not an NPC template.{tip} Templates: "
                                 f"{', '.join(NPC_TEMPLATES)} (+combat/templates), or give "
                                 f"traits: <name>=str=3,dex=2,...")
            key = hits[0]
            row = NPC_TEMPLATES[key]
        return key, Sheet.from_dict(row["sheet"]).with_pools_for(self.rs.traits)

    def do_npc(self):
        """<name>=<template> or <name>=<trait>=<n>,...; several at once: <a>,<b>=<template>
        or <n> <name>=<template> (Name1, Name2 ...); spotlight: also actions=<n>, hp=<n>
        (SPOT-05, SPOT-11)."""
        if not self.args.strip():
            return self.do_templates()
        self.load()
        self.need_runner("create NPCs")
        if not self.rhs or not self.lhs.strip():
            raise InputError(self.usage() + "  e.g. +combat/npc Thug=thug or "
                             "+combat/npc Thug=str=3,dex=3,brawl=2")
        names = npc_names(self.lhs)
        taken = {c.name.lower() for c in self.state.combatants}
        for name in names:
            if name.lower() in taken:
                raise IllegalAction(f"Someone called {name} is already in this fight.")
        join, rest = {}, []
        for part in (p.strip() for p in self.args.split("=", 1)[1].split(",")):
            k, eq, v = part.partition("=")
            field = {"actions": "actions", "turns": "actions", "hp": "hp"}.get(
                k.strip().lower()) if eq else None
            if field is None:
                rest.append(part)
            elif not v.strip().isdecimal():
                raise InputError(f"{k.strip()}=<n> takes a whole number, e.g. {k.strip()}=2.")
            else:
                join[field] = int(v.strip())
        cat = self.rs.traits
        template = None
        if len(rest) == 1 and "=" not in rest[0]:
            template, sheet = self.template_sheet(rest[0])
        else:
            sheet = Sheet().with_pools_for(cat)
            for part in rest:
                trait, eq, value = part.partition("=")
                if not eq or not trait.strip():
                    raise InputError(f"'{part}' is not <trait>=<value>. " + self.usage())
                sheet, _ = sheet.set(cat, trait, value)
        combat_service.add_npcs(self.script, names, sheet, self.me(), self.rng,
                                template=template, **join)

    def for_each(self, who: str | None, intent_of) -> None:
        """Apply ``intent_of(combatant)`` for each name of a comma list (the organizer runs a
        group of NPCs with one line), or for the caller alone; each is its own resolution."""
        if not who or "," not in who:
            self.apply(intent_of(self.actor(who)))
            return
        names = [n.strip() for n in who.split(",")]
        if any(not n for n in names):
            raise InputError("Name each NPC, separated by commas: Thug1,Thug2.")
        # every name checked before the first is applied: a bad one changes nothing
        keys = [self.actor(name).key for name in names]
        for key in keys:
            c = self.state.get(key)
            if c is not None:  # gone meanwhile (kicked in this very line): nothing to do
                self.apply(intent_of(c))
            self.state = self.script.get_state()

    def do_end(self):
        """End the fight; NPCs made for it leave the room with it (=keep keeps them)."""
        self.load()
        self.need_runner("end the fight")
        word = self.args.strip().lower().lstrip("=")
        if word not in ("", "keep"):
            raise InputError("+combat/end (or +combat/end keep: the NPCs made for the fight "
                             "stay in the room).")
        combat_service.end(self.script, self.me(), self.rng, keep_npcs=word == "keep")

    def do_undo(self):
        if self.args.strip():
            raise InputError("Usage: +combat/undo (nothing after it): reverts the last "
                             "resolution; again to go further back this turn.")
        self.load()
        self.need_runner("undo a resolution")
        combat_service.undo(self.script, self.me(), self.rng)

    # ================================================================ the turn

    def do_init(self):
        """INIT-01 from your sheet; an NPC's runner may give its rating (INIT-02); a comma
        list rolls for several NPCs."""
        self.load()
        group = self.lhs if self.rhs is not None else self.args
        if "," in (group or ""):
            rating = None
            if self.rhs is not None:
                if not self.rhs.strip().isdecimal():
                    raise InputError(self.usage())
                rating = int(self.rhs.strip())
            for name in (n.strip() for n in group.split(",")):
                c = self.actor(name)
                if c.key == self.me() or not is_npc(c):
                    raise IllegalAction(f"{c.name} rolls their own initiative: +combat/init")
            self.for_each(group, lambda c: it.RollInitiative(by=self.me(), actor=c.key,
                                                             rating=rating))
            return
        if self.rhs is not None:
            c = self.actor(self.lhs)
            if c.key == self.me() or not is_npc(c):
                raise IllegalAction("Roll your own initiative from your sheet: +combat/init")
            try:
                rating = int(self.rhs.strip())
            except ValueError:
                raise InputError(self.usage()) from None
            self.apply(it.RollInitiative(by=self.me(), actor=c.key, rating=rating))
            return
        arg = self.args.strip()
        adjust = 0
        if arg[:1] in "+-" and arg[1:].isdecimal():  # INIT-03/05: a modifier by hand
            adjust, arg = int(arg), ""
        c = self.combatant(arg) if arg else self.state.get(self.me())
        if c is None:
            raise IllegalAction("You are not in this fight: +combat/join first.")
        if c.key != self.me():
            if not is_npc(c):
                raise IllegalAction(f"{c.name} rolls their own initiative.")
            self.actor(c.name)  # only their runner rolls for an NPC
        self.apply(it.RollInitiative(by=self.me(), actor=c.key, adjust=adjust))

    def do_public(self):
        """Issue 12: who may watch the fight on the website (wodcombat/world/fight_view.py)."""
        self.load()
        word = self.args.strip().lower()
        if word not in ("on", "off"):
            raise InputError("Usage: +combat/public on (anyone may watch it on the website) "
                             "or +combat/public off (only those in it, and staff).")
        self.need_runner("choose who may watch the fight")
        from wodcombat.world.fight_view import PUBLIC_ATTR

        self.script.attributes.add(PUBLIC_ATTR, word == "on")
        # Issue 28: who may watch concerns everyone in the fight, not only its organizer.
        who = self.caller.key
        self.tell_room("Anyone may watch this fight on the website now." if word == "on" else
                       "Only those in this fight, and staff, may watch it on the website now.",
                       f"{who} lets anyone watch this fight on the website now."
                       if word == "on" else
                       f"{who} lets only those in this fight, and staff, watch it on the "
                       "website now.")

    def tell_room(self, mine: str, others: str | None = None) -> None:
        """``mine`` to the caller, ``others`` (else the same) to the room's readers."""
        from wodcombat.world.listeners import listeners

        self.msg("\n".join(wrap(combat_text.PREFIX + mine)))
        told = "\n".join(wrap(combat_text.PREFIX + (others or mine)))
        for obj in listeners(self.caller.location):
            if obj != self.caller:
                obj.msg(told)

    def do_flag(self):
        """INIT-05: <flag> sets a combat flag (a season: winter), !<flag> clears it."""
        self.load()
        self.need_runner("set combat flags")
        word = self.args.strip().lower()
        remove = word.startswith(("!", "-"))
        word = word.lstrip("!-").strip()
        if not word:
            raise InputError("Set a combat flag: +combat/flag winter (!winter clears it).")
        self.apply(it.SetFlag(by=self.me(), flag=word, remove=remove))

    def do_next(self):
        self.load()
        self.need_runner("move the fight on")
        who = self.combatant(self.args).key if self.args.strip() else None
        if who is None and self.me() in (getattr(self.state, "holder", None) or ()):
            # SPOT-07: an organizer who also plays holds the spotlight as a PC; "next" from
            # her seat is the Storyteller's move, so it does not end her own turn unasked.
            raise IllegalAction("The spotlight is yours: act (+combat/act), then end your "
                                "turn with +combat/done; +combat/next moves on from someone "
                                "else's turn.")
        self.apply(it.Advance(by=self.me(), actor=who))

    def do_act(self):
        """d10: perform what you declared (``+combat/act [<npc>]``); spotlight: say what you
        do (``+combat/act [<npc>=][attack|bite <target> [with <weapon>]|<what>]``)."""
        self.load()
        # A list of NPCs (Thug1,Thug2), not a comma in what is done: "+combat/act attack
        # Goon with pistol, heavy" (spotlight) names a weapon of the table.
        if "," in self.args and "=" not in self.args and all(
                self._is_combatant(part) for part in self.args.split(",") if part.strip()):
            self.for_each(self.args, lambda c: it.Act(by=self.me(), actor=c.key))
            return
        who, action = self.act_words()
        c = self.actor(who)
        if "spec" in self.switch_flags:
            raise InputError("A specialty is claimed when declaring: +combat/declare attack "
                             "<target> spec.")
        self.apply(it.Act(by=self.me(), actor=c.key, action=action,
                          willpower="wp" in self.switch_flags))

    def do_damage(self):
        """<name>=<levels> <type>: bashing/lethal/aggravated, or spotlight's
        superficial/aggravated Harm."""
        self.load()
        self.need_runner("apply damage by hand")
        parts = (self.rhs or "").split()
        if not self.lhs.strip() or len(parts) < 2 or not parts[0].isdecimal():
            # This switch's usage, not the whole command's (its start, join, init ... lines).
            raise InputError("Usage: +combat/damage <name>=<levels> <type> "
                             "[<source>], levels 1 to 30, e.g. +combat/damage Bob=2 lethal, "
                             "or from a source: +combat/damage Bob=3 lethal fire")
        c = self.combatant(self.lhs)
        self.apply(it.StaffDamage(by=self.me(), actor=c.key, levels=int(parts[0]),
                                  damage_type=parts[1], sources=tuple(parts[2:])))

    # ================================================================ log

    def do_log(self):
        self.load()
        arg = self.args.strip()
        try:
            count = int(arg) if arg else 10
        except ValueError:
            raise InputError(self.usage()) from None
        if not 1 <= count <= 200:
            raise InputError("Show from 1 to 200 entries.")
        every = combatlog.read(self.script.combat_id)
        undone = combatlog.undone(every)
        names = combat_text.Names(self.state, [combatlog.event_of(r) for r in every])
        told = []  # (record, text) of what the room read, bookkeeping left out
        for r in every:
            if r.get("event") in combatlog.QUIET:
                continue
            text = combat_text.room_lines(self.engine.name, [combatlog.event_of(r)],
                                          self.state, names)
            if text:
                told.append((r, " / ".join(combat_text.plain(t).strip() for t in text)))
        told = told[-count:]
        lines = [header(f"Combat log: last {len(told)}")]
        for r, body in told:
            mark = "[undone] " if r["seq"] in undone else ""
            lines += wrap(f" {r['seq']:>4} {_when(r)} {mark}{body}", indent=17)
        self.msg("\n".join(lines))



def _when(record) -> str:
    """A log entry's turn and phase. The record of a new turn keeps the phase it ended
    ("Everyone has acted in turn 1. Turn 2 begins." is logged at turn 2, phase extra): it is
    labelled the end of the turn before, not a moment of the new turn's extra phase."""
    turn, phase = record["turn"], str(record["phase"])
    if record.get("event") == "turn" and isinstance(turn, int) and turn > 1:
        turn, phase = turn - 1, "end"
    return f"t{turn} {phase[:7]:<7}"


def npc_names(text: str) -> list[str]:
    """``Thug`` -> [Thug]; ``Thug1, Thug2`` -> both; ``3 Thug`` -> [Thug1, Thug2, Thug3]."""
    words = text.split()
    if len(words) == 2 and words[0].isdecimal() and "," not in text:
        n, cap = int(words[0]), combat_limits.npcs_per_command()
        if not 1 <= n <= cap:
            raise InputError(f"Make from 1 to {cap} NPCs at once, e.g. +combat/npc 3 Thug=thug.")
        return [checked_name(f"{words[1]}{i}") for i in range(1, n + 1)]
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names) or len({n.lower() for n in names}) != len(names):
        raise InputError("Name each NPC once, separated by commas: Thug1,Thug2=thug.")
    return [checked_name(n) for n in names]
