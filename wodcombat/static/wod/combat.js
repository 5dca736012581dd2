/* The live combat page (issue 12): draws a fight's snapshot (world/fight_view.py) and polls
 * its JSON every 1.5 s, redrawing when the log has moved on. Plain DOM, no library.
 * Issue 30: every name and cell is text (textContent, text nodes); the only HTML put in the
 * page is the room's text, which the server drew with world/web_text.to_html. */
(function () {
  "use strict";
  var POLL_MS = 1500;
  var root = document.getElementById("fight");
  if (!root) { return; }
  var url = root.getAttribute("data-url");
  var shown = null;

  var el = window.WodDom.el, clear = window.WodDom.clear;  // dom.js

  var MARK_CLASS = {"*": "agg", "X": "lethal", "/": "bashing", " ": "free"};

  function d10Track(track) {
    if (!track) { return el("span", {}, ["?"]); }
    var boxes = track.boxes.map(function (b) {
      var pen = b.penalty === null ? "" : (b.penalty ? " " + b.penalty : "");
      return el("span", {"class": "hbox " + MARK_CLASS[b.mark], "title": b.level + pen},
                [b.mark === " " ? "\u00a0" : b.mark]);
    });
    var label = track.level + (track.penalty ? " (" + track.penalty + ")" : "");
    return el("span", {"class": "track"}, boxes.concat([el("span", {"class": "hlabel"}, [label])]));
  }

  function harmTrack(r) {
    // spotlight: the Harm track, aggravated first, then superficial, then free (SPOT-10)
    var boxes = [], i;
    for (i = 0; i < r.hp_max; i++) {
      var cls = i < r.aggravated ? "agg" : (i < r.aggravated + r.superficial ? "bashing" : "free");
      var mark = cls === "agg" ? "X" : (cls === "bashing" ? "/" : "\u00a0");
      boxes.push(el("span", {"class": "hbox " + cls}, [mark]));
    }
    return el("span", {"class": "track"}, boxes.concat([el("span", {"class": "hlabel"}, [r.status])]));
  }

  function draw(f) {
    document.getElementById("fight-title").textContent =
      "Fight in " + f.room + " (" + f.ruleset + ")";
    document.getElementById("fight-clock").textContent =
      (f.engine === "d10" ? "Turn " + f.turn + ", " + f.phase + " phase"
                          : "Round " + f.turn + ", " + f.phase) +
      "  \u00b7  organizer: " + f.organizer;
    // spotlight (SPOT-04): while the Storyteller picks, the opponents listed are the ones
    // that may be picked, not holders of the spotlight (which is with nobody)
    var picks = f.waiting.filter(function (w) { return w.what === "pick"; })
      .map(function (w) { return w.name; });
    var waiting = f.waiting.filter(function (w) { return w.what !== "pick"; })
      .map(function (w) { return w.name + " (" + w.what + ")"; });
    if (picks.length) {
      waiting.push("the organizer picks an opponent (" + picks.join(", ") +
                   ") or passes; the spotlight is with nobody");
    }
    document.getElementById("fight-waiting").textContent =
      waiting.length ? "Now: " + waiting.join(", ") : "";
    // issue 31 (spotlight): how an action is read, and the 7-9 costs the organizer owes
    document.getElementById("fight-reading").textContent =
      f.reading ? "Actions: " + f.reading : "";
    document.getElementById("fight-owed").textContent = (f.owed || []).length
      ? "Cost owed: " + f.owed.map(function (o) { return o.name + " (" + o.move + ")"; })
          .join(", ") + "; the organizer names it: +combat/cost <name>=<cost>"
      : "";
    var table = document.getElementById("fight-rows");
    var head = f.engine === "d10"
      ? ["Init", "Name", "Health", "Gear", "Declared", "Conditions"]
      : ["Init", "Name", "Side", "Harm", "HP", "Conditions"];
    clear(table.tHead);
    table.tHead.appendChild(el("tr", {}, head.map(function (h) { return el("th", {}, [h]); })));
    var body = table.tBodies[0];
    clear(body);
    f.rows.forEach(function (r) {
      var waitingNow = f.waiting.some(function (w) { return w.key === r.key; });
      var cells;
      var init = r.init === null ? "--" : String(r.init);
      if (f.engine === "d10") {
        var gear = (r.hand || "unarmed") + (r.armor ? ", " + r.armor : "");
        var name = r.name + (r.npc ? " [NPC]" : "") + (r.delayed ? " [delayed]" : "") +
          (r.outcome && r.outcome !== "ok" ? " (" + r.outcome + ")" : "");
        cells = [init, name, d10Track(r.track), gear,
                 r.declared === null || r.declared === undefined ? "-" : r.declared,
                 (r.conditions || []).join(", ")];
      } else {
        var side = r.npc ? "NPC " + r.turns + "/" + r.actions_per_round : "PC";
        cells = [init, r.name, side, harmTrack(r), r.hp + "/" + r.hp_max,
                 (r.conditions || []).join(", ")];
      }
      body.appendChild(el("tr", {"class": waitingNow ? "up" : "", "data-key": r.key},
        cells.map(function (c, i) { return el("td", {"data-label": head[i]}, [c]); })));
    });
    var ranges = (f.ranges || []).map(function (r) {
      return r[0] + "\u2013" + r[1] + " " + r[2] + (f.engine === "d10" ? " yd" : "");
    });
    document.getElementById("fight-ranges").textContent =
      ranges.length ? "Ranges: " + ranges.join("; ") : "";
    var recent = document.getElementById("fight-recent");
    clear(recent);
    f.recent.forEach(function (r) {
      var div = el("div", {"class": "said", "data-seq": String(r.seq)});
      div.innerHTML = r.html;  // the server's to_html: escaped, colours only, no link
      recent.appendChild(div);
    });
    root.setAttribute("data-version", String(f.version));
    document.getElementById("fight-stamp").textContent =
      "Last change: entry " + f.version + ".";
    // issue 29: the controls (fight_controls.js) redraw from the same snapshot
    document.dispatchEvent(new CustomEvent("wod:fight", {"detail": f}));
  }

  function gone(text) {
    try { return JSON.parse(text).gone === true; } catch (e) { return false; }
  }

  var timer = null;

  function poll() {
    timer = null;
    var req = new XMLHttpRequest();
    req.open("GET", url, true);
    req.onload = function () {
      if (req.status === 404 && gone(req.responseText)) {
        // one answer for a fight that ended and one this viewer may no longer watch
        document.getElementById("fight-waiting").textContent =
          "This fight has ended, or you may no longer watch it.";
        root.setAttribute("data-ended", "1");
        return;  // stop polling
      }
      if (req.status === 200) {
        var f = JSON.parse(req.responseText);
        if (!shown || f.version !== shown.version || f.phase !== shown.phase) {
          shown = f;
          draw(f);
        }
      }
      timer = setTimeout(poll, POLL_MS);
    };
    req.onerror = function () { timer = setTimeout(poll, POLL_MS * 2); };
    req.send();
  }

  // a control ran a command: look again now rather than at the next tick
  document.addEventListener("wod:poll-now", function () {
    if (timer !== null && !root.hasAttribute("data-ended")) {
      clearTimeout(timer);
      poll();
    }
  });

  shown = JSON.parse(document.getElementById("fight-data").textContent);
  draw(shown);
  timer = setTimeout(poll, POLL_MS);
})();
