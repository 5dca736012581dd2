/* The fight page as a control surface (issue 29). Every control sends one +combat line,
 * a POST to /combat/<id>/do with the CSRF token; the server runs it as the visitor's
 * character through the game's own command handler, so the same checks apply and the room
 * reads the same lines. What the game told the character comes back and is shown here.
 * Drawn from the snapshot combat.js draws (the "wod:fight" event). Every name and every
 * reply is text (textContent, text nodes), never HTML. */
(function () {
  "use strict";
  var root = document.getElementById("fight");
  if (!root) { return; }
  var doUrl = root.getAttribute("data-do");
  var tokenField = document.querySelector("input[name=csrfmiddlewaretoken]");
  var replies = document.getElementById("fight-replies");
  var npcShown = null;   // the NPC list last drawn (rebuilt only when it changes)
  var yoursShown = null;  // what the fight last waited on this visitor for
  var answered = 0;  // replies shown so far (each entry's data-n)

  var el = window.WodDom.el, clear = window.WodDom.clear;  // dom.js

  function showReply(line, lines, failed) {
    answered += 1;
    var entry = el("div", {"class": "said" + (failed ? " refused" : ""),
                           "data-n": String(answered)});
    entry.appendChild(el("div", {"class": "sent"}, ["> " + line]));
    lines.forEach(function (text) { entry.appendChild(el("div", {}, [text])); });
    replies.appendChild(entry);
    while (replies.childNodes.length > 12) { replies.removeChild(replies.firstChild); }
    replies.scrollTop = replies.scrollHeight;
  }

  function send(line) {
    var req = new XMLHttpRequest();
    req.open("POST", doUrl, true);
    req.setRequestHeader("Content-Type", "application/x-www-form-urlencoded");
    req.setRequestHeader("X-CSRFToken", tokenField ? tokenField.value : "");
    req.onload = function () {
      var answer = {};
      try { answer = JSON.parse(req.responseText); } catch (e) { answer = {}; }
      if (req.status === 200) {
        showReply(line, answer.lines && answer.lines.length ? answer.lines
                                                            : ["(nothing was said)"], false);
      } else {
        showReply(line, [answer.error || answer.message ||
                         "Refused (" + req.status + "); nothing was changed."], true);
      }
      document.dispatchEvent(new CustomEvent("wod:poll-now"));
    };
    req.onerror = function () {
      showReply(line, ["The game did not answer; nothing is known to have changed."], true);
    };
    req.send("line=" + encodeURIComponent(line));
  }

  function button(label, line, extra) {
    var b = el("button", Object.assign({"type": "button", "class": "btn btn-secondary btn-sm"},
                                       extra || {}), [label]);
    b.addEventListener("click", function () { send(typeof line === "function" ? line() : line); });
    return b;
  }

  function actionBox(name, label) {
    return el("input", {"size": "18", "maxlength": "200", "aria-label": label,
                        "placeholder": "attack <target>", "data-for": name});
  }

  // ---------------------------------------------------------------- the player's part

  var HOW = {"initiative": "roll initiative", "declare": "declare what you will do",
             "act": "act", "pick": "wait for the organizer's pick"};

  function drawYours(f, me) {
    var mine = f.waiting.filter(function (w) { return me.keys.indexOf(w.key) >= 0; });
    var now = mine.map(function (w) { return w.what; }).join(",");
    if (now === yoursShown) { return; }
    yoursShown = now;
    var section = document.getElementById("fight-yours");
    section.hidden = me.keys.length === 0;
    var box = document.getElementById("fight-yours-do");
    clear(box);
    document.getElementById("fight-yours-now").textContent = mine.length
      ? "The fight waits on you to " + mine.map(function (w) { return HOW[w.what] || w.what; })
          .join(", then ") + "."
      : "The fight does not wait on you now.";
    mine.forEach(function (w) {
      if (w.what === "initiative") {
        box.appendChild(button("Roll initiative", "+combat/init"));
      } else if (w.what === "declare") {
        var input = actionBox("", "Your action");
        box.appendChild(input);
        box.appendChild(button("Declare", function () {
          return "+combat/declare " + input.value; }));
        box.appendChild(button("Dodge", "+combat/dodge"));
        box.appendChild(button("Pass", "+combat/pass"));
      } else if (w.what === "act" && f.engine === "d10") {
        box.appendChild(button("Act", "+combat/act", {"class": "btn btn-primary btn-sm"}));
      } else if (w.what === "act") {  // spotlight: the action is said at /act
        var action = actionBox("", "Your action");
        box.appendChild(action);
        box.appendChild(button("Act", function () {
          return ("+combat/act " + action.value).trim(); }, {"class": "btn btn-primary btn-sm"}));
        box.appendChild(button("Done", "+combat/done"));
      }
    });
  }

  // ---------------------------------------------------------------- the organizer's part

  function npcItem(r, f) {
    var up = f.waiting.filter(function (w) { return w.key === r.key; })
      .map(function (w) { return w.what; });
    var input = actionBox(r.name, "Action for " + r.name);
    var who = el("strong", {}, [r.name]);
    var li = el("li", {"class": "wod-controls", "data-key": r.key}, [who]);
    li.appendChild(el("span", {"class": "small text-muted"},
                      [up.length ? "(up: " + up.join(", ") + ")" : ""]));
    if (f.engine === "d10") {
      li.appendChild(button("Initiative", "+combat/init " + r.name,
                            {"aria-label": "Roll initiative for " + r.name}));
      li.appendChild(input);
      li.appendChild(button("Declare", function () {
        return "+combat/declare " + r.name + "=" + input.value;
      }, {"aria-label": "Declare for " + r.name}));
      li.appendChild(button("Act", "+combat/act " + r.name, {"aria-label": "Act for " + r.name}));
    } else {
      li.appendChild(button("Spotlight", "+combat/next " + r.name,
                            {"aria-label": "Give " + r.name + " the spotlight"}));
      li.appendChild(input);
      li.appendChild(button("Act", function () {
        return "+combat/act " + r.name + "=" + input.value;
      }, {"aria-label": "Act for " + r.name}));
    }
    return li;
  }

  function drawNpcs(f) {
    var npcs = f.rows.filter(function (r) { return r.npc; });
    var sig = JSON.stringify([f.engine, npcs.map(function (r) { return r.key; }),
                              f.waiting]);
    if (sig === npcShown) { return; }
    npcShown = sig;
    var list = document.getElementById("fight-npcs");
    var typed = {};  // what was typed for each NPC survives the redraw
    Array.prototype.forEach.call(list.querySelectorAll("input[data-for]"), function (i) {
      typed[i.getAttribute("data-for")] = i.value;
    });
    clear(list);
    if (!npcs.length) {
      list.appendChild(el("li", {"class": "text-muted"}, ["No NPCs yet: add some below."]));
    }
    npcs.forEach(function (r) {
      var item = list.appendChild(npcItem(r, f));
      var input = item.querySelector("input[data-for]");
      if (input && typed[r.name]) { input.value = typed[r.name]; }
    });
  }

  function fillSelect(select, values) {
    var was = select.value;
    var now = Array.prototype.map.call(select.options, function (o) { return o.value; });
    if (JSON.stringify(now) === JSON.stringify(values)) { return; }
    clear(select);
    values.forEach(function (v) { select.appendChild(el("option", {"value": v}, [v])); });
    if (values.indexOf(was) >= 0) { select.value = was; }
  }

  function drawRun(f, me) {
    var section = document.getElementById("fight-run");
    section.hidden = !me.runs;
    if (!me.runs) { return; }
    drawNpcs(f);
    var names = f.rows.map(function (r) { return r.name; });
    Array.prototype.forEach.call(document.querySelectorAll("select.wod-names"),
                                 function (s) { fillSelect(s, names); });
    fillSelect(document.querySelector("#fight-add select[name=template]"), me.templates);
  }

  // ---------------------------------------------------------------- the forms

  function onSubmit(id, line) {
    var form = document.getElementById(id);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var text = line(form.elements);
      if (text) { send(text); }
    });
  }

  onSubmit("fight-add", function (e) {
    var n = parseInt(e.count.value, 10) || 1;
    return "+combat/npc " + (n > 1 ? n + " " : "") + e.name.value + "=" + e.template.value;
  });
  onSubmit("fight-harm", function (e) {
    return "+combat/" + e.what.value + " " + e.who.value + "=" + e.amount.value;
  });
  onSubmit("fight-range", function (e) {
    return "+combat/range " + e.a.value + "/" + e.b.value + "=" + e.range.value;
  });
  onSubmit("fight-kick", function (e) {
    return window.confirm("Take " + e.who.value + " out of the fight?")
      ? "+combat/kick " + e.who.value : null;
  });
  onSubmit("fight-free", function (e) { return e.line.value; });
  Array.prototype.forEach.call(document.querySelectorAll("#fight-run button[data-line]"),
    function (b) {
      b.addEventListener("click", function () {
        var ask = b.getAttribute("data-confirm");
        if (!ask || window.confirm(ask)) { send(b.getAttribute("data-line")); }
      });
    });

  document.addEventListener("wod:fight", function (ev) {
    var f = ev.detail;
    var me = f.me || {"keys": [], "runs": false, "templates": []};
    drawYours(f, me);
    drawRun(f, me);
    document.getElementById("fight-line").hidden = !(me.runs || me.keys.length);
  });
})();
