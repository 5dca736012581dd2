/*
 * The combat system's gauges in Evennia's web client (issue 29): the game sends GMCP
 * Char.Vitals (health track, wound penalty, the splat's pools) and Char.Combat (turn, phase,
 * slot, whom the fight waits for) as "char_vitals" and "char_combat" (wodcombat/world/oob.py).
 * This plugin draws them in a small panel and claims both messages, so the client prints no
 * "Unhandled event" for them. The server sends them to a web page only after it says
 * "wod_gauges" (wodcombat/inputfuncs.py), so a page without this file is sent nothing.
 *
 * Every value is put on the page as text (textContent), never as HTML: a name in the
 * fight's waiting list is a player's text.
 */
let wod_gauges_plugin = (function () {
    "use strict";

    // Pools drawn first, in this order; any other "x" with an "x_max" follows.
    const FIRST = ["willpower", "blood", "rage", "gnosis", "quintessence", "pathos", "glamour"];
    const MARKS = [["aggravated", "*"], ["lethal", "X"], ["bashing", "/"]];
    let panel = null;
    let vitals = null;
    let combat = null;

    var el = function (tag, cls, text) {
        var node = document.createElement(tag);
        if (cls) { node.className = cls; }
        if (text !== undefined) { node.textContent = String(text); }
        return node;
    };

    var title = function (word) {
        return word.charAt(0).toUpperCase() + word.slice(1).replace(/_/g, " ");
    };

    // The health track as boxes, worst damage first (HLT-01): "*" aggravated, "X" lethal,
    // "/" bashing, blank unhurt; the level and its penalty beside it (HLT-06).
    var healthSection = function (v) {
        var box = el("section", "wod-health");
        box.setAttribute("aria-label", "Health");
        box.appendChild(el("h2", null, "Health"));
        var track = el("div", "wod-track");
        track.setAttribute("aria-hidden", "true");
        var marked = 0;
        MARKS.forEach(function (pair) {
            for (var i = 0; i < (v[pair[0]] || 0); i++, marked++) {
                track.appendChild(el("span", "wod-box wod-" + pair[0], pair[1]));
            }
        });
        for (; marked < (v.health_boxes || 0); marked++) {
            track.appendChild(el("span", "wod-box", "\u00a0"));
        }
        box.appendChild(track);
        var penalty = v.wound_penalty ? " (" + v.wound_penalty + ")" : "";
        box.appendChild(el("p", "wod-level", v.health_level + penalty));
        var hurt = MARKS.filter(function (p) { return v[p[0]]; })
            .map(function (p) { return v[p[0]] + " " + p[0]; });
        box.appendChild(el("p", "wod-sr", hurt.length ? hurt.join(", ") : "no damage"));
        return box;
    };

    var poolNames = function (v) {
        var rest = Object.keys(v).filter(function (k) {
            return (k + "_max") in v && FIRST.indexOf(k) < 0;
        }).sort();
        return FIRST.filter(function (k) { return (k + "_max") in v; }).concat(rest);
    };

    var poolsSection = function (v) {
        var box = el("section", "wod-pools");
        box.setAttribute("aria-label", "Pools");
        poolNames(v).forEach(function (name) {
            var row = el("div", "wod-pool");
            var id = "wod-pool-" + name;
            var label = el("label", null, title(name) + " " + v[name] + "/" + v[name + "_max"]);
            label.setAttribute("for", id);
            var meter = el("meter");
            meter.id = id;
            meter.min = 0;
            meter.max = Math.max(1, v[name + "_max"]);
            meter.value = v[name];
            row.appendChild(label);
            row.appendChild(meter);
            box.appendChild(row);
        });
        return box;
    };

    // Where the fight stands for this character: one fact a line.
    var combatLines = function (c) {
        var lines = ["Turn " + c.turn + ", " + c.phase, "Slot " + c.slot + " of " + c.of];
        if (c.hp_max !== undefined) {  // spotlight: the Harm track lives in the fight (SPOT-10)
            lines.push("Health " + c.hp + "/" + c.hp_max + (c.status ? ", " + c.status : ""));
        }
        if (c.your_turn) {
            lines.push("Your turn");
        } else if (c.pending && c.pending.length) {
            // spotlight (SPOT-04): a "pick" is the organizer choosing among the opponents
            // named, as +combat and the fight page say it
            var picks = c.pending.filter(function (p) { return p.what === "pick"; });
            var rest = c.pending.filter(function (p) { return p.what !== "pick"; });
            if (rest.length) {
                lines.push("Waiting for " + rest.map(function (p) {
                    return p.name + " (" + p.what + ")";
                }).join(", "));
            }
            if (picks.length) {
                lines.push("The organizer picks: " + picks.map(function (p) {
                    return p.name;
                }).join(", ") + ", or passes");
            }
        }
        return lines;
    };

    var combatSection = function (c) {
        var box = el("section", "wod-fight");
        box.setAttribute("aria-label", "Fight");
        box.appendChild(el("h2", null, "Fight"));
        combatLines(c).forEach(function (line) {
            box.appendChild(el("p", line === "Your turn" ? "wod-your-turn" : null, line));
        });
        return box;
    };

    var draw = function () {
        if (!panel) { return; }
        var body = panel.querySelector(".wod-body");
        body.replaceChildren();
        if (vitals) {
            body.appendChild(healthSection(vitals));
            body.appendChild(poolsSection(vitals));
        }
        if (combat && combat.active) {
            body.appendChild(combatSection(combat));
        }
        panel.hidden = !(vitals || (combat && combat.active));
    };

    var makePanel = function () {
        panel = el("aside", "wod-gauges");
        panel.id = "wod-gauges";
        panel.setAttribute("aria-label", "Your character");
        panel.hidden = true;
        var toggle = el("button", "wod-toggle", "Gauges");
        toggle.type = "button";
        toggle.setAttribute("aria-expanded", "true");
        toggle.addEventListener("click", function () {
            var open = toggle.getAttribute("aria-expanded") !== "true";
            toggle.setAttribute("aria-expanded", open ? "true" : "false");
            panel.querySelector(".wod-body").hidden = !open;
        });
        panel.appendChild(toggle);
        panel.appendChild(el("div", "wod-body"));
        document.body.appendChild(panel);
    };

    var onVitals = function (args, kwargs) { vitals = kwargs || {}; draw(); };
    var onCombat = function (args, kwargs) { combat = kwargs || {}; draw(); };

    // Logged in: tell the server this page draws the gauges (it then sends them at once).
    var onLoggedIn = function () {
        Evennia.msg("wod_gauges", [], {});
    };

    var init = function () {
        makePanel();
        Evennia.emitter.on("char_vitals", onVitals);
        Evennia.emitter.on("char_combat", onCombat);
    };

    return { init: init, onLoggedIn: onLoggedIn };
})();
window.plugin_handler.add("wod_gauges", wod_gauges_plugin);
