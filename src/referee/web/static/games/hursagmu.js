// Hursagmu: its screens on the table page — the worked example of the new contract (Preact
// components, games/base.js):
//   Board:   the round planner: every declared step of every combatant on one initiative
//            timeline (highest first), whose step is next, steps done struck through, haste
//            (a step with no initiative of its own), waits, holds, pushed power, the attack
//            pending; then each combatant's row.
//   Console: the seat's quick moves — take the next declared step (with its odds), wait, hold
//            the action over, push power — each the same action the forms below take. How many
//            hits to push is the component's own state: a push keeps it.
//   event / eventClass: a secret roll (the thief's sneak, the Master's perception) marked as such.
// The round's plan (declare; defend with a plan) is the generic structured form of the game's
// domain (round_plan.plan_domain): a select per step names its shape (attack, defend, move,
// another skill roll, minor action, haste), and the odds under it — each step's, with the
// round's penalty — come from POST /odds as the plan stands. Its phone layout is in
// games/hursagmu.css; the planner below shows a plan once declared.
(function () {
  "use strict";
  var html = window.htm.bind(window.preact.h);
  var useState = window.preactHooks.useState;
  var UI = window.RefUI;
  var SECRET = ["stealth.rolled", "perception.rolled", "sneak.noticed"];

  function stepText(st) {
    var what = st.kind;
    if (st.kind === "attack") what = "attack " + (st.target || "") + (st.skill ? " (" + st.skill + ")" : "");
    else if (st.kind === "defend") what = "defend" + (st.skill ? " (" + st.skill + ")" : "");
    else if (st.kind === "move") what = (st.movement || "move") + (st.yards ? " " + st.yards + " yd" : "");
    else if (st.kind === "task") what = "task " + (st.name || st.skill || "");
    else if (st.kind === "haste") what = "haste";
    return what;
  }

  function Board(props) {
    var s = props.state, ctx = props.ctx;
    var chars = s.characters || {};
    var ids = Object.keys(chars);
    var onTurn = s.on_turn || [];
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
    var order = ids.slice().sort(function (a, b) {
      return (chars[b].initiative == null ? -99 : chars[b].initiative) - (chars[a].initiative == null ? -99 : chars[a].initiative);
    });
    var rows = order.map(function (id) {
      var c = chars[id];
      var marks = [c.waiting ? "waiting" : "", c.holding ? "holding" : "", c.pushed ? "pushed " + c.pushed : "",
        c.surprised ? "surprised" : "", c.asleep ? "asleep" : "", c.conscious ? "" : "unconscious", c.acted ? "acted" : ""].filter(Boolean);
      return [id, c.initiative == null ? null : c.initiative + (c.stance ? " (" + c.stance + ")" : ""),
        c.hits + " / " + c.stamina, c.penalty ? String(c.penalty) : null, marks.join(", ") || null];
    });
    var p = s.pending;
    return html`<div class="hg-board">
      <h3>Round ${s.round}, ${s.phase} phase</h3>
      <p class="hg-next" id="hg-next"><strong>Next: </strong>${onTurn.length ? onTurn.join(", ") :
        (s.phase === "initiative" ? "everyone rolls Initiative" : "nobody")}</p>
      ${p ? html`<p class="secret-note">Attack pending: ${p.attacker} → ${p.target} (${p.skill}); ${p.target} must defend or take it</p>` : null}
      ${steps.length ? html`<ol class="hg-timeline" aria-label="The round's declared steps, by initiative">
        ${steps.map(function (x) {
          return html`<li key=${x.who + ":" + x.index}
              class=${"hg-step" + (x.done ? " done" : "") + (x.next ? " next" : "") + " kind-" + x.step.kind}>
            <span class="hg-at">${x.step.initiative == null ? "haste" : String(x.step.initiative)}</span>
            <span><strong>${x.who}</strong>: ${stepText(x.step)}</span>
            ${x.next ? html`<span class="badge now">next</span>` : null}
            ${x.done ? html`<span class="sr-only"> (done)</span>` : null}
          </li>`;
        })}
      </ol>` : html`<p class="muted">No step declared yet this round.</p>`}
      ${UI.table(["Combatant", "Initiative", "Hits", "Penalty", "State"], rows, "Combatants, by initiative")}
      ${ctx.generic(UI.without(s, ["characters", "round", "phase", "on_turn", "pending"]))}
    </div>`;
  }

  function PushPower(props) {
    var c = props.c, ctx = props.ctx, id = "hg-push-" + c.actor;
    var hi = c.params.hits && c.params.hits.between ? c.params.hits.between[1] : 1;
    var st = useState("1"), hits = st[0], setHits = st[1];
    var n = Math.min(Math.max(1, Number(hits) || 1), hi);
    return html`<div class="hg-push">
      <label for=${id + "-hits"}>hits to push (1 to ${hi})</label>
      <input type="number" id=${id + "-hits"} min="1" max=${hi} inputmode="numeric" value=${hits}
        onInput=${function (ev) { setHits(ev.target.value); }} />
      <button type="button" id=${id} onClick=${function () { ctx.act("push", c.actor, {hits: n}); }}>Push power (${c.actor})</button>
    </div>`;
  }

  var LABELS = {act: "Take the next step", wait: "Wait", hold: "Hold the action over"};
  function Console(props) {
    var ctx = props.ctx;
    var offered = ctx.choices().filter(function (c) { return ["act", "wait", "hold", "push"].indexOf(c.kind) >= 0; });
    if (!offered.length) return null;
    return html`<section class="console hg-quick" aria-labelledby="hg-quick-h">
      <h3 id="hg-quick-h">Quick moves</h3>
      <div class="hg-buttons">
        ${offered.map(function (c) {
          var key = c.kind + "-" + c.actor;
          if (c.kind === "push") return html`<${PushPower} key=${key} c=${c} ctx=${ctx} />`;
          return html`<div class="hg-move" key=${key}>
            <button type="button" id=${"hg-" + key} onClick=${function () { ctx.act(c.kind, c.actor, {}); }}>
              ${LABELS[c.kind]} (${c.actor})</button>
            ${(c.odds || []).map(function (o, i) { return html`<div key=${i}>${ctx.oddsChart(o.odds, null, "Odds of " + o.label)}</div>`; })}
          </div>`;
        })}
      </div>
    </section>`;
  }

  function eventClass(e) { return SECRET.indexOf(e.kind) >= 0 ? "secret" : ""; }

  function event(e) {
    // the Master's secret roll is drawn by table.js on the pages that may see it (his own)
    var challenge = UI.secret(e, "challenge");
    var secret = SECRET.indexOf(e.kind) >= 0;
    if (!secret && challenge == null) return null;
    return html`${secret ? html`<span class="badge">secret</span>` : null}
      ${challenge != null ? html`<div class="muted">Challenge ${challenge}</div>` : null}`;
  }

  window.RefGames.hursagmu = {Board: Board, Console: Console, event: event, eventClass: eventClass};
})();
