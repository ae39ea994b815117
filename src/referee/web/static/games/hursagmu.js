// Hursagmu: its screens on the table page (see games/base.js for the hooks).
//   board:   the round planner: every declared step of every combatant on one initiative
//            timeline (highest first), whose step is next, steps done struck through, haste
//            (a step with no initiative of its own), waits, holds, pushed power, the attack
//            pending; then each combatant's row.
//   console: the seat's quick moves — take the next declared step (with its odds), wait, hold
//            the action over, push power — each the same action the forms below take.
//   event:   a secret roll (the thief's sneak, the Master's perception) marked as such.
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, table = B.table;

  function stepText(st) {
    var what = st.kind;
    if (st.kind === "attack") what = "attack " + (st.target || "") + (st.skill ? " (" + st.skill + ")" : "");
    else if (st.kind === "defend") what = "defend" + (st.skill ? " (" + st.skill + ")" : "");
    else if (st.kind === "move") what = (st.movement || "move") + (st.yards ? " " + st.yards + " yd" : "");
    else if (st.kind === "task") what = "task " + (st.name || st.skill || "");
    else if (st.kind === "haste") what = "haste";
    return what;
  }

  function board(s) {
    var chars = s.characters || {};
    var ids = Object.keys(chars);
    var onTurn = s.on_turn || [];
    var wrap = h("div", {className: "hg-board"});
    wrap.appendChild(h("h3", {text: "Round " + s.round + ", " + s.phase + " phase"}));
    wrap.appendChild(h("p", {className: "hg-next", id: "hg-next"}, h("strong", {text: "Next: "}),
      onTurn.length ? onTurn.join(", ") : (s.phase === "initiative" ? "everyone rolls Initiative" : "nobody")));
    if (s.pending) {
      wrap.appendChild(h("p", {className: "secret-note", text: "Attack pending: " + s.pending.attacker + " → " + s.pending.target +
        " (" + s.pending.skill + "); " + s.pending.target + " must defend or take it"}));
    }
    // the timeline: every step with an initiative, highest first
    var steps = [];
    ids.forEach(function (id) {
      var c = chars[id];
      (c.plan || []).forEach(function (st, i) {
        steps.push({who: id, step: st, index: i, done: i < (c.next_step || 0), next: i === (c.next_step || 0) && onTurn.indexOf(id) >= 0});
      });
    });
    steps.sort(function (a, b) {
      var x = a.step.initiative == null ? 1e9 : a.step.initiative, y = b.step.initiative == null ? 1e9 : b.step.initiative;
      return y - x || a.index - b.index;
    });
    var line = h("ol", {className: "hg-timeline", "aria-label": "The round's declared steps, by initiative"});
    steps.forEach(function (x) {
      var at = x.step.initiative == null ? "haste" : String(x.step.initiative);
      line.appendChild(h("li", {className: "hg-step" + (x.done ? " done" : "") + (x.next ? " next" : "") + " kind-" + x.step.kind},
        h("span", {className: "hg-at", text: at}),
        h("span", null, h("strong", {text: x.who}), ": " + stepText(x.step)),
        x.next ? h("span", {className: "badge now", text: "next"}) : null,
        x.done ? h("span", {className: "sr-only", text: " (done)"}) : null));
    });
    wrap.appendChild(steps.length ? line : h("p", {className: "muted", text: "No step declared yet this round."}));
    ids.sort(function (a, b) { return (chars[b].initiative == null ? -99 : chars[b].initiative) - (chars[a].initiative == null ? -99 : chars[a].initiative); });
    var rows = ids.map(function (id) {
      var c = chars[id];
      var marks = [c.waiting ? "waiting" : "", c.holding ? "holding" : "", c.pushed ? "pushed " + c.pushed : "",
        c.surprised ? "surprised" : "", c.asleep ? "asleep" : "", c.conscious ? "" : "unconscious", c.acted ? "acted" : ""].filter(Boolean);
      return [id, c.initiative == null ? null : c.initiative + (c.stance ? " (" + c.stance + ")" : ""),
        c.hits + " / " + c.stamina, c.penalty ? String(c.penalty) : null, marks.join(", ") || null];
    });
    wrap.appendChild(table(["Combatant", "Initiative", "Hits", "Penalty", "State"], rows, "Combatants, by initiative"));
    wrap.appendChild(window.RefTable.generic(without(s, ["characters", "round", "phase", "on_turn", "pending"])));
    return wrap;
  }

  var pushHits = 1;
  function console_(ctx) {
    var picks = ["act", "wait", "hold", "push"];
    var offered = ctx.choices().filter(function (c) { return picks.indexOf(c.kind) >= 0; });
    if (!offered.length) return null;
    var box = h("section", {className: "console hg-quick", "aria-labelledby": "hg-quick-h"});
    box.appendChild(h("h3", {id: "hg-quick-h", text: "Quick moves"}));
    var list = h("div", {className: "hg-buttons"});
    offered.forEach(function (c, i) {
      var id = "hg-" + c.kind + "-" + c.actor;
      if (c.kind === "push") {
        var hi = c.params.hits.between ? c.params.hits.between[1] : 1;
        pushHits = Math.min(Math.max(1, pushHits), hi);
        var n = h("input", {type: "number", id: id + "-hits", min: 1, max: hi, value: pushHits, inputmode: "numeric"});
        n.addEventListener("input", function () { pushHits = Number(n.value) || 1; });
        var b = h("button", {type: "button", id: id, text: "Push power (" + c.actor + ")"});
        b.addEventListener("click", function () { ctx.act("push", c.actor, {hits: Number(n.value) || 1}); });
        list.appendChild(h("div", {className: "hg-push"}, h("label", {"for": id + "-hits", text: "hits to push (1 to " + hi + ")"}), n, b));
        return;
      }
      var label = {act: "Take the next step", wait: "Wait", hold: "Hold the action over"}[c.kind] + " (" + c.actor + ")";
      var btn = h("button", {type: "button", id: id, text: label});
      btn.addEventListener("click", function () { ctx.act(c.kind, c.actor, {}); });
      var cell = h("div", {className: "hg-move"}, btn);
      (c.odds || []).forEach(function (o) { cell.appendChild(ctx.oddsChart(o.odds, null, "Odds of " + o.label)); });
      list.appendChild(cell);
    });
    box.appendChild(list);
    return box;
  }

  function event(e, li, ctx) {
    if (e.kind === "stealth.rolled" || e.kind === "perception.rolled" || e.kind === "sneak.noticed") {
      li.classList.add("secret");
      li.appendChild(h("span", {className: "badge", text: "secret"}));
    }
    // the Master's secret roll is drawn by table.js on the pages that may see it (his own)
    var challenge = B.secret(e, "challenge");
    if (challenge != null) li.appendChild(h("div", {className: "muted", text: "Challenge " + challenge}));
  }

  window.RefGames.hursagmu = {board: board, console: console_, event: event};
})();
