// The table as this seat sees it. Everything shown comes from the API's observation for this
// seat (GET /api/tables/{id}, the answers to actions, and the WebSocket's messages).
(function () {
  "use strict";
  var h = Ref.h;
  var id = document.body.dataset.table;
  var base = "/api/tables/" + encodeURIComponent(id);
  ["a4", "letter"].forEach(function (paper) {
    var link = document.getElementById("handouts-" + paper);
    if (link) link.href = base + "/handouts?paper=" + paper;
  });
  var me = null;
  var obs = null;           // the last observation, events accumulated
  var lastNumber = 0;       // the number of the last event shown
  var socket = null, retry = 500;
  var logEl = document.getElementById("log");
  var refused = document.getElementById("refused");
  var conn = document.getElementById("conn");

  function start() {
    Ref.api("GET", base + "/seat").then(function (res) {
      if (!res.ok) {
        document.getElementById("title").textContent = "No seat at this table";
        refused.textContent = res.status === 401
          ? "This browser has no seat here: open your join link (ask the table's host)."
          : Ref.errorText(res);
        return null;
      }
      me = res.data;
      return Ref.api("GET", "/api/games").then(function (games) {
        (games.ok ? games.data : []).forEach(function (g) {
          if (g.name === me.system) refereeGame = !!g.has_referee;
        });
        return Ref.api("GET", base);
      });
    }).then(function (res) {
      if (!res) return;
      if (!res.ok) { refused.textContent = Ref.errorText(res); return; }
      apply(res.data, true);
      connect();
    });
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var url = scheme + location.host + base + "/live?since=" + obs.version +
      (obs.tag ? "&tag=" + encodeURIComponent(obs.tag) : "");
    socket = new WebSocket(url);
    socket.onopen = function () { retry = 500; conn.textContent = "Live."; document.body.dataset.live = "1"; };
    socket.onmessage = function (m) {
      var data = JSON.parse(m.data);
      if (data.type === "observation") apply(data, false);
      if (data.type === "observation") document.body.dataset.seen = String(performance.timeOrigin + performance.now());
    };
    socket.onclose = function (ev) {
      document.body.dataset.live = "0";
      if (ev.code === 4401) { conn.textContent = "This seat's link was revoked: ask for a new one."; return; }
      conn.textContent = "Reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  // ------------------------------------------------------------------ applying observations
  function apply(o, first) {
    var reset = first || o.reset;
    if (reset) { logEl.textContent = ""; lastNumber = 0; RefSeal.reset(); }
    var fresh = (o.events || []).filter(function (e) { return e.number == null || e.number > lastNumber; });
    obs = Object.assign({}, obs || {}, o);
    fresh.forEach(function (e) {
      logEl.appendChild(eventItem(e, !first));
      if (e.number != null) lastNumber = e.number;
    });
    if (fresh.length) logEl.scrollTop = logEl.scrollHeight;
    document.body.dataset.version = String(o.version);
    renderHeader();
    renderConsole();
    renderChoices();
    renderState();
  }

  function renderHeader() {
    document.getElementById("title").textContent = me.name || ((me.title || me.system) + " table");
    document.title = document.getElementById("title").textContent + " · Referee";
    document.getElementById("whoami").textContent = "You are " +
      (me.is_referee ? "the referee" : "seat " + me.seat + (me.plays.length ? ", playing " + me.plays.join(", ") : "")) +
      " · " + (me.title || me.system) + " · version " + obs.version;
    var moving = obs.to_move || [];
    document.getElementById("to-move").textContent = moving.length ? "To move: " + moving.join(", ") : "";
  }

  // ------------------------------------------------------------------ the log
  // Every roll card of an event this seat may see: in its public part, and in the secret parts
  // observe kept for this seat (a secret roll shows on the pages of those who may see it).
  function cardsOf(e) {
    var out = [];
    function take(v) {
      if (v && v.card === "roll") out.push(v);
      else if (Array.isArray(v)) v.forEach(function (r) { if (r && r.card === "roll") out.push(r); });
    }
    [e, e.payload || {}].forEach(function (src) { take(src.roll); take(src.rolls); });
    (e.secrets || []).forEach(function (part) { if (part) take(part.value); });
    return out;
  }

  function eventItem(e, isNew) {
    var li = h("li", {className: isNew ? "new" : null, "data-kind": e.kind},
      h("span", {className: "num", text: "#" + e.number}), h("span", {text: e.text || e.kind}));
    cardsOf(e).forEach(function (c) { li.appendChild(rollCard(c)); });
    RefSeal.see(e.payload).forEach(function (v) {
      var ok = v.verdict === "checked";
      li.appendChild(h("div", {className: "seal " + (ok ? "ok" : "bad"), "data-verdict": v.verdict,
        text: ok ? "✓ checked: " + v.choice + " is the choice that was sealed"
          : v.verdict === "MISMATCH" ? "✗ " + v.choice + " is NOT the choice that was sealed"
          : "? " + v.choice + ": its sealing is not in this page's log"}));
    });
    if (game().event) { try { game().event(e, li, context()); } catch (err) { /* the plain item stays */ } }
    return li;
  }

  function rollCard(c) {
    var box = h("div", {className: "roll"},
      h("div", null, h("strong", {text: c.label}), " ", h("span", {className: "muted", text: "(" + c.rule + ")"})),
      h("div", null, h("span", {className: "dice", text: c.shown || (c.dice + " " + (c.faces || []).join(", "))}),
        " → ", h("span", {className: "outcome", text: c.outcome}),
        c.margin != null ? h("span", {className: "muted", text: " (margin " + c.margin + ")"}) : null));
    if (c.odds) box.appendChild(oddsChart(c.odds, c.outcome, "Odds it had, " + c.dice));
    return box;
  }

  function oddsChart(odds, hit, caption) {
    var list = h("ul", {className: "odds", "aria-label": caption});
    Object.keys(odds).forEach(function (k) {
      var p = Ref.fraction(odds[k]);
      var fill = h("span", {className: "fill"});
      fill.style.width = Math.max(0, Math.min(100, p * 100)).toFixed(1) + "%";
      list.appendChild(h("li", {className: k === hit ? "hit" : null},
        h("span", {text: k}), h("span", {className: "track", "aria-hidden": "true"}, fill),
        h("span", {className: "pct", title: odds[k], text: Ref.pct(p)})));
    });
    return list;
  }

  // ------------------------------------------------------------------ actions
  var formCount = 0;
  function renderChoices() {
    var box = document.getElementById("choices");
    var open = {};
    box.querySelectorAll("details[open]").forEach(function (d) { open[d.dataset.key] = true; });
    var focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
    var picked = document.getElementById("act-as") ? document.getElementById("act-as").value : null;
    box.textContent = "";
    var choices = obs.choices || [];
    if (!choices.length) box.appendChild(h("p", {className: "muted", text: "Nothing for you to do right now."}));
    var actors = [];
    choices.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    if (actors.length > 1) {  // a referee acting for many: one actor's choices at a time
      if (actors.indexOf(picked) < 0 && picked !== "") picked = actors[0];
      var sel = h("select", {id: "act-as"}, h("option", {value: "", text: "everyone"}),
        actors.map(function (a) { return h("option", {value: a, text: a}); }));
      sel.value = picked;
      sel.addEventListener("change", function () { renderChoices(); document.getElementById("act-as").focus(); });
      box.appendChild(h("div", {className: "stack"}, h("label", {"for": "act-as", text: "Act as"}), sel));
    } else {
      picked = "";
    }
    choices.forEach(function (c, i) {
      if (!picked || c.actor === picked) box.appendChild(choiceForm(c, i, open));
    });
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    var undo = document.getElementById("undo-box");
    undo.textContent = "";
    if (me.is_referee || !hasReferee()) {
      var b = h("button", {type: "button", className: "ghost", id: "undo", text: "Undo the last action"});
      b.addEventListener("click", doUndo);
      if (obs.version > 0) undo.appendChild(b);
    }
    renderFairDice();
  }

  // Fair dice (docs/fairness.md): mix in a seed of one's own, reveal the seed (the referee, or
  // any seat in a game without one), and check every die against the revealed seed.
  function renderFairDice() {
    var box = document.getElementById("fair-dice");
    if (!box || box.dataset.built) return;
    box.dataset.built = "1";
    var out = h("p", {id: "fair-result", role: "status", className: "muted"});
    var seed = h("input", {id: "seat-seed", type: "text", maxlength: 200, autocomplete: "off"});
    var mix = h("button", {type: "button", className: "ghost", text: "Mix in my seed"});
    mix.addEventListener("click", function () {
      if (!seed.value.trim()) { out.textContent = "Type a seed first: any words or numbers."; return; }
      send("seed_dice", null, {seed: seed.value.trim()}, mix).then(function (ok) {
        if (ok) { out.textContent = "Your seed is mixed into every die rolled from now on."; seed.value = ""; }
      });
    });
    var check = h("button", {type: "button", className: "ghost", id: "verify", text: "Check every die"});
    check.addEventListener("click", function () {
      Ref.api("GET", base + "/verify").then(function (res) {
        if (!res.ok) { out.textContent = Ref.errorText(res); return; }
        var v = res.data;
        out.textContent = (v.ok ? "✓ " : "✗ ") + v.checked + " actions (" + v.dice + " dice) checked against the revealed seed, " +
          v.problems.length + " wrong; " + v.sealed + " actions wait for the seed to be revealed; " +
          v.choices + " sealed choices checked." + (v.problems.length ? " " + v.problems.join(" · ") : "");
      });
    });
    var parts = [h("label", {"for": "seat-seed", text: "A dice seed of your own (optional)"}), seed, mix];
    if (me.is_referee || !hasReferee()) {
      var reveal = h("button", {type: "button", className: "ghost", id: "reveal-seed", text: "Reveal the dice seed"});
      reveal.addEventListener("click", function () {
        send("reveal_dice", null, {}, reveal).then(function (ok) {
          if (ok) out.textContent = "The seed is revealed: anyone may now check every die rolled so far.";
        });
      });
      parts.push(reveal);
    }
    parts.push(check, out);
    box.appendChild(h("details", {className: "fair"}, h("summary", {text: "Fair dice"}),
      h("div", {className: "stack"}, parts)));
  }

  var refereeGame = true;   // whether the game has a referee seat (GET /api/games)
  function hasReferee() { return refereeGame; }

  function choiceForm(c, i, open) {
    c = Object.assign({}, c, {label: c.label || c.kind.replace(/[._]/g, " ")});
    var key = c.actor + "|" + c.kind + "|" + c.label;
    var prefix = "c" + i + "-";
    var form = h("form", {"data-kind": c.kind, "data-actor": c.actor});
    var names = Object.keys(c.params || {});
    names.forEach(function (name) { form.appendChild(field(prefix + name, name, c.params[name])); });
    // the odds of the check this action would roll, with the fields as they stand: first
    // those the choice carries, then the server's answer for the parameters chosen
    var oddsBox = h("div", {className: "odds-box", "aria-live": "polite"});
    showOdds(oddsBox, c.odds, c.label);
    form.appendChild(oddsBox);
    form.appendChild(h("button", {type: "submit", text: c.label}));
    form.addEventListener("submit", function (ev) { ev.preventDefault(); act(c, form, prefix); });
    var refresh = function () { previewOdds(c, prefix, oddsBox); };
    form.addEventListener("change", refresh);
    form.addEventListener("input", refresh);
    var details = h("details", {className: "choice", "data-key": key, open: !!open[key]},
      h("summary", {text: c.label + (me.plays.length === 1 && c.actor === me.plays[0] ? "" : " — " + c.actor)}), form);
    details.addEventListener("toggle", function () { if (details.open) refresh(); });
    if (open[key]) refresh();
    return details;
  }

  function showOdds(box, odds, label) {
    box.textContent = "";
    (Array.isArray(odds) ? odds : odds ? [odds] : []).forEach(function (o) {
      if (!o || !o.odds) return;
      box.appendChild(h("div", {className: "roll"},
        h("div", null, h("strong", {text: "Odds: " + (o.label || "")}), " ",
          h("span", {className: "muted", text: o.dice || ""})),
        oddsChart(o.odds, null, "Odds of " + (o.label || label))));
    });
  }

  // POST /odds for the form's parameters, at most one request in flight per form: the last
  // answer to arrive for the latest parameters wins.
  var pending = {};
  function previewOdds(c, prefix, box) {
    var params = {};
    try {
      Object.keys(c.params || {}).forEach(function (n) { params[n] = valueOf(prefix, n, c.params[n]); });
    } catch (e) { return; }
    var ask = JSON.stringify({kind: c.kind, actor: c.actor, params: params});
    if (pending[prefix] === ask) return;
    pending[prefix] = ask;
    Ref.api("POST", base + "/odds", JSON.parse(ask)).then(function (res) {
      if (pending[prefix] !== ask) return;
      delete pending[prefix];
      if (res.ok) showOdds(box, res.data.odds, c.label);
    }, function () { delete pending[prefix]; });
  }

  function field(fid, name, dom) {
    var label = name.replace(/_/g, " ");
    if (dom.one_of) {
      var sel = h("select", {id: fid, name: name});
      dom.one_of.forEach(function (v, j) { sel.appendChild(h("option", {value: String(j), text: Ref.show(v)})); });
      return h("div", {className: "stack"}, h("label", {"for": fid, text: label}), sel);
    }
    if (dom.between) {
      var lo = dom.between[0], hi = dom.between[1];
      return h("div", {className: "stack"}, h("label", {"for": fid, text: label + " (" + lo + " to " + hi + ")"}),
        h("input", {id: fid, name: name, type: "number", min: lo, max: hi, value: lo, required: true, inputmode: "numeric"}));
    }
    if ("low" in dom && "high" in dom) {
      return field(fid, name, {between: [dom.low, dom.high]});
    }
    if (dom.some_of) {
      var fs = h("fieldset", {id: fid}, h("legend", {text: label +
        (dom.least ? " (at least " + dom.least + ")" : "") + (dom.most ? " (at most " + dom.most + ")" : "")}));
      dom.some_of.forEach(function (v, j) {
        var cid = fid + "-" + j;
        fs.appendChild(h("div", {className: "check"}, h("input", {type: "checkbox", id: cid, value: String(j)}),
          h("label", {"for": cid, text: Ref.show(v)})));
      });
      return fs;
    }
    return h("div", {className: "stack"}, h("label", {"for": fid, text: label}),
      h("input", {id: fid, name: name, type: "text", maxlength: dom.max_length || 500,
        value: typeof dom.text === "string" ? dom.text : null}));
  }

  function valueOf(prefix, name, dom) {
    var el = document.getElementById(prefix + name);
    if (dom.one_of) return dom.one_of[Number(el.value)];
    if (dom.between || ("low" in dom && "high" in dom)) return Number(el.value);
    if (dom.some_of) {
      var out = [];
      el.querySelectorAll("input:checked").forEach(function (x) { out.push(dom.some_of[Number(x.value)]); });
      return out;
    }
    return el.value;
  }

  function act(c, form, prefix) {
    var params = {};
    Object.keys(c.params || {}).forEach(function (n) { params[n] = valueOf(prefix, n, c.params[n]); });
    return send(c.kind, c.actor, params, form.querySelector("button[type=submit]"));
  }

  // Take an action on the version this page shows; the answer (or the refusal) is shown. The
  // promise says whether it was taken.
  function send(kind, actor, params, button) {
    refused.textContent = "";
    if (button) button.disabled = true;
    return Ref.api("POST", base + "/actions", {kind: kind, params: params, version: obs.version, actor: actor})
      .then(function (res) {
        if (button) button.disabled = false;
        if (res.ok) { apply(res.data, false); return true; }
        if (res.status === 409) {
          refused.textContent = "The table moved on while you chose: look again, then choose again.";
          return Ref.api("GET", base).then(function (r) { if (r.ok) apply(r.data, true); return false; });
        }
        refused.textContent = "Refused: " + Ref.errorText(res);
        refused.setAttribute("tabindex", "-1");
        return false;
      }, function () {
        if (button) button.disabled = false;
        refused.textContent = "Could not reach the server.";
        return false;
      });
  }

  function doUndo() {
    refused.textContent = "";
    Ref.api("POST", base + "/undo", {version: obs.version}).then(function (res) {
      if (res.ok) apply(res.data, true);
      else refused.textContent = "Refused: " + Ref.errorText(res);
    });
  }

  // ------------------------------------------------------------------ the visible state
  function game() { return (window.RefGames && window.RefGames[me.system]) || {}; }

  function renderState() {
    var box = document.getElementById("state");
    box.textContent = "";
    var s = obs.state;
    if (s == null) return;
    if (game().board) {
      try { box.appendChild(game().board(s, context())); return; } catch (e) { box.textContent = ""; }
    }
    box.appendChild(generic(s));
  }

  // A game's own tools over "Your move" (a perception check, a sealed slip, a tagging roll…).
  function renderConsole() {
    var box = document.getElementById("console");
    if (!box || !game().console) return;
    var keep = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
    var el = null;
    try { el = game().console(context()); } catch (e) { el = null; }
    box.textContent = "";
    if (el) box.appendChild(el);
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
  }

  // What a game's screens may use: the seat's own observation, and the same calls the forms make.
  function context() {
    return {
      obs: obs, me: me, h: h, generic: generic, flat: flat, oddsChart: oddsChart, rollCard: rollCard,
      act: function (kind, actor, params) { return send(kind, actor, params, null); },
      odds: function (kind, actor, params) {
        return Ref.api("POST", base + "/odds", {kind: kind, actor: actor, params: params || {}})
          .then(function (res) { return res.ok ? res.data.odds : []; });
      },
      choices: function (kind, actor) {
        return (obs.choices || []).filter(function (c) {
          return (!kind || c.kind === kind) && (!actor || c.actor === actor);
        });
      }
    };
  }

  function generic(s) {
    if (typeof s !== "object" || s === null) return h("p", {text: Ref.show(s)});
    var wrap = h("div");
    var kv = h("dl", {className: "kv"});
    Object.keys(s).forEach(function (k) {
      var v = s[k];
      if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length &&
          Object.keys(v).every(function (x) { return v[x] && typeof v[x] === "object" && !Array.isArray(v[x]); })) {
        wrap.appendChild(h("h3", {text: k.replace(/_/g, " ")}));
        var grid = h("div", {className: "state-grid"});
        Object.keys(v).forEach(function (name) {
          grid.appendChild(h("div", null, h("strong", {text: v[name].name || name}), flat(v[name])));
        });
        wrap.appendChild(grid);
      } else if (v != null && !(Array.isArray(v) && !v.length)) {
        kv.appendChild(h("dt", {text: k.replace(/_/g, " ")}));
        kv.appendChild(h("dd", {text: Ref.show(v)}));
      }
    });
    if (kv.childNodes.length) wrap.insertBefore(kv, wrap.firstChild);
    return wrap;
  }

  function flat(o) {
    var kv = h("dl", {className: "kv"});
    Object.keys(o).forEach(function (k) {
      var v = o[k];
      if (k === "id" || k === "name" || v == null || (Array.isArray(v) && !v.length) ||
          (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length)) return;
      kv.appendChild(h("dt", {text: k.replace(/_/g, " ")}));
      kv.appendChild(h("dd", {text: Ref.show(v)}));
    });
    return kv;
  }

  window.RefTable = {generic: generic, flat: flat, context: function () { return context(); }};
  start();
})();
