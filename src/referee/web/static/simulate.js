// "How deadly is this?": the referee's seat asks the server to play the table's main conflict
// many times from where it stands (GET /api/tables/{id}/simulate, the referee's alone) and
// sees who wins, with each estimate's 95% interval and the exact odds where a model gives them,
// as text and a bar chart. Any other seat never sees the section: it is only built once the
// server has said this seat is the referee's (and the server refuses every other seat anyway).
(function () {
  "use strict";
  var h = Ref.h;
  var id = document.body.dataset.table;
  if (!id) return;
  var base = "/api/tables/" + encodeURIComponent(id);
  var MAX_RUNS = 2000;

  function styles() {
    if (document.getElementById("sim-css")) return;
    document.head.appendChild(h("link", {id: "sim-css", rel: "stylesheet", href: "/static/simulate.css"}));
  }

  function pct(p) { return p == null || isNaN(p) ? "—" : Ref.pct(p); }
  function num(x) { return x == null || isNaN(x) ? "—" : (Math.round(x * 100) / 100).toString(); }
  var WORDS = {none: "nobody left standing", tie: "a tie", unfinished: "not over (step limit)"};
  function label(name) { return WORDS[name] || name.replace(/,/g, " and ").replace(/_/g, " "); }
  function clamp(p) { return Math.max(0, Math.min(100, p * 100)); }

  // One bar per outcome: the estimate (the fill), its 95% interval (the whisker) and the exact
  // odds where known (the mark), with the same figures in words for screen readers.
  function chart(rows, caption) {
    var list = h("ul", {className: "sim-chart", "aria-label": caption});
    rows.forEach(function (r) {
      var track = h("span", {className: "sim-track", "aria-hidden": "true"});
      if (r.est) {
        var fill = h("span", {className: "sim-fill"});
        fill.style.width = clamp(r.est.value).toFixed(1) + "%";
        var ci = h("span", {className: "sim-ci"});
        ci.style.left = clamp(r.est.low).toFixed(1) + "%";
        ci.style.width = Math.max(0.5, clamp(r.est.high) - clamp(r.est.low)).toFixed(1) + "%";
        track.appendChild(fill);
        track.appendChild(ci);
      }
      if (r.exact != null) {
        var mark = h("span", {className: "sim-exact"});
        mark.style.left = clamp(r.exact).toFixed(1) + "%";
        track.appendChild(mark);
      }
      var words = [];
      if (r.est) words.push(pct(r.est.value) + " [" + pct(r.est.low) + "–" + pct(r.est.high) + "]");
      if (r.exact != null) words.push("exact " + pct(r.exact));
      list.appendChild(h("li", {"data-outcome": r.name},
        h("span", {className: "sim-name", text: label(r.name)}),
        h("span", {className: "sim-pct", text: words.join(" · ")}),
        track));
    });
    return list;
  }

  function render(box, data) {
    box.textContent = "";
    var sim = data.simulation || {};
    var exact = data.exact;
    var rates = sim.win_rates || {};
    var names = Object.keys(rates);
    if (exact && exact.wins) Object.keys(exact.wins).forEach(function (n) { if (names.indexOf(n) < 0) names.push(n); });
    // an exact model's "both out" / "nobody" is the simulation's "none": nobody left standing
    var nobody = exact ? (exact.both_out || exact.none) : null;
    if (nobody && nobody.value > 0 && names.indexOf("none") < 0) names.push("none");
    var rows = names.map(function (n) {
      var known = exact && exact.wins && exact.wins[n] ? exact.wins[n].value : null;
      if (n === "none" && nobody) known = nobody.value;
      if (exact && known == null) known = 0;
      return {name: n, est: rates[n], exact: known};
    });
    rows.sort(function (a, b) {
      var x = a.exact != null ? a.exact : (a.est ? a.est.value : 0);
      var y = b.exact != null ? b.exact : (b.est ? b.est.value : 0);
      return y - x;
    });
    var top = rows[0];
    var head = h("p", {className: "sim-head", id: "sim-headline"});
    if (top) {
      head.appendChild(document.createTextNode("Most likely: " + label(top.name) + ", "));
      head.appendChild(h("strong", {text: pct(top.exact != null ? top.exact : top.est.value)}));
      head.appendChild(document.createTextNode(top.exact != null ? " (exact)." : " (estimated)."));
    }
    box.appendChild(head);
    var facts = h("ul", {className: "sim-facts"});
    facts.appendChild(h("li", {text: (sim.conflict ? sim.conflict[0].toUpperCase() + sim.conflict.slice(1) : "The conflict") +
      ", played " + sim.runs + " times" + (data.runs_asked && sim.runs < data.runs_asked ?
        (sim.stopped === "precision" ? " (of " + data.runs_asked + " asked: every 95% interval narrower than " + sim.precision + ")"
          : " (of " + data.runs_asked + " asked: the server's time ran out)") : "") +
      " through the rules, seed " + sim.seed + "."}));
    if (exact && exact.deaths) {
      var dead = Object.keys(exact.deaths).map(function (n) { return label(n) + " " + pct(exact.deaths[n].value); });
      facts.appendChild(h("li", {text: "Chance to die (exact): " + dead.join(", ") + "."}));
    } else if (sim.extra && sim.extra.deaths) {
      facts.appendChild(h("li", {text: "Deaths per encounter: " + num(sim.extra.deaths.value) + "."}));
    }
    if (sim.rounds) {
      var r = "Rounds: " + num(sim.rounds.value) + " [" + num(sim.rounds.low) + "–" + num(sim.rounds.high) + "]";
      if (exact && exact.expected_rounds) r += ", exact " + num(exact.expected_rounds.value);
      facts.appendChild(h("li", {text: r + "."}));
    }
    var hurt = Object.keys(sim.damage || {}).map(function (n) { return label(n) + " " + num(sim.damage[n].value); });
    if (hurt.length) facts.appendChild(h("li", {text: "Damage taken on average: " + hurt.join(", ") + "."}));
    if (sim.unfinished) facts.appendChild(h("li", {text: sim.unfinished + " encounters did not end within the step limit."}));
    box.appendChild(facts);
    box.appendChild(chart(rows, "Who wins: the estimate with its 95% interval" + (exact ? ", and the exact odds" : "")));
    if (exact && exact.expected_change) {
      var moved = Object.keys(exact.expected_change).map(function (n) {
        return label(n) + " " + num(exact.expected_change[n].value);
      });
      facts.appendChild(h("li", {text: "Disposition change expected (exact): " + moved.join(", ") + "."}));
    }
    if (!exact && data.exact_reason) facts.appendChild(h("li", {className: "muted", text: "No exact answer: " + data.exact_reason + "."}));
    box.appendChild(h("p", {className: "muted sim-key", text: exact
      ? "Bar: the simulation's estimate; whisker: its 95% interval; mark: the exact odds."
      : "Bar: the simulation's estimate; whisker: its 95% interval. No exact model for this conflict: these are estimates."}));
  }

  function build() {
    styles();
    var runs = h("input", {id: "sim-runs", type: "number", min: 1, max: MAX_RUNS, value: 300, inputmode: "numeric", required: true});
    var go = h("button", {type: "submit", id: "sim-go", text: "How deadly is this?"});
    var status = h("p", {id: "sim-status", className: "muted", role: "status", "aria-live": "polite"});
    var error = h("div", {id: "sim-error", className: "error", role: "alert"});
    var result = h("div", {id: "sim-result"});
    var precision = h("input", {id: "sim-precision", type: "number", min: 0.001, max: 1, step: "any", placeholder: "0.02", inputmode: "decimal"});
    var form = h("form", {className: "sim-form"},
      h("label", {"for": "sim-runs", text: "Encounters to play (1–" + MAX_RUNS + ")"}), runs,
      h("label", {"for": "sim-precision", text: "Stop sooner once every interval is narrower than (optional, 0–1)"}), precision, go);
    var section = h("section", {className: "panel", id: "sim-panel", "aria-labelledby": "sim-h"},
      h("h2", {id: "sim-h", text: "How deadly is this?"}),
      h("p", {className: "muted", text: "Plays this table's main conflict from where it stands, through the rules, many times over; the exact odds beside the estimates where a model gives them."}),
      form, status, error, result);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var n = Number(runs.value);
      if (!(n >= 1 && n <= MAX_RUNS && Math.floor(n) === n)) {
        error.textContent = "Encounters to play: a whole number from 1 to " + MAX_RUNS + ".";
        return;
      }
      var p = precision.value.trim();
      if (p !== "" && !(Number(p) > 0 && Number(p) <= 1)) {
        error.textContent = "Precision: a number above 0 and at most 1, or nothing.";
        return;
      }
      error.textContent = "";
      go.disabled = true;
      section.setAttribute("aria-busy", "true");
      var started = Date.now();
      status.textContent = "Working… playing " + n + " encounters.";
      var tick = setInterval(function () {
        status.textContent = "Working… playing " + n + " encounters (" + Math.round((Date.now() - started) / 1000) + " s).";
      }, 1000);
      Ref.api("GET", base + "/simulate?runs=" + n + (p !== "" ? "&precision=" + encodeURIComponent(p) : "")).then(function (res) {
        clearInterval(tick);
        go.disabled = false;
        section.removeAttribute("aria-busy");
        if (!res.ok) { status.textContent = ""; error.textContent = Ref.errorText(res); return; }
        status.textContent = "Done in " + ((Date.now() - started) / 1000).toFixed(1) + " s, at version " + res.data.version + ".";
        render(result, res.data);
      }, function () {
        clearInterval(tick);
        go.disabled = false;
        section.removeAttribute("aria-busy");
        status.textContent = "";
        error.textContent = "Could not reach the server.";
      });
    });
    var layout = document.querySelector(".layout");
    (layout || document.getElementById("main")).appendChild(section);
  }

  Ref.api("GET", base + "/seat").then(function (res) {
    var referee = !!(res.ok && res.data && res.data.is_referee);
    if (referee) build();
    document.body.dataset.simulate = referee ? "offered" : "not offered";
  });
})();
