// What the table page draws from the values it is given, as Preact vnodes, never from the page's
// own store: the odds box of a form and its words, the roll cards of an event (each once), the
// odds charts (the outcomes that matter), the generic state panel for a game without a Board of
// its own, and the fair-dice box (docs/fairness.md).
window.RefCards = (function () {
  "use strict";
  var P = window.preact, H = window.preactHooks;
  var h = P.h, Fragment = P.Fragment;
  var useState = H.useState;
  var F = window.RefForms, J = F.J, words = F.words;

  // ------------------------------------------------------------------ odds
  function oddsWords(list) {
    var first = (Array.isArray(list) ? list : list ? [list] : []).filter(function (o) { return o && o.odds; })[0];
    if (!first) return "";
    return "Odds now: " + Object.keys(first.odds).map(function (k) { return k + " " + Ref.pct(Ref.fraction(first.odds[k])); }).join(", ");
  }

  // The odds of the check this action would roll, with the fields as they stand. No aria-live
  // here: a push redraws it; the Choice announces an answer only after the person changed a field.
  function OddsBox(props) {
    var list = (Array.isArray(props.odds) ? props.odds : props.odds ? [props.odds] : []).filter(function (o) { return o && o.odds; });
    return h("div", {className: "odds-box"}, list.map(function (o, i) {
      return h("div", {key: i, className: "roll"},
        h("div", null, h("strong", null, "Odds: " + (o.label || "")), " ", h("span", {className: "muted"}, o.dice || "")),
        OddsChart(o.odds, null, "Odds of " + (o.label || props.label)));
    }));
  }

  // Every roll card of an event this seat may see, each once: in its public part, and in the
  // secret parts observe kept for this seat (the same card in both is drawn once, the fuller).
  function sameCard(c) { return J([c.label, c.rule, c.dice, c.faces, c.shown, c.outcome]); }
  function cardsOf(e) {
    var out = [], at = {};
    function one(r) {
      if (!r || r.card !== "roll") return;
      var k = sameCard(r);
      if (at[k] == null) { at[k] = out.length; out.push(r); }
      else if (!out[at[k]].odds && r.odds) out[at[k]] = r;
    }
    function take(v) { if (Array.isArray(v)) v.forEach(one); else one(v); }
    [e, e.payload || {}].forEach(function (src) { take(src.roll); take(src.rolls); });
    (e.secrets || []).forEach(function (part) { if (part) take(part.value); });
    return out;
  }

  // The margin only where the card's rule has one: a number (null or absent: none to show).
  function RollCard(c) {
    var margin = typeof c.margin === "number" && c.has_margin !== false;
    return h("div", {className: "roll"},
      h("div", null, h("strong", null, c.label), " ", h("span", {className: "muted"}, "(" + c.rule + ")")),
      h("div", null, h("span", {className: "dice"}, c.shown || (c.dice + " " + (c.faces || []).join(", "))),
        " → ", h("span", {className: "outcome"}, c.outcome),
        margin ? h("span", {className: "muted"}, " (margin " + c.margin + ")") : null),
      c.odds ? OddsChart(c.odds, c.outcome, "Odds it had, " + c.dice) : null);
  }

  // The outcomes that matter: at either end of a chart, a run of two or more rows each less
  // likely than 0.1% is one row ("7+", "2 or fewer"), marked if the outcome is among them.
  function significant(odds, hit) {
    var keys = Object.keys(odds || {}), p = keys.map(function (k) { return Ref.fraction(odds[k]); });
    var lo = 0, hi = keys.length, rows = [];
    while (hi - 1 > lo && p[hi - 1] < 0.001) hi--;
    while (lo < hi - 1 && p[lo] < 0.001) lo++;
    function run(a, b, label) {
      var t = 0, at = false;
      for (var i = a; i < b; i++) { t += p[i]; at = at || keys[i] === hit; }
      rows.push({k: label, p: t, text: String(t), hit: at});
    }
    var m;
    if (lo >= 2) { m = /^(\d+)(.*)$/.exec(keys[lo - 1]); run(0, lo, m ? m[1] + " or fewer" + m[2] : keys[lo - 1] + " or less"); } else lo = 0;
    var tail = keys.length - hi >= 2, end = tail ? hi : keys.length;
    for (var i = lo; i < end; i++) rows.push({k: keys[i], p: p[i], text: odds[keys[i]], hit: keys[i] === hit});
    if (tail) { m = /^(\d+)\+?(.*)$/.exec(keys[hi]); run(hi, keys.length, m ? m[1] + "+" + m[2] : keys[hi] + " or more"); }
    return rows;
  }

  function OddsChart(odds, hit, caption) {
    return h("ul", {className: "odds", "aria-label": caption}, significant(odds, hit).map(function (r) {
      var k = r.k, p = r.p;
      return h("li", {key: k, className: r.hit ? "hit" : null},
        h("span", null, k),
        h("span", {className: "track", "aria-hidden": "true"},
          h("span", {className: "fill", style: {width: Math.max(0, Math.min(100, p * 100)).toFixed(1) + "%"}})),
        h("span", {className: "pct", title: r.text}, Ref.pct(p)));
    }));
  }

  // The visible state as a readable panel, for a game without a Board of its own.
  function isGroup(v) {
    return v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length &&
      Object.keys(v).every(function (x) { return v[x] && typeof v[x] === "object" && !Array.isArray(v[x]); });
  }
  function Generic(s) {
    if (typeof s !== "object" || s === null) return h("p", null, Ref.show(s));
    var plain = [], groups = [];
    Object.keys(s).forEach(function (k) {
      var v = s[k];
      if (isGroup(v)) {
        groups.push(h(Fragment, {key: k}, h("h3", null, words(k)),
          h("div", {className: "state-grid"}, Object.keys(v).map(function (name) {
            return h("div", {key: name}, h("strong", null, v[name].name || name), Flat(v[name]));
          }))));
      } else if (v != null && !(Array.isArray(v) && !v.length)) {
        plain.push(h("dt", {key: k + ":t"}, words(k)), h("dd", {key: k + ":d"}, Ref.show(v)));
      }
    });
    return h("div", null, plain.length ? h("dl", {className: "kv"}, plain) : null, groups);
  }
  function Flat(o) {
    var rows = [];
    Object.keys(o).forEach(function (k) {
      var v = o[k];
      if (k === "id" || k === "name" || v == null || (Array.isArray(v) && !v.length) ||
          (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length)) return;
      rows.push(h("dt", {key: k + ":t"}, words(k)), h("dd", {key: k + ":d"}, Ref.show(v)));
    });
    return h("dl", {className: "kv"}, rows);
  }

  // ------------------------------------------------------------------ fair dice
  // Fair dice (docs/fairness.md): mix in a seed of one's own, reveal the seed (the referee, or
  // any seat in a game without one: ``mayReveal``), and check every die against the revealed
  // seed. props: {send(kind, actor, params, focusId) -> Promise<bool>, base (the table's API
  // path), mayReveal}.
  function FairDice(props) {
    var st = useState(""), seed = st[0], setSeed = st[1];
    var ot = useState(""), out = ot[0], setOut = ot[1];
    function mix() {
      if (!seed.trim()) { setOut("Type a seed first: any words or numbers."); return; }
      props.send("seed_dice", null, {seed: seed.trim()}, "mix-seed").then(function (ok) {
        if (ok) { setOut("Your seed is mixed into every die rolled from now on."); setSeed(""); }
      });
    }
    function reveal() {
      props.send("reveal_dice", null, {}, "reveal-seed").then(function (ok) {
        if (ok) setOut("The seed is revealed: anyone may now check every die rolled so far.");
      });
    }
    function check() {
      Ref.api("GET", props.base + "/verify").then(function (res) {
        if (!res.ok) { setOut(Ref.errorText(res)); return; }
        var v = res.data;
        setOut((v.ok ? "✓ " : "✗ ") + v.checked + " actions (" + v.dice + " dice) checked against the revealed seed, " +
          v.problems.length + " wrong; " + v.sealed + " actions wait for the seed to be revealed; " +
          v.choices + " sealed choices checked." + (v.problems.length ? " " + v.problems.join(" · ") : ""));
      });
    }
    return h("details", {className: "fair"}, h("summary", null, "Fair dice"),
      h("div", {className: "stack"},
        h("label", {"for": "seat-seed"}, "A dice seed of your own (optional)"),
        h("input", {id: "seat-seed", type: "text", maxlength: 200, autocomplete: "off", value: seed,
          onInput: function (ev) { setSeed(ev.target.value); }}),
        h("button", {type: "button", className: "ghost", id: "mix-seed", onClick: mix}, "Mix in my seed"),
        props.mayReveal
          ? h("button", {type: "button", className: "ghost", id: "reveal-seed", onClick: reveal}, "Reveal the dice seed") : null,
        h("button", {type: "button", className: "ghost", id: "verify", onClick: check}, "Check every die"),
        h("p", {id: "fair-result", role: "status", className: "muted"}, out)));
  }

  return {
    oddsWords: oddsWords, OddsBox: OddsBox, sameCard: sameCard, cardsOf: cardsOf, RollCard: RollCard,
    OddsChart: OddsChart, Generic: Generic, Flat: Flat, FairDice: FairDice
  };
})();
