// Burning Kingdoms: its screens on the table page (see games/base.js for the hooks).
// Each faction's private screen (console): its disposition, artha and scene economy, and the
// sealed slip form with the odds of its own pool as the fields change. The shared board: the
// dispositions over the chronicle, and the latest reveal — the slips, each engagement with its
// odds by artha choice, each faction's roll and what it did with its artha, the resolution.
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, table = B.table;

  // Every event this page has been shown, in order (see games/intrigue.js).
  var seen = [];
  function remember(e) {
    if (e.number == null) return;
    seen = seen.filter(function (x) { return x.number < e.number; });
    seen.push(e);
  }
  function successes(n) { return n + (n === 1 ? " success" : " successes"); }
  function artha(a) { return a ? "Fate " + a.fate + " · Persona " + a.persona + " · Deeds " + a.deeds : "—"; }
  function slipWords(x) {
    if (!x) return "—";
    var t = (x.targets || []).length ? " → " + x.targets.join(" and ") : "";
    var extra = [];
    if (x.persona) extra.push(x.persona + " Persona");
    if (x.deeds_before) extra.push("Deeds");
    if ((x.forks || []).length) extra.push("FoRKs " + x.forks.join(", "));
    if (x.defence) extra.push(x.defence + " dice to defence");
    if (x.downtime) extra.push(x.downtime + " to downtime");
    if (x.helps) extra.push("helps " + x.helps);
    return x.maneuver + " with " + x.skill + t + (extra.length ? " (" + extra.join("; ") + ")" : "");
  }

  // ------------------------------------------------------------------ the shared board
  function board(s, ctx) {
    var wrap = h("div", {className: "kingdoms"});
    wrap.appendChild(dispositions(s));
    var reveal = revealPanel(s, ctx);
    if (reveal) wrap.appendChild(reveal);
    var rest = without(s, ["factions", "slips", "history", "rolls", "tie_offers", "void", "scenes"]);
    wrap.appendChild(h("details", {className: "more"}, h("summary", {text: "Everything else on the table"}), ctx.generic(rest)));
    return wrap;
  }

  function dispositions(s) {
    var f = s.factions || {}, hist = s.history || [];
    var top = Math.max.apply(null, [s.cap || 1].concat(Object.keys(f).map(function (id) { return f[id].disposition; })));
    var heads = ["Faction", "Start"].concat(hist.map(function (x) { return "After " + x.maneuver; }), ["Now", ""]);
    var rows = Object.keys(f).map(function (id) {
      var x = f[id];
      var bar = h("span", {className: "dispo", "aria-hidden": "true"}, h("span", {className: "fill"}));
      bar.firstChild.style.width = Math.max(0, Math.min(100, 100 * x.disposition / top)).toFixed(1) + "%";
      return [(x.name || id) + (x.leader ? " (" + x.leader.name + ")" : "")].concat(
        [x.starting_disposition], hist.map(function (m) { return (m.dispositions || {})[id]; }),
        [h("strong", {text: String(x.disposition)}), x.out ? "out" : bar]);
    });
    return table(heads, rows, "Dispositions over the chronicle (maneuver " + s.maneuver + ", " + s.phase + ")");
  }

  function since(kind) {   // the latest event of ``kind`` and everything after it
    for (var i = seen.length - 1; i >= 0; i--) if (seen[i].kind === kind) return seen.slice(i);
    return [];
  }

  function revealPanel(s, ctx) {
    var after = since("slips.revealed");
    if (!after.length) return null;
    var rev = after[0].payload;
    var part = h("section", {className: "reveal", "aria-labelledby": "bk-reveal-h"},
      h("h3", {id: "bk-reveal-h", text: "The reveal of maneuver " + rev.maneuver_number + " (read by " + rev.reader + ")"}));
    part.appendChild(table(["Faction", "Slip", ""], (rev.order || []).map(function (fid) {
      return [fid, slipWords((rev.slips || {})[fid]), (rev.void || {})[fid] ? "void: " + rev.void[fid] :
        (rev.cannot_act || []).indexOf(fid) >= 0 ? "cannot act" : ""];
    }), "The slips, in seat order"));
    var odds = rev.odds || [];
    if (odds.length) {
      var list = h("div", {className: "engagements"});
      odds.forEach(function (o) {
        var against = o.kind === "versus" ? o.dice + "D against " + o.target + "'s " + o.against_dice + "D" :
          o.dice + "D against Ob " + o.obstacle + (o.needed != null && o.needed !== o.obstacle ? " (needs " + o.needed + ")" : "");
        var title = o.attacker + (o.target ? " → " + o.target : "") + " · " + o.kind + (o.cell && o.cell !== "-" ? " (" + o.cell + ")" : "");
        list.appendChild(h("div", {className: "roll"}, h("div", null, h("strong", {text: title}), " ",
          h("span", {className: "muted", text: against})),
          ctx.oddsChart(o.chance || {}, null, "Chance of " + title + ", by artha spent after the roll")));
      });
      part.appendChild(h("h4", {text: "Engagements and their odds, by artha choice"}));
      part.appendChild(list);
    }
    // each faction's roll and what it did with its artha after it
    var rolled = {}, choice = {};
    after.forEach(function (e) {
      var p = e.payload || {};
      if (e.kind === "test.rolled") rolled[p.faction] = p.dice + "D: " + successes(p.successes) +
        (p.attack != null ? ", attack " + p.attack : "") + ((p.notes || []).length ? " (" + p.notes.join("; ") + ")" : "");
      if (e.kind === "artha.spent") choice[p.faction] = "spent " + [p.fate ? "Fate" : "", p.deeds ? "Deeds" : ""].filter(Boolean).join(" + ") +
        " → " + successes(p.successes != null ? p.successes : p.attack);
      if (e.kind === "roll.kept") choice[p.faction] = "kept the roll";
      if (e.kind === "tie_break.rolled") Object.keys(p.extra || {}).forEach(function (fid) {
        choice[fid] = (choice[fid] ? choice[fid] + "; " : "") + "tie-breaker +" + p.extra[fid];
      });
    });
    var waiting = s.phase === "rolled";
    part.appendChild(table(["Faction", "Rolled", "Artha after the roll"], Object.keys(rolled).map(function (fid) {
      var r = (s.rolls || {})[fid];
      return [fid, rolled[fid], choice[fid] || (waiting && r && !r.decided ? "deciding…" : "none to spend: the roll stands")];
    }), "Each faction's roll and artha choice"));
    var resolved = after.filter(function (e) { return e.kind === "maneuver.resolved"; })[0];
    if (resolved) {
      var eng = (resolved.payload.engagements || []).map(function (e) {
        return [e.attacker + (e.target ? " → " + e.target : ""), e.maneuver + " (" + e.kind + ")",
          e.successes + (e.kind === "versus" ? " vs " + e.defence : " vs Ob " + e.obstacle),
          e.success ? "success, net " + e.net : "failure"];
      });
      part.appendChild(table(["Engagement", "Maneuver", "Successes", "Result"], eng, "The resolution"));
      var told = after.filter(function (e) { return ["effect.applied", "conqueror.named", "chronicle.won", "maneuver.ended"].indexOf(e.kind) >= 0; });
      part.appendChild(h("ol", {className: "narrated", "aria-label": "The resolution narrated"},
        told.map(function (e) { return h("li", {text: e.text || e.kind}); })));
    }
    return part;
  }

  // ------------------------------------------------------------------ a faction's screen
  var kept = {};   // the slip form's fields across redraws

  function factionPanel(fid, ctx) {
    var s = ctx.obs.state || {}, x = (s.factions || {})[fid];
    if (!x) return null;
    var part = h("section", {className: "bk-faction", "aria-labelledby": "bk-f-" + fid},
      h("h3", {id: "bk-f-" + fid, text: "Your faction: " + (x.name || fid) + (x.leader ? ", led by " + x.leader.name : "")}));
    var kv = h("dl", {className: "kv"});
    function pair(k, v) { kv.appendChild(h("dt", {text: k})); kv.appendChild(h("dd", {text: v})); }
    pair("Disposition", x.disposition + " (started at " + x.starting_disposition + "; cap " + s.cap + ")");
    pair("Artha", artha(x.leader && x.leader.artha));
    if (x.second) pair("2iC artha", artha(x.second.artha));
    pair("Maneuver", s.maneuver + " — " + s.phase);
    var mine = (s.scenes || []).filter(function (sc) { return sc.faction === fid; });
    pair("Scenes played", mine.length ? mine.map(function (sc) { return sc.kind; }).join(", ") : "none yet");
    var open = ctx.choices("scene", fid).map(function (c) { return c.label.replace(/^play (an?) /, ""); });
    pair("Scenes left", (s.passed || []).indexOf(fid) >= 0 ? "passed" : open.length ? open.join(", ") : "—");
    if ((x.assessed || []).length) pair("Assessed", x.assessed.join(", "));
    if (Object.keys(x.infiltrated || {}).length) pair("Infiltrated", Object.keys(x.infiltrated).join(", "));
    if (x.sapped) pair("Sapped", x.sapped + "D");
    var r = (s.rolls || {})[fid];
    if (r) pair("This maneuver's roll", successes(r.successes) + (r.decided ? " (settled)" : " — keep it or spend artha below"));
    part.appendChild(kv);
    var slip = (s.slips || {})[fid];
    if (slip) {
      part.appendChild(h("div", {className: "sealed", id: "bk-sealed-" + fid, role: "status", tabindex: "-1"},
        h("strong", {text: "Sealed slip: "}), slipWords(slip),
        h("p", {className: "muted", text: s.phase === "maneuver" ? "Only your faction sees it until the reveal." : "Revealed."})));
    }
    var form = slipForm(fid, ctx, !!slip);
    if (form) part.appendChild(form);
    return part;
  }

  function slipForm(fid, ctx, sealed) {
    var offers = ctx.choices("write_slip", fid);
    if (!offers.length) return null;
    var k = kept[fid] = kept[fid] || {};
    var pre = "bk-" + fid + "-";
    var names = offers.map(function (c) { return c.params.maneuver.one_of[0]; });
    if (names.indexOf(k.maneuver) < 0) k.maneuver = names[0];
    var choice = offers[names.indexOf(k.maneuver)];
    var form = h("form", {className: "slip", "aria-labelledby": pre + "h"},
      h("h4", {id: pre + "h", text: sealed ? "Rewrite the sealed slip" : "Write the sealed slip"}));
    var man = h("select", {id: pre + "maneuver"}, names.map(function (n) { return h("option", {value: n, text: n}); }));
    man.value = k.maneuver;
    man.addEventListener("change", function () { k.maneuver = man.value; redraw(ctx); });
    form.appendChild(h("div", {className: "stack"}, h("label", {"for": pre + "maneuver", text: "Maneuver"}), man));
    var getters = {};
    Object.keys(choice.params).forEach(function (name) {
      if (name === "maneuver") return;
      var dom = choice.params[name], id = pre + name, label = name.replace(/_/g, " ");
      if (dom.one_of) {
        var sel = h("select", {id: id}, dom.one_of.map(function (v) { return h("option", {value: String(v), text: String(v)}); }));
        if (k[name] != null && dom.one_of.map(String).indexOf(String(k[name])) >= 0) sel.value = String(k[name]);
        form.appendChild(h("div", {className: "stack"}, h("label", {"for": id, text: label}), sel));
        getters[name] = function () { return dom.one_of[sel.selectedIndex]; };
      } else if (dom.between) {
        var num = h("input", {id: id, type: "number", min: dom.between[0], max: dom.between[1], inputmode: "numeric",
          value: k[name] != null ? k[name] : dom.between[0]});
        form.appendChild(h("div", {className: "stack"}, h("label", {"for": id, text: label + " (" + dom.between[0] + " to " + dom.between[1] + ")"}), num));
        getters[name] = function () { return Number(num.value); };
      } else if (dom.some_of) {
        var fs = h("fieldset", {id: id}, h("legend", {text: label + (dom.least === dom.most && dom.most ? " (" + dom.most + ")" : dom.most ? " (at most " + dom.most + ")" : "")}));
        dom.some_of.forEach(function (v, j) {
          var cid = id + "-" + j;
          var box = h("input", {type: "checkbox", id: cid, value: String(j)});
          if ((k[name] || []).indexOf(v) >= 0) box.checked = true;
          fs.appendChild(h("div", {className: "check"}, box, h("label", {"for": cid, text: String(v)})));
        });
        form.appendChild(fs);
        getters[name] = function () {
          var out = [];
          fs.querySelectorAll("input:checked").forEach(function (b) { out.push(dom.some_of[Number(b.value)]); });
          return out;
        };
      }
    });
    function params() {
      var p = {maneuver: k.maneuver};
      Object.keys(getters).forEach(function (n) { p[n] = getters[n](); k[n] = p[n]; });
      return p;
    }
    var odds = h("div", {className: "odds-box", id: pre + "odds", "aria-live": "polite"});
    var button = h("button", {type: "submit", id: pre + "seal", text: sealed ? "Seal the new slip" : "Seal the slip"});
    form.appendChild(odds);
    form.appendChild(button);
    function refresh() {
      var p = params(), ask = JSON.stringify(p);
      ctx.odds("write_slip", fid, p).then(function (list) {
        if (JSON.stringify(params()) !== ask) return;
        odds.textContent = "";
        if (!list.length) { odds.appendChild(h("p", {className: "muted", text: "The rules would refuse this slip as it stands."})); return; }
        list.forEach(function (o) {
          odds.appendChild(h("div", {className: "roll"}, h("div", null, h("strong", {text: "Odds: " + o.label}), " ",
            h("span", {className: "muted", text: o.dice})), ctx.oddsChart(o.odds, null, "Odds of " + o.label)));
        });
      });
    }
    form.addEventListener("change", refresh);
    form.addEventListener("input", refresh);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      ctx.act("write_slip", fid, params()).then(function (taken) {
        if (!taken) return;
        var el = document.getElementById("bk-sealed-" + fid);
        if (el) el.focus();
      });
    });
    refresh();
    return form;
  }

  function redraw(ctx) {
    var box = document.getElementById("console");
    if (!box) return;
    var keep = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
    box.textContent = "";
    box.appendChild(consoleOf(window.RefTable.context()));
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
  }

  function consoleOf(ctx) {
    var wrap = h("div", {className: "kingdoms-console"});
    ctx.me.plays.forEach(function (fid) { var p = factionPanel(fid, ctx); if (p) wrap.appendChild(p); });
    return wrap.childNodes.length ? wrap : null;
  }

  function event(e, li, ctx) {
    remember(e);
    if (e.kind === "slip.written") {
      var slip = (e.secrets || []).filter(function (x) { return x.name === "slip"; })[0];
      li.appendChild(h("p", {className: "sealed-note", text: slip ? "Your sealed slip: " + slipWords(slip.value) :
        "A slip sealed: its contents stay hidden until the reveal."}));
    }
    if (e.kind === "slips.revealed") {
      (e.payload.odds || []).forEach(function (o) {
        li.appendChild(ctx.oddsChart(o.chance || {}, null, "Chance " + o.attacker + (o.target ? " → " + o.target : "") + ", by artha"));
      });
    }
  }

  window.RefGames.kingdoms = {board: board, console: consoleOf, event: event};
})();
