// Intrigue in the Clouds: its screens on the table page (see games/base.js for the hooks).
// The referee's console: a badge search, the perception check (odds per envelope before the
// roll, which envelopes to hand over after it), skill rolls, contingency envelopes against the
// game clock, the combat tracker. A player's: their own sheet and the envelopes handed to them.
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table;

  // ------------------------------------------------------------------ the game clock
  function minutesOf(hhmm) {
    var m = /^(\d{1,2}):(\d{2})$/.exec(String(hhmm || "00:00"));
    return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  }
  function clock(obs, seconds) {    // a game time (seconds since the start) as the wall clock
    var total = minutesOf(obs.start || (obs.state && obs.state.start)) + Math.floor(seconds / 60);
    var hh = Math.floor(total / 60) % 24, mm = total % 60;
    return (hh < 10 ? "0" : "") + hh + ":" + (mm < 10 ? "0" : "") + mm;
  }
  function left(seconds) {
    var s = Math.max(0, seconds), m = Math.floor(s / 60), r = s % 60;
    return m + "m" + (r < 10 ? "0" : "") + r + "s";
  }
  function secret(e, name) {
    var found = (e.secrets || []).filter(function (s) { return s.name === name; })[0];
    return found ? found.value : undefined;
  }
  // Every event this page has been shown, in order (an observation carries only the new ones;
  // after an undo the log is sent again from its first event, which replaces what followed).
  var seen = [];
  function remember(e) {
    if (e.number == null) return;
    seen = seen.filter(function (x) { return x.number < e.number; });
    seen.push(e);
  }
  function nameOf(s, id) { var c = (s.characters || {})[id]; return c ? "#" + c.number + " " + (c.name || id) : id; }
  function uid(prefix) { uid.n = (uid.n || 0) + 1; return prefix + uid.n; }

  // ------------------------------------------------------------------ the board
  function board(s, ctx) {
    var wrap = h("div", {className: "intrigue"});
    var chars = s.characters || {};
    var ids = Object.keys(chars).sort(function (a, b) { return Number(chars[a].number) - Number(chars[b].number); });
    var grid = h("div", {className: "state-grid"});
    ids.forEach(function (id) {
      var c = chars[id];
      var el = card("#" + c.number + " " + (c.name || id) + (c.knocked_out ? " (knocked out)" : "") + (c.dead ? " (dead)" : ""),
        ctx.flat(without(c, ["number", "knocked_out", "dead", "wake_due"])));
      el.id = "char-" + id;
      el.setAttribute("tabindex", "-1");
      el.dataset.badge = String(c.number);
      grid.appendChild(el);
    });
    wrap.appendChild(h("h3", {text: "Characters by badge number"}));
    wrap.appendChild(grid);
    var rest = without(s, ["characters", "start", "combats", "contingency_envelopes", "cooldowns"]);
    wrap.appendChild(ctx.generic(rest));
    return wrap;
  }

  // ------------------------------------------------------------------ the referee's console
  function badgeSearch(ctx) {
    var s = ctx.obs.state || {};
    var input = h("input", {id: "ic-badge", type: "search", inputmode: "numeric", autocomplete: "off",
      placeholder: "e.g. 40", "aria-describedby": "ic-badge-said"});
    var said = h("p", {id: "ic-badge-said", className: "muted", role: "status"});
    var form = h("form", {className: "row", "aria-label": "Find a character by badge number"},
      h("label", {"for": "ic-badge", text: "Badge number"}), input,
      h("button", {type: "submit", className: "ghost", text: "Find"}));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var q = input.value.trim().replace(/^#/, "");
      var chars = s.characters || {};
      var hit = Object.keys(chars).filter(function (id) { return String(chars[id].number) === q || id === q; })[0];
      if (!hit) { said.textContent = "No character wears badge " + q + "."; return; }
      var el = document.getElementById("char-" + hit);
      said.textContent = "Badge " + chars[hit].number + ": " + (chars[hit].name || hit) + ".";
      if (el) { el.classList.add("found"); el.scrollIntoView({block: "center"}); el.focus(); }
    });
    return h("section", {className: "ic-part", "aria-labelledby": "ic-find-h"},
      h("h3", {id: "ic-find-h", text: "Find a character"}), form, said);
  }

  function select(id, label, values, texts, value) {
    var sel = h("select", {id: id});
    values.forEach(function (v, i) { sel.appendChild(h("option", {value: String(v), text: texts ? texts[i] : String(v)})); });
    if (value != null && values.map(String).indexOf(String(value)) >= 0) sel.value = String(value);
    return {el: sel, field: h("div", {className: "stack"}, h("label", {"for": id, text: label}), sel)};
  }

  function showOdds(box, ctx, list, empty) {
    box.textContent = "";
    if (!list || !list.length) { box.appendChild(h("p", {className: "muted", text: empty})); return; }
    list.forEach(function (o) {
      box.appendChild(h("div", {className: "roll"}, h("div", null, h("strong", {text: o.label}), " ",
        h("span", {className: "muted", text: o.dice})), ctx.oddsChart(o.odds, null, "Odds of " + o.label)));
    });
  }

  var kept = {};   // the console's fields across redraws (an update redraws the console)

  function perceptionPanel(ctx) {
    var s = ctx.obs.state || {}, chars = s.characters || {};
    var choices = ctx.choices("perceive");
    var perceivers = Object.keys(chars).filter(function (id) { return !chars[id].dead && !chars[id].knocked_out; });
    var part = h("section", {className: "ic-part", "aria-labelledby": "ic-perc-h"},
      h("h3", {id: "ic-perc-h", text: "Perception check"}));
    if (!perceivers.length) { part.appendChild(h("p", {className: "muted", text: "Nobody can perceive now."})); return part; }
    var who = select("ic-perceiver", "Perceiver", perceivers, perceivers.map(function (id) { return nameOf(s, id); }), kept.perceiver);
    var targets = Object.keys(chars).filter(function (id) { return id !== who.el.value; });
    var what = select("ic-target", "Target (who holds the envelopes)", targets,
      targets.map(function (id) { return nameOf(s, id); }), kept.target);
    var odds = h("div", {className: "odds-box", id: "ic-perc-odds", "aria-live": "polite"});
    var button = h("button", {type: "submit", id: "ic-perceive", text: "Roll the Perception Check"});
    var said = h("div", {id: "ic-perc-said", className: "handover", role: "status"});
    var form = h("form", {className: "grid2"}, who.field, what.field);
    function cooldown(p, t) {
      return (s.cooldowns || []).filter(function (c) { return c.perceiver === p && c.target === t; })[0];
    }
    function open(p) { return choices.filter(function (c) { return c.actor === p; })[0]; }
    function refresh() {
      kept.perceiver = who.el.value; kept.target = what.el.value;
      var p = who.el.value, t = what.el.value, cool = cooldown(p, t), choice = open(p);
      var allowed = choice && choice.params.target && choice.params.target.one_of.indexOf(t) >= 0;
      button.disabled = !allowed;
      if (cool) {
        odds.textContent = "";
        odds.appendChild(h("p", {className: "cooldown", text: nameOf(s, p) + " checked " + nameOf(s, t) +
          " less than 15 minutes ago: next check at " + cool.until + " (" + left(cool.due - ctx.obs.now) + " left)."}));
        return;
      }
      if (!allowed) { showOdds(odds, ctx, [], nameOf(s, p) + " cannot check " + nameOf(s, t) + " now."); return; }
      odds.textContent = "Working out the odds…";
      ctx.odds("perceive", p, {target: t}).then(function (list) {
        if (who.el.value !== p || what.el.value !== t) return;
        showOdds(odds, ctx, list, "No envelope of " + nameOf(s, t) + " is for " + nameOf(s, p) +
          ": nothing to hand over whatever the roll.");
      });
    }
    who.el.addEventListener("change", function () { kept.perceiver = who.el.value; kept.target = null; rerender(ctx); });
    what.el.addEventListener("change", refresh);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var p = who.el.value, t = what.el.value;
      button.disabled = true;
      ctx.act("perceive", p, {target: t}).then(function (taken) {
        var mine = taken ? latest(p, t) : null;
        kept.said = taken && mine ? handover(mine, window.RefTable.context().obs.state) : "";
        var el = document.getElementById("ic-perc-said");
        if (el) el.textContent = kept.said || "";
        var again = document.getElementById("ic-perceive");
        if (again) again.focus();
      });
    });
    form.appendChild(odds);
    form.appendChild(button);
    part.appendChild(form);
    said.textContent = kept.said || "";
    part.appendChild(said);
    refresh();
    return part;
  }

  function latest(perceiver, target) {
    var list = seen.filter(function (e) {
      return e.kind === "perception.made" && e.payload.perceiver === perceiver && e.payload.target === target;
    });
    return list[list.length - 1];
  }

  // What the holder hands over after a check, in words: by envelope label.
  function handover(e, s) {
    var p = e.payload, got = p.envelopes || [];
    var who = nameOf(s || {}, p.perceiver), holder = nameOf(s || {}, p.target);
    if (!got.length) return who + " rolled " + p.total + ": " + holder + " hands over nothing.";
    return who + " rolled " + p.total + ": " + holder + " hands over " + got.map(function (x) {
      return "“" + x.label + "” (" + x.id + ")";
    }).join(" and ") + ".";
  }

  function skillPanel(ctx) {
    var s = ctx.obs.state || {};
    var rolls = ctx.choices("roll");
    var actors = [];
    rolls.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    var part = h("section", {className: "ic-part", "aria-labelledby": "ic-skill-h"}, h("h3", {id: "ic-skill-h", text: "Skill roll"}));
    if (!actors.length) { part.appendChild(h("p", {className: "muted", text: "No skill roll is open now."})); return part; }
    var who = select("ic-roller", "Character", actors, actors.map(function (id) { return nameOf(s, id); }), kept.roller);
    var fixed = rolls.filter(function (c) { return c.actor === who.el.value && c.params.target; })[0];
    var versus = rolls.filter(function (c) { return c.actor === who.el.value && c.params.against; })[0];
    var skills = (fixed || versus).params.skill.one_of;
    var skill = select("ic-skill", "Skill", skills, null, kept.skill);
    var modes = ["target"].concat(versus ? ["against"] : []);
    var mode = select("ic-mode", "Against", modes, ["a Target Number"].concat(versus ? ["another character's roll"] : []), kept.mode);
    var tn = h("input", {id: "ic-tn", type: "number", min: 3, max: 24, value: kept.tn || 14, inputmode: "numeric"});
    var tnField = h("div", {className: "stack"}, h("label", {"for": "ic-tn", text: "Target Number (3 to 24)"}), tn);
    var others = versus ? versus.params.against.one_of : [];
    var vs = select("ic-against", "Opponent", others.length ? others : [""], others.map(function (id) { return nameOf(s, id); }), kept.against);
    var odds = h("div", {className: "odds-box", id: "ic-skill-odds", "aria-live": "polite"});
    var button = h("button", {type: "submit", id: "ic-roll", text: "Roll"});
    var form = h("form", {className: "grid2"}, who.field, skill.field, mode.field, tnField, vs.field, odds, button);
    function params() {
      var out = {skill: skill.el.value};
      if (mode.el.value === "target") out.target = Number(tn.value); else out.against = vs.el.value;
      return out;
    }
    function refresh() {
      kept.roller = who.el.value; kept.skill = skill.el.value; kept.mode = mode.el.value; kept.tn = tn.value; kept.against = vs.el.value;
      tnField.hidden = mode.el.value !== "target";
      vs.field.hidden = mode.el.value === "target";
      var ask = JSON.stringify(params());
      ctx.odds("roll", who.el.value, params()).then(function (list) {
        if (JSON.stringify(params()) === ask) showOdds(odds, ctx, list, "Outside what the rules allow.");
      });
    }
    who.el.addEventListener("change", function () { kept.roller = who.el.value; rerender(ctx); });
    [skill.el, mode.el, tn, vs.el].forEach(function (el) { el.addEventListener("change", refresh); el.addEventListener("input", refresh); });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); ctx.act("roll", who.el.value, params()); });
    part.appendChild(form);
    refresh();
    return part;
  }

  function contingencyPanel(ctx) {
    var s = ctx.obs.state || {}, all = s.contingency_envelopes || {};
    var now = clock(ctx.obs, ctx.obs.now || 0), nowMin = minutesOf(now);
    var rows = Object.keys(all).map(function (id) {
      var e = all[id], at = /^Open at (\d{1,2}:\d{2})$/.exec(e.label || "");
      var due = at ? minutesOf(at[1]) : null;
      var status = e.opened ? "opened" : e.openable ? "may be opened now" :
        due != null ? (due <= nowMin ? "due" : "in " + (due - nowMin) + " min") : "on its condition";
      return {due: due == null ? 1e9 : due, row: [id, nameOf(s, e.holder), e.label, status]};
    }).sort(function (a, b) { return a.due - b.due; }).map(function (x) { return x.row; });
    var part = h("section", {className: "ic-part", "aria-labelledby": "ic-cont-h"},
      h("h3", {id: "ic-cont-h", text: "Contingency envelopes — game clock " + now}));
    if (!rows.length) part.appendChild(h("p", {className: "muted", text: "No contingency envelopes in this game."}));
    else part.appendChild(table(["Envelope", "Holder", "Condition", "Status"], rows, "Contingency envelopes, soonest first"));
    return part;
  }

  function combatPanel(ctx) {
    var s = ctx.obs.state || {}, combats = s.combats || {}, chars = s.characters || {};
    var part = h("section", {className: "ic-part", "aria-labelledby": "ic-combat-h"}, h("h3", {id: "ic-combat-h", text: "Combat tracker"}));
    var ids = Object.keys(combats);
    ids.forEach(function (cid) {
      var c = combats[cid];
      var heldBy = {}; Object.keys(c.holds || {}).forEach(function (held) { heldBy[held] = c.holds[held]; });
      var rows = Object.keys(c.sides || {}).map(function (who) {
        var d = (c.declarations || {})[who], x = chars[who] || {};
        var holding = Object.keys(heldBy).filter(function (k) { return heldBy[k] === who; });
        return [nameOf(s, who), c.sides[who],
          d ? d.action + (d.target ? " → " + d.target : "") + (d.resolved ? " (done)" : "") :
            (c.pending || []).indexOf(who) >= 0 ? "to declare" : "—",
          (heldBy[who] ? "held by " + heldBy[who] : "") + (holding.length ? "holding " + holding.join(", ") : "") || "—",
          x.wounds != null ? (x.wounds_left + "/" + x.wounds + " wounds, " + x.damage + " damage") : "—",
          x.dead ? "dead" : x.knocked_out ? "knocked out" + (x.wakes_at ? ", wakes " + x.wakes_at : "") :
            (c.escaped || []).indexOf(who) >= 0 ? "escaped" : "fighting"];
      });
      part.appendChild(table(["Who", "Side", "Declared", "Grabs and holds", "Wounds", "State"], rows,
        cid + (c.ended ? " — ended" : " — round " + c.round + (c.in_round ? ", declaring and resolving" : ", between rounds"))));
    });
    var timers = Object.keys(chars).filter(function (id) { return chars[id].knocked_out && chars[id].wake_due != null; });
    if (timers.length) {
      part.appendChild(h("ul", {className: "timers", "aria-label": "Knock-out timers"}, timers.map(function (id) {
        return h("li", {text: nameOf(s, id) + " wakes at " + chars[id].wakes_at + " (" + left(chars[id].wake_due - ctx.obs.now) + " left)"});
      })));
    }
    if (!ids.length && !timers.length) part.appendChild(h("p", {className: "muted", text: "No combat running."}));
    return part;
  }

  // ------------------------------------------------------------------ a player's console
  function playerPanel(ctx) {
    var s = ctx.obs.state || {}, chars = s.characters || {};
    var wrap = h("div", {className: "intrigue-console"});
    ctx.me.plays.forEach(function (id) {
      var c = chars[id];
      if (!c) return;
      var handed = h("ul", {className: "envelopes", id: "ic-handed"});
      seen.forEach(function (e) {
        if (e.kind !== "perception.made" || e.payload.perceiver !== id) return;
        var inside = secret(e, "contents") || {};
        (e.payload.envelopes || []).forEach(function (x) {
          var what = inside[x.id] || {};
          handed.appendChild(h("li", {className: "envelope"},
            h("strong", {text: nameOf(s, e.payload.target) + " — " + x.label}),
            h("p", {text: what.contents || "(its contents were not given to you)"}),
            what.directions ? h("p", {className: "directions", text: "Directions: " + what.directions}) : null));
        });
      });
      seen.forEach(function (e) {
        if (e.kind !== "envelope.opened" || e.payload.holder !== id) return;
        handed.appendChild(h("li", {className: "envelope"}, h("strong", {text: "Opened: " + e.payload.label}),
          h("p", {text: secret(e, "contents") || ""})));
      });
      wrap.appendChild(h("section", {className: "ic-part", "aria-labelledby": "ic-handed-h"},
        h("h3", {id: "ic-handed-h", text: "Envelopes handed to you"}),
        handed.childNodes.length ? handed : h("p", {className: "muted", text: "None yet."})));
      var carry = [];
      var pe = s.perception_envelopes || {}, ce = s.contingency_envelopes || {};
      Object.keys(pe).forEach(function (k) { if (pe[k].holder === id) carry.push(["perception", k, pe[k].label, "sealed"]); });
      Object.keys(ce).forEach(function (k) {
        if (ce[k].holder === id) carry.push(["contingency", k, ce[k].label, ce[k].opened ? "opened" : ce[k].openable ? "you may open it now" : "sealed"]);
      });
      if (carry.length) wrap.appendChild(table(["Kind", "Envelope", "On the front", ""], carry, "Envelopes you carry"));
      var cools = (s.cooldowns || []).filter(function (x) { return x.perceiver === id; });
      if (cools.length) {
        wrap.appendChild(h("ul", {className: "timers", "aria-label": "Perception cooldowns"}, cools.map(function (x) {
          return h("li", {text: "Next check on " + nameOf(s, x.target) + " at " + x.until + " (" + left(x.due - ctx.obs.now) + " left)"});
        })));
      }
      var plain = without(c, ["number", "wake_due", "wakes_at", "name"]);
      ["knocked_out", "dead"].forEach(function (k) { if (!plain[k]) delete plain[k]; });
      wrap.appendChild(h("section", {className: "ic-part sheet", "aria-labelledby": "ic-sheet-" + id},
        h("h3", {id: "ic-sheet-" + id, text: "Your character: #" + c.number + " " + (c.name || id)}),
        c.wakes_at ? h("p", {className: "cooldown", text: "Knocked out: wakes at " + c.wakes_at}) : null,
        ctx.flat(plain)));
    });
    return wrap;
  }

  var lastCtx = null;
  function rerender(ctx) {
    var box = document.getElementById("console");
    if (!box) return;
    var keep = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
    box.textContent = "";
    box.appendChild(consoleOf(ctx));
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
  }

  function consoleOf(ctx) {
    lastCtx = ctx;
    if (!ctx.me.is_referee) return playerPanel(ctx);
    return h("div", {className: "intrigue-console"},
      h("h3", {className: "console-title", text: "Referee's console"}),
      badgeSearch(ctx), perceptionPanel(ctx), skillPanel(ctx), contingencyPanel(ctx), combatPanel(ctx));
  }

  // ------------------------------------------------------------------ the log
  function event(e, li, ctx) {
    remember(e);
    var s = (ctx.obs && ctx.obs.state) || {};
    if (e.kind === "perception.made") {
      li.appendChild(h("p", {className: "handover", text: handover(e, s)}));
      var inside = secret(e, "contents");
      if (inside) {
        Object.keys(inside).forEach(function (id) {
          li.appendChild(h("p", {className: "envelope", text: id + " reads: " + inside[id].contents +
            (inside[id].directions ? " — Directions: " + inside[id].directions : "")}));
        });
      }
      var cool = (s.cooldowns || []).filter(function (c) { return c.perceiver === e.payload.perceiver && c.target === e.payload.target; })[0];
      if (cool) li.appendChild(h("p", {className: "muted", text: "Cooldown: the next check on this target at " + cool.until + "."}));
    }
    // rolled dice kept in secret parts this seat may see (the perceiver's total, the referee's
    // card per envelope, an opposed roll's whole card)
    ["roll", "rolls"].forEach(function (name) {
      var v = secret(e, name);
      (Array.isArray(v) ? v : v ? [v] : []).forEach(function (c) { if (c && c.card === "roll") li.appendChild(ctx.rollCard(c)); });
    });
  }

  window.RefGames.intrigue = {board: board, console: consoleOf, event: event};
})();
