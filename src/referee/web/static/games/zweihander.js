// Zweihänder: its screens on the table page, on the new contract (Preact components,
// games/base.js):
//   Board:   the chase ladder (Escape and Pursuit Values, the Complications of this chase, read
//            from the chase's own state: a new chase starts with none), the journey tracker
//            (days, stretches, the Terrain and Threat Level as the Role Checks left them,
//            weather, provisions), the social exchange
//            (the GM's secret Skills only on the GM's own page, because only the GM's observation
//            holds them), the characters at the session's end (Corruption, Order and Chaos,
//            madness), the rest.
//   Console: the d100 roller: a Skill, a Difficulty Rating, an Assist Die, and the exact odds of
//            each outcome, criticals apart, asked of the server (POST /odds) as the fields change.
//            What is chosen is the component's own state: a push keeps it, and the focus.
//   event / eventClass: a critical result marked; the GM's secret Skills under the start of
//            the exchange (on his page); each Social Tactic read against the Disposition.
(function () {
  "use strict";
  var html = window.htm.bind(window.preact.h);
  var hooks = window.preactHooks;
  var useState = hooks.useState, useEffect = hooks.useEffect, useRef = hooks.useRef;
  var UI = window.RefUI;

  function Chase(props) {
    var c = props.chase, complications = c.complications || [];
    var parts = c.participants || {};
    var ids = c.ladder || Object.keys(parts);
    var most = 1;
    ids.forEach(function (id) { most = Math.max(most, Number(parts[id].value) || 0); });
    return html`<section class="zw-chase" aria-label="The chase">
      <h3>The chase — round ${c.round}${c.ended ? " (over: " + c.ended + ")" : ""}</h3>
      <ol class="ladder" aria-label="The ladder, top rung first">
        ${ids.map(function (id) {
          var x = parts[id];
          var what = x.side === "escapee" ? "Escape Value" : "Pursuit Value";
          var width = Math.max(4, Math.min(100, 100 * (Number(x.value) || 0) / most)).toFixed(0) + "%";
          var notes = [x.mode, x.status !== "in" ? x.status : "", x.caught ? "caught " + x.caught : "",
            x.tackled ? "tackled " + x.tackled : ""].filter(Boolean).join(", ");
          // only someone still running in a chase under way is yet to move
          var waits = !c.ended && x.status === "in" && !x.moved;
          return html`<li key=${id} class=${"rung " + x.side + (c.current === id && !c.ended ? " current" : "") + (x.status !== "in" ? " out" : "")}>
            <span class="rung-who"><strong>${id}</strong> <span class="badge">${x.side}</span>${c.current === id && !c.ended ? html`<span class="badge now">acting</span>` : null}</span>
            <span class="rung-value">${what} ${x.value}</span>
            <span class="rung-track" aria-hidden="true"><span class="rung-bar" style=${{width: width}}></span></span>
            <span class="muted rung-notes">${notes + (waits ? " · yet to move" : "")}</span>
          </li>`;
        })}
      </ol>
      <p class="muted">Escape rounds: ${c.escape_rounds} · Takedown Difficulty ${c.takedown_difficulty} · head start: ${c.head_start ? c.head_start + "s" : "none"}</p>
      <div><strong>Complications: </strong>${complications.length
        ? html`<ul class="zw-complications" aria-label="Complications">${complications.map(function (x, i) {
            return html`<li key=${i}>Round ${x[0]}: a Complication for ${x[1]} <span class="muted">(the GM describes it)</span></li>`; })}</ul>`
        : html`<span class="muted">${c.ended ? "none" : "none yet"}</span>`}</div>
    </section>`;
  }

  function Journey(props) {
    var j = props.journey;
    function pct(v) { return (v > 0 ? "+" : "") + v + "%"; }
    // the Stretch under way shows the Terrain and Threat Level as the Role Checks left them
    // (the Guide's step, the Scout's), the route's own beside them where they moved
    var rows = (j.stretches || []).map(function (s, i) {
      var here = i === j.index && !j.ended;
      var terrain = here && j.terrain !== s.terrain ? pct(j.terrain) + " (route " + pct(s.terrain) + ")" : pct(s.terrain);
      var threat = here && j.threat !== s.threat ? j.threat + " (route " + s.threat + ")" : String(s.threat);
      return [(here ? "▶ " : "") + s.name, s.length + ", " + s.days + " days",
        "terrain " + terrain, "threat " + threat,
        s.bad_weather ? "bad weather" : "fair", s.conveyed ? "conveyed" : "on foot"];
    });
    return html`<section class="zw-journey" aria-label="The journey">
      <h3>The journey — day ${j.days}${j.ended ? " (arrived)" : ", " + j.phase}</h3>
      ${UI.table(["Stretch", "Length", "Terrain", "Threat", "Weather", "How"], rows, "Stretches of the journey")}
      <dl class="kv">
        ${j.ended ? null : html`<dt>Threat Level now</dt><dd class="zw-threat">${String(j.threat)} Chaos ${j.threat === 1 ? "Die" : "Dice"}</dd>
          <dt>Terrain now</dt><dd class="zw-terrain">${pct(j.terrain)}</dd>`}
        <dt>travellers</dt><dd>${(j.travellers || []).join(", ")}</dd>
        <dt>provisions</dt><dd>${j.provisions} (${j.provisions_per_day} a day)</dd>
        <dt>encounters</dt><dd>${String(j.encounters)}</dd>
        <dt>Toughness Tests left</dt><dd>${String(j.toughness_tests_left)}</dd>
        ${j.surprise ? html`<dt>surprise</dt><dd>${j.surprise}</dd>` : null}
      </dl>
    </section>`;
  }

  function Exchange(props) {
    var x = props.exchange;
    var results = {};
    (x.results || []).forEach(function (r) { results[r[0]] = r[1]; });
    var rows = (x.participants || []).map(function (p) {
      return [p, results[p] || ((x.tested || []).indexOf(p) >= 0 ? "tested" : "to test")];
    });
    // only the GM's observation (and everyone's, once the exchange ends) holds the two Skills
    var skills = x.favourable || x.unfavourable;
    return html`<section class="zw-exchange" aria-label="The social exchange">
      <h3>Social exchange with ${x.npc}${x.ended ? " (ended)" : ""}</h3>
      <dl class="kv">
        <dt>disposition</dt><dd>${x.disposition} (${x.npc_alignment}-aligned, ${x.npc_class || "no class"})</dd>
        ${x.objectives ? html`<dt>objectives</dt><dd>${x.objectives}</dd>` : null}
        ${x.stakes ? html`<dt>stakes</dt><dd>${x.stakes}</dd>` : null}
      </dl>
      ${UI.table(["Participant", "Social Tactic Test"], rows, "Who has made their Social Tactic Test")}
      ${skills ? html`<p class="secret-note"><strong>${x.ended ? "The GM's Skills: " : "Your secret Skills: "}</strong>Favourable ${x.favourable}, Unfavourable ${x.unfavourable}</p>`
        : x.ended ? null
        : html`<p class="muted">The GM has chosen a Favourable and an Unfavourable Skill in secret: they are revealed when the exchange ends.</p>`}
    </section>`;
  }

  function Characters(props) {
    var chars = props.characters;
    // an NPC's Corruption, Ranks and Disorders are the GM's: a player's observation has none
    function gms(v) { return v === undefined ? "the GM's" : v; }
    var rows = Object.keys(chars).map(function (id) {
      var c = chars[id];
      var ranks = c.order_ranks === undefined ? "the GM's" : "Order " + c.order_ranks + " / Chaos " + c.chaos_ranks;
      return [id + (c.npc ? " (NPC)" : ""), c.peril_condition, c.damage_condition, gms(c.corruption),
        ranks, c.disorders === undefined ? "the GM's" : (c.disorders || []).join(", ") || null,
        gms(c.reputation), gms(c.fate_points)];
    });
    return html`<section class="zw-session" aria-label="Characters and the session end">
      ${UI.table(["Character", "Peril", "Damage", "Corruption", "Ranks", "Disorders", "Reputation", "Fate"], rows,
        "Characters — at the session's end: Corruption, Order and Chaos Ranks, madness")}
    </section>`;
  }

  function Board(props) {
    var s = props.state, ctx = props.ctx;
    return html`<div class="zw-board">
      ${s.chase ? html`<${Chase} chase=${s.chase} />` : null}
      ${s.journey ? html`<${Journey} journey=${s.journey} />` : null}
      ${s.exchange ? html`<${Exchange} exchange=${s.exchange} />` : null}
      <${Characters} characters=${s.characters || {}} />
      <p><strong>Fortune Points: </strong>${String(s.fortune_points)}<span class="muted"> · session ${s.session}</span></p>
      ${ctx.generic(UI.without(s, ["chase", "journey", "exchange", "characters", "fortune_points", "session"]))}
    </div>`;
  }

  // ---------------------------------------------------------------- the d100 roller
  // Who tests, the Skill, the Difficulty Rating and the Assist Die are this component's state:
  // a push draws the roller again with them as they were (a choice that is no longer offered
  // falls back to the first one offered, and comes back when it is offered again).
  function pick(values, wanted, fallback) {
    return values.indexOf(wanted) >= 0 ? wanted : fallback;
  }

  function Console(props) {
    var ctx = props.ctx;
    var chosen = useState({actor: null, skill: null, difficulty: null, assist: false});
    var mine = chosen[0], setMine = chosen[1];
    var odds = useState(null), shown = odds[0], setShown = odds[1];
    var asked = useRef("");

    var tests = ctx.choices("test");
    var actors = [];
    tests.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    var actor = pick(actors, mine.actor, actors[0] || null);
    var theirs = tests.filter(function (c) { return c.actor === actor; });
    var skills = theirs.map(function (c) { return c.params.skill.one_of[0]; });
    var skill = pick(skills, mine.skill, skills[0]);
    var levels = theirs.length ? (theirs[0].params.difficulty || {}).one_of || ["Standard"] : [];
    var difficulty = pick(levels, mine.difficulty, pick(levels, "Standard", levels[0]));
    var params = {skill: skill, difficulty: difficulty, assist: !!mine.assist};
    var what = JSON.stringify([actor, params]), key = ctx.obs.version + what;

    useEffect(function () {
      if (!actor) return;
      asked.current = key;
      ctx.odds("test", actor, params).then(function (list) {
        if (asked.current === key) setShown({what: what, list: list || []});
      });
    }, [key]);

    if (!tests.length) return null;
    function set(name) {
      return function (ev) {
        var value = ev.target.type === "checkbox" ? ev.target.checked : ev.target.value;
        setMine(function (was) { var next = Object.assign({}, was); next[name] = value; return next; });
      };
    }
    function roll(ev) {
      ev.preventDefault();
      ctx.act("test", actor, params);
    }
    function select(id, label, values, value, name) {
      return html`<div class="stack">
        <label for=${id}>${label}</label>
        <select id=${id} value=${value} onChange=${set(name)}>
          ${values.map(function (v) { return html`<option key=${v} value=${v}>${v}</option>`; })}
        </select>
      </div>`;
    }
    // the odds shown are those of the fields as they stand (a push asks again, and shows the
    // last answer meanwhile); dimmed while the fields changed and their odds are on the way
    var fresh = shown && shown.what === what;
    return html`<section class="console zw-roller" aria-labelledby="zw-roller-h">
      <h3 id="zw-roller-h">d100 roller</h3>
      <form class="grid-form" onSubmit=${roll}>
        ${actors.length > 1 ? select("zw-actor", "Who tests", actors, actor, "actor") : null}
        ${select("zw-skill", "Skill", skills, skill, "skill")}
        ${select("zw-difficulty", "Difficulty Rating", levels, difficulty, "difficulty")}
        <div class="check">
          <input type="checkbox" id="zw-assist" checked=${params.assist} onChange=${set("assist")} />
          <label for="zw-assist">Assist Die (d10)</label>
        </div>
        <div id="zw-odds" class=${"odds-box" + (shown && !fresh ? " stale" : "")} aria-live="polite" aria-busy=${fresh ? "false" : "true"}>
          ${shown ? shown.list.map(function (o, i) {
            var crit = Ref.fraction(o.odds["critical success"] || 0), fumble = Ref.fraction(o.odds["critical failure"] || 0);
            return html`<div class="roll" key=${i}>
              <div><strong>${o.label}</strong> <span class="muted">${o.dice}</span></div>
              ${ctx.oddsChart(o.odds, null, "Odds of " + o.label)}
              <p class="muted">Critical success ${Ref.pct(crit)} · critical failure ${Ref.pct(fumble)}</p>
            </div>`;
          }) : html`<p class="muted">Working out the odds…</p>`}
        </div>
        <button type="submit" id="zw-roll">Roll d100</button>
      </form>
    </section>`;
  }

  // ---------------------------------------------------------------- the log
  function isCritical(e) {
    var card = (e.payload || {}).roll;
    return !!(card && /critical/.test(card.outcome || ""));
  }
  function eventClass(e) { return isCritical(e) ? "critical" : ""; }

  function event(e) {
    var p = e.payload || {};
    var favourable = e.kind === "exchange.started" ? UI.secret(e, "favourable") : null;
    var read = e.kind === "exchange.tactic_tested" && p.result;
    if (!favourable && !read) return null;
    return html`${favourable ? html`<div class="secret-note">Your secret Skills: Favourable ${favourable}, Unfavourable ${UI.secret(e, "unfavourable")}</div>` : null}
      ${read ? html`<div class="muted">Read as ${p.disposition_read_as}: ${p.result}</div>` : null}`;
  }

  window.RefGames.zweihander = {Board: Board, Console: Console, event: event, eventClass: eventClass};
})();
