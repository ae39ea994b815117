// Zweihänder: its screens on the table page (see games/base.js for the hooks).
//   board:   the chase ladder (Escape and Pursuit Values, complications), the journey tracker
//            (days, stretches, terrain, weather, provisions), the social exchange (the GM's
//            secret Skills only on the GM's own page, because only the GM's observation holds
//            them), the session-end steps (Corruption, Order and Chaos, madness), the rest.
//   console: the d100 roller: a Skill, a Difficulty, an Assist Die, and the exact odds of each
//            outcome, criticals apart, asked of the server (POST /odds) as the fields change.
//   event:   a critical result marked; an exchange's results read against the Disposition.
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, table = B.table;

  // Complications seen in the log (chase.complication events), kept as the log is drawn.
  var seen = {last: 0, complications: []};
  function remember(e) {
    if (e.number != null && e.number <= seen.last) seen = {last: 0, complications: []};
    if (e.number != null) seen.last = e.number;
    if (e.kind === "chase.complication" && e.payload && e.payload.complication) seen.complications.push(e.text);
  }

  function title(text) { return h("h3", {text: text}); }

  function chaseBoard(c) {
    var wrap = h("section", {className: "zw-chase", "aria-label": "The chase"});
    wrap.appendChild(title("The chase — round " + c.round + (c.ended ? " (over: " + c.ended + ")" : "")));
    var parts = c.participants || {};
    var ids = c.ladder || Object.keys(parts);
    var most = 1;
    ids.forEach(function (id) { most = Math.max(most, Number(parts[id].value) || 0); });
    var ladder = h("ol", {className: "ladder", "aria-label": "The ladder, top rung first"});
    ids.forEach(function (id) {
      var x = parts[id];
      var what = x.side === "escapee" ? "Escape Value" : "Pursuit Value";
      var bar = h("span", {className: "rung-bar", "aria-hidden": "true"});
      bar.style.width = Math.max(4, Math.min(100, 100 * (Number(x.value) || 0) / most)).toFixed(0) + "%";
      var notes = [x.mode, x.status !== "in" ? x.status : "", x.caught ? "caught " + x.caught : "",
        x.tackled ? "tackled " + x.tackled : ""].filter(Boolean).join(", ");
      ladder.appendChild(h("li", {className: "rung " + x.side + (c.current === id ? " current" : "") +
          (x.status !== "in" ? " out" : "")},
        h("span", {className: "rung-who"}, h("strong", {text: id}), " ",
          h("span", {className: "badge", text: x.side}), c.current === id ? h("span", {className: "badge now", text: "acting"}) : null),
        h("span", {className: "rung-value", text: what + " " + x.value}),
        h("span", {className: "rung-track", "aria-hidden": "true"}, bar),
        h("span", {className: "muted rung-notes", text: notes + (x.moved ? "" : " · yet to move")})));
    });
    wrap.appendChild(ladder);
    wrap.appendChild(h("p", {className: "muted", text: "Escape rounds: " + c.escape_rounds +
      " · Takedown Difficulty " + c.takedown_difficulty + " · head start: " + c.head_start}));
    var comp = h("ul", {className: "zw-complications", "aria-label": "Complications"});
    seen.complications.forEach(function (t) { comp.appendChild(h("li", {text: t})); });
    wrap.appendChild(h("div", null, h("strong", {text: "Complications: "}),
      seen.complications.length ? comp : h("span", {className: "muted", text: "none yet"})));
    return wrap;
  }

  function journeyBoard(j) {
    var wrap = h("section", {className: "zw-journey", "aria-label": "The journey"});
    wrap.appendChild(title("The journey — day " + j.days + (j.ended ? " (arrived)" : ", " + j.phase)));
    var rows = (j.stretches || []).map(function (s, i) {
      var here = i === j.index && !j.ended;
      return [(here ? "▶ " : "") + s.name, s.length + ", " + s.days + " days",
        "terrain " + (s.terrain > 0 ? "+" : "") + s.terrain + "%", "threat " + s.threat,
        s.bad_weather ? "bad weather" : "fair", s.conveyed ? "conveyed" : "on foot"];
    });
    wrap.appendChild(table(["Stretch", "Length", "Terrain", "Threat", "Weather", "How"], rows, "Stretches of the journey"));
    wrap.appendChild(h("dl", {className: "kv"},
      h("dt", {text: "travellers"}), h("dd", {text: (j.travellers || []).join(", ")}),
      h("dt", {text: "provisions"}), h("dd", {text: j.provisions + " (" + j.provisions_per_day + " a day)"}),
      h("dt", {text: "encounters"}), h("dd", {text: String(j.encounters)}),
      h("dt", {text: "Toughness Tests left"}), h("dd", {text: String(j.toughness_tests_left)}),
      j.surprise ? h("dt", {text: "surprise"}) : null, j.surprise ? h("dd", {text: j.surprise}) : null));
    return wrap;
  }

  function exchangeBoard(x, ctx) {
    var wrap = h("section", {className: "zw-exchange", "aria-label": "The social exchange"});
    wrap.appendChild(title("Social exchange with " + x.npc + (x.ended ? " (ended)" : "")));
    var results = {};
    (x.results || []).forEach(function (r) { results[r[0]] = r[1]; });
    wrap.appendChild(h("dl", {className: "kv"},
      h("dt", {text: "disposition"}), h("dd", {text: x.disposition + " (" + x.npc_alignment + "-aligned, " + (x.npc_class || "no class") + ")"}),
      x.objectives ? h("dt", {text: "objectives"}) : null, x.objectives ? h("dd", {text: x.objectives}) : null,
      x.stakes ? h("dt", {text: "stakes"}) : null, x.stakes ? h("dd", {text: x.stakes}) : null));
    wrap.appendChild(table(["Participant", "Social Tactic Test"], (x.participants || []).map(function (p) {
      return [p, results[p] || ((x.tested || []).indexOf(p) >= 0 ? "tested" : "to test")];
    }), "Who has made their Social Tactic Test"));
    // only the GM's observation (and everyone's, once the exchange ends) holds the two Skills
    if (x.favourable || x.unfavourable) {
      wrap.appendChild(h("p", {className: "secret-note"}, h("strong", {text: x.ended ? "The GM's Skills: " : "Your secret Skills: "}),
        "Favourable " + x.favourable + ", Unfavourable " + x.unfavourable));
    } else if (!x.ended) {
      wrap.appendChild(h("p", {className: "muted", text: "The GM has chosen a Favourable and an Unfavourable Skill in secret: they are revealed when the exchange ends."}));
    }
    return wrap;
  }

  function sessionBoard(chars) {
    var ids = Object.keys(chars);
    var rows = ids.map(function (id) {
      var c = chars[id];
      return [id, c.peril_condition, c.damage_condition, c.corruption,
        "Order " + c.order_ranks + " / Chaos " + c.chaos_ranks, (c.disorders || []).join(", ") || null,
        c.reputation, c.fate_points];
    });
    return h("section", {className: "zw-session", "aria-label": "Characters and the session end"},
      table(["Character", "Peril", "Damage", "Corruption", "Ranks", "Disorders", "Reputation", "Fate"], rows,
        "Characters — at the session's end: Corruption, Order and Chaos Ranks, madness"));
  }

  function board(s, ctx) {
    var wrap = h("div", {className: "zw-board"});
    if (s.chase) wrap.appendChild(chaseBoard(s.chase));
    if (s.journey) wrap.appendChild(journeyBoard(s.journey));
    if (s.exchange) wrap.appendChild(exchangeBoard(s.exchange, ctx));
    wrap.appendChild(sessionBoard(s.characters || {}));
    wrap.appendChild(h("p", null, h("strong", {text: "Fortune Points: "}), String(s.fortune_points),
      h("span", {className: "muted", text: " · session " + s.session})));
    wrap.appendChild(window.RefTable.generic(without(s, ["chase", "journey", "exchange", "characters", "fortune_points", "session"])));
    return wrap;
  }

  // ---------------------------------------------------------------- the d100 roller
  var roller = {actor: null, skill: null, difficulty: null, assist: false};
  var asked = "";
  var lastOdds = null;

  function console_(ctx) {
    var tests = ctx.choices("test");
    if (!tests.length) return null;
    var actors = [];
    tests.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    if (actors.indexOf(roller.actor) < 0) roller.actor = actors[0];
    var mine = tests.filter(function (c) { return c.actor === roller.actor; });
    var skills = mine.map(function (c) { return c.params.skill.one_of[0]; });
    if (skills.indexOf(roller.skill) < 0) roller.skill = skills[0];
    var levels = (mine[0].params.difficulty || {}).one_of || ["Standard"];
    if (levels.indexOf(roller.difficulty) < 0) roller.difficulty = levels.indexOf("Standard") >= 0 ? "Standard" : levels[0];

    version = ctx.obs.version;
    var box = h("section", {className: "console zw-roller", "aria-labelledby": "zw-roller-h"});
    box.appendChild(h("h3", {id: "zw-roller-h", text: "d100 roller"}));
    var form = h("form", {className: "grid-form"});
    function select(id, label, values, value, key) {
      var sel = h("select", {id: id}, values.map(function (v) { return h("option", {value: v, text: v}); }));
      sel.value = value;
      sel.addEventListener("change", function () { roller[key] = sel.value; refresh(ctx, box); });
      return h("div", {className: "stack"}, h("label", {"for": id, text: label}), sel);
    }
    if (actors.length > 1) form.appendChild(select("zw-actor", "Who tests", actors, roller.actor, "actor"));
    form.appendChild(select("zw-skill", "Skill", skills, roller.skill, "skill"));
    form.appendChild(select("zw-difficulty", "Difficulty Rating", levels, roller.difficulty, "difficulty"));
    var assist = h("input", {type: "checkbox", id: "zw-assist"});
    assist.checked = roller.assist;
    assist.addEventListener("change", function () { roller.assist = assist.checked; refresh(ctx, box); });
    form.appendChild(h("div", {className: "check"}, assist, h("label", {"for": "zw-assist", text: "Assist Die (d10)"})));
    var odds = h("div", {id: "zw-odds", className: "odds-box", "aria-live": "polite"});
    form.appendChild(odds);
    form.appendChild(h("button", {type: "submit", id: "zw-roll", text: "Roll d100"}));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      ctx.act("test", roller.actor, params());
    });
    box.appendChild(form);
    if (lastOdds && lastOdds.key === key()) draw(odds, lastOdds.odds, ctx);
    refresh(ctx, box);
    return box;
  }

  function params() { return {skill: roller.skill, difficulty: roller.difficulty, assist: roller.assist}; }
  var version = -1;
  function key() { return JSON.stringify([version, roller.actor, params()]); }

  function refresh(ctx, box) {
    var k = key();
    if (asked === k && lastOdds && lastOdds.key === k) return;
    asked = k;
    ctx.odds("test", roller.actor, params()).then(function (list) {
      if (asked !== k) return;
      lastOdds = {key: k, odds: list};
      var el = box.querySelector("#zw-odds") || document.getElementById("zw-odds");
      if (el) draw(el, list, ctx);
    });
  }

  function draw(el, list, ctx) {
    el.textContent = "";
    (list || []).forEach(function (o) {
      var crit = Ref.fraction(o.odds["critical success"] || 0), fumble = Ref.fraction(o.odds["critical failure"] || 0);
      el.appendChild(h("div", {className: "roll"},
        h("div", null, h("strong", {text: o.label}), " ", h("span", {className: "muted", text: o.dice})),
        ctx.oddsChart(o.odds, null, "Odds of " + o.label),
        h("p", {className: "muted", text: "Critical success " + Ref.pct(crit) + " · critical failure " + Ref.pct(fumble)})));
    });
  }

  // ---------------------------------------------------------------- the log
  function event(e, li) {
    remember(e);
    var p = e.payload || {};
    var card = p.roll;
    if (card && /critical/.test(card.outcome || "")) li.classList.add("critical");
    if (e.kind === "exchange.started" && B.secret(e, "favourable")) {
      li.appendChild(h("div", {className: "secret-note", text: "Your secret Skills: Favourable " + B.secret(e, "favourable") +
        ", Unfavourable " + B.secret(e, "unfavourable")}));
    }
    if (e.kind === "exchange.tactic_tested" && p.result) {
      li.appendChild(h("div", {className: "muted", text: "Read as " + p.disposition_read_as + ": " + p.result}));
    }
  }

  window.RefGames.zweihander = {board: board, console: console_, event: event};
})();
