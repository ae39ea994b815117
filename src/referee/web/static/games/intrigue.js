// Intrigue in the Clouds: its screens on the table page, as Preact components (the contract at
// the top of games/base.js; games/hursagmu.js is the worked example).
//   Console, the referee's: the game clock (shown large, moved by minutes, to a time, or
//            following the wall clock), what comes due next and what is due now, a badge
//            search, the perception check (odds per envelope before the roll, which envelopes
//            to hand over after it), skill rolls, contingency envelopes, the combat tracker.
//   Console, a player's: the game time (read only), the envelopes handed to them, those they
//            carry, their cooldowns and their own sheet.
//   Both: a role="status" line announcing what has just come due for this seat (a cooldown
//            ended, a character woke, an envelope may be opened), from the seat's own events.
//   Board:   the characters by badge number.
//   event:   after a perception check, what to hand over, by label (and the contents where this
//            seat may read them).
// What a person types or picks lives in the components' own state (ctx.hooks): a push keeps it.
// Every time on the page is written one way: "at 21:00", the game's own time of day.
(function () {
  "use strict";
  var html = window.htm.bind(window.preact.h);
  var H = window.preactHooks;
  var useState = H.useState, useEffect = H.useEffect, useRef = H.useRef;
  var UI = window.RefUI;

  // ------------------------------------------------------------------ the game clock
  var DAY = 24 * 60;
  function minutesOf(hhmm) {
    var m = /^(\d{1,2}):(\d{2})$/.exec(String(hhmm || "00:00").trim());
    return m && Number(m[1]) < 24 && Number(m[2]) < 60 ? Number(m[1]) * 60 + Number(m[2]) : null;
  }
  function startOf(obs) { return minutesOf(obs.start || (obs.state && obs.state.start)) || 0; }
  // a game time (seconds since play started) as the game's time of day, HH:MM
  function clock(obs, seconds) {
    var total = startOf(obs) + Math.floor((seconds || 0) / 60);
    var hh = Math.floor(total / 60) % 24, mm = total % 60;
    return (hh < 10 ? "0" : "") + hh + ":" + (mm < 10 ? "0" : "") + mm;
  }
  // a time of day as a game time: the first such moment from the start of play on
  function secondsAt(obs, hhmm) {
    var m = minutesOf(hhmm);
    if (m == null) return null;
    return ((m - startOf(obs)) % DAY + DAY) % DAY * 60;
  }

  // ------------------------------------------------------------------ what this seat has seen
  // Every event this page has been shown, in order (an observation carries only the new ones;
  // after an undo the log is sent again from its first event, which replaces what followed),
  // and the announcements of what came due since the page was opened.
  var seen = [], news = [], lastObs = null, primed = false;
  function sync(ctx) {
    var obs = ctx.obs;
    if (!obs || obs === lastObs) return;
    lastObs = obs;
    var events = (obs.events || []).filter(function (e) { return e.number != null; });
    var last = seen.length ? seen[seen.length - 1].number : 0;
    var replaced = events.length && events[0].number <= last;
    if (replaced) seen = seen.filter(function (x) { return x.number < events[0].number; });
    events.forEach(function (e) {
      if (seen.length && e.number <= seen[seen.length - 1].number) return;
      seen.push(e);
      if (primed && !replaced) {
        var said = announce(e, ctx);
        if (said) news.unshift({key: e.number, text: said});
      }
    });
    news = news.slice(0, 5);
    primed = true;
  }
  function nameOf(s, id) { var c = ((s || {}).characters || {})[id]; return c ? "#" + c.number + " " + (c.name || id) : id; }
  function concerns(ctx, who) { return ctx.me.is_referee || (ctx.me.plays || []).indexOf(who) >= 0; }
  // What a fired timer says to this seat, in words (null: nothing for it)
  function announce(e, ctx) {
    var s = ctx.obs.state || {}, p = e.payload || {};
    if (e.kind === "perception.ready" && concerns(ctx, p.perceiver)) {
      return (ctx.me.is_referee ? nameOf(s, p.perceiver) + " may" : "You may") + " perceive " +
        nameOf(s, p.target) + " again (at " + clock(ctx.obs, e.at) + ")";
    }
    if (e.kind === "character.woke" && concerns(ctx, p.character)) {
      return nameOf(s, p.character) + " wakes (at " + clock(ctx.obs, e.at) + ")";
    }
    if (e.kind === "contingency.openable" && concerns(ctx, p.holder)) {
      var all = s.contingency_envelopes || {};
      return (p.envelopes || []).map(function (id) {
        var x = all[id];
        return "Envelope " + id + (x && x.label ? " (" + x.label + ")" : "") + " may be opened now" +
          (ctx.me.is_referee ? " by " + nameOf(s, p.holder) : "");
      }).join("; ");
    }
    return null;
  }
  function secret(e, name) { return UI.secret(e, name); }
  // when a timer this seat saw set comes due (game seconds), by its name
  function timerDue(name) {
    var due = null;
    seen.forEach(function (e) {
      if (e.kind === "timer.set" && e.payload && e.payload.name === name) {
        due = typeof e.payload.after === "number" ? e.at + e.payload.after : e.payload.due;
      }
    });
    return due;
  }
  // a contingency envelope's time, if its condition is a time ("Open at 21:00")
  function envelopeDue(obs, id, env) {
    var due = timerDue("contingency:" + id);
    if (due != null) return due;
    var at = /^Open at (\d{1,2}:\d{2})$/.exec(env.label || "");
    return at ? secondsAt(obs, at[1]) : null;
  }

  function News(props) {
    var list = props.list;
    return html`<div id="ic-news" class="ic-news" role="status" aria-label="Just now">
      ${list.length ? html`<ul>${list.map(function (n) { return html`<li key=${n.key}>${n.text}</li>`; })}</ul>` : null}
    </div>`;
  }

  // ------------------------------------------------------------------ the clock
  function GameTime(props) {
    var obs = props.ctx.obs;
    return html`<p class="ic-time"><span class="muted">Game time </span>
      <strong id="ic-clock" class="ic-clock">${clock(obs, obs.now)}</strong></p>`;
  }

  function Clock(props) {
    var ctx = props.ctx, obs = ctx.obs;
    var by = useState("10"), minutes = by[0], setMinutes = by[1];
    var to = useState(""), at = to[0], setAt = to[1];
    var sayS = useState(""), said = sayS[0], setSaid = sayS[1];
    var fol = useState(false), following = fol[0], setFollowing = fol[1];
    var now = useRef(obs.now || 0);
    now.current = obs.now || 0;
    var busy = useRef(false);
    function advance(seconds, words) {
      if (busy.current) return Promise.resolve(false);
      busy.current = true;
      return ctx.act("advance", null, {to: seconds}).then(function (ok) {
        busy.current = false;
        if (ok && words) setSaid(words);
        return ok;
      });
    }
    function plus(n) {
      n = Math.floor(Number(n));
      if (!(n >= 1)) { setSaid("Give a number of minutes, 1 or more."); return; }
      var target = now.current + n * 60;
      advance(target, "The clock moved on " + n + " min, to " + clock(obs, target) + ".");
    }
    function toTime(ev) {
      ev.preventDefault();
      var target = secondsAt(obs, at);
      if (target == null) { setSaid("Give a time of day, as HH:MM (for example 21:00)."); return; }
      if (target < now.current) {
        setSaid("Refused: " + at + " is earlier than the game time now, " + clock(obs, now.current) +
          ": the clock only moves forward.");
        return;
      }
      if (target === now.current) { setSaid("It is " + at + " already."); return; }
      advance(target, "The clock moved on to " + clock(obs, target) + ".");
    }
    // following the wall clock: one advance per game minute, as real minutes pass (a minute
    // whose advance was refused — another seat acted in the same instant — is tried again)
    useEffect(function () {
      if (!following) return undefined;
      var mark = Date.now(), owed = 0;
      var timer = setInterval(function () {
        while (Date.now() - mark >= 60000) { mark += 60000; owed++; }
        if (!owed || busy.current) return;
        advance(now.current + 60, null).then(function (ok) { if (ok) owed--; });
      }, 1000);
      return function () { clearInterval(timer); };
    }, [following]);
    return html`<section class="ic-part ic-clock-part" aria-labelledby="ic-clock-h">
      <h3 id="ic-clock-h">The game clock</h3>
      <p class="ic-time"><strong id="ic-clock" class="ic-clock">${clock(obs, obs.now)}</strong>
        <span class="muted"> (play started at ${clock(obs, 0)})</span></p>
      <div class="ic-clock-tools" role="group" aria-label="Move the clock on by">
        ${[1, 5, 15].map(function (n) {
          return html`<button type="button" class="ghost" key=${n} id=${"ic-plus-" + n}
            onClick=${function () { plus(n); }}>+${n} min</button>`;
        })}
      </div>
      <form class="row" aria-label="Move the clock on by a number of minutes"
          onSubmit=${function (ev) { ev.preventDefault(); plus(minutes); }}>
        <label for="ic-minutes">Minutes</label>
        <input id="ic-minutes" type="number" min="1" max="1440" inputmode="numeric" value=${minutes}
          onInput=${function (ev) { setMinutes(ev.target.value); }} />
        <button type="submit" id="ic-by" class="ghost">Move on</button>
      </form>
      <form class="row" aria-label="Move the clock to a time" onSubmit=${toTime}>
        <label for="ic-to">To the time (HH:MM)</label>
        <input id="ic-to" type="text" inputmode="numeric" autocomplete="off" placeholder="21:00" maxlength="5"
          aria-describedby="ic-clock-said" value=${at} onInput=${function (ev) { setAt(ev.target.value); }} />
        <button type="submit" id="ic-to-go" class="ghost">Move the clock to it</button>
      </form>
      <p>
        <button type="button" id="ic-follow" aria-pressed=${following ? "true" : "false"}
          onClick=${function () { setFollowing(!following); setSaid(following ? "The clock is paused." :
            "The clock follows the wall clock: one minute each minute."); }}>
          ${following ? "Pause the clock" : "Follow the wall clock"}</button>
      </p>
      <p id="ic-clock-said" class="muted" role="status">${said}</p>
    </section>`;
  }

  // What comes due next, with its time, and what is due now (the referee's)
  function Coming(props) {
    var ctx = props.ctx, obs = ctx.obs, s = obs.state || {}, chars = s.characters || {};
    var items = [], now = [];
    (s.cooldowns || []).forEach(function (c) {
      items.push({due: c.due, text: nameOf(s, c.perceiver) + " may perceive " + nameOf(s, c.target) + " again"});
    });
    Object.keys(chars).forEach(function (id) {
      var c = chars[id];
      if (c.knocked_out && !c.dead && c.wake_due != null) items.push({due: c.wake_due, text: nameOf(s, id) + " wakes"});
    });
    var all = s.contingency_envelopes || {};
    Object.keys(all).forEach(function (id) {
      var e = all[id];
      if (e.opened) return;
      if (e.openable) { now.push("Envelope " + id + " (" + e.label + ") of " + nameOf(s, e.holder) + " may be opened now"); return; }
      var due = envelopeDue(obs, id, e);
      if (due != null) items.push({due: due, text: "Envelope " + id + " (" + e.label + ") of " + nameOf(s, e.holder) + " may be opened"});
    });
    items.forEach(function (x) { if (x.due <= (obs.now || 0)) now.push(x.text); });
    var next = items.filter(function (x) { return x.due > (obs.now || 0); }).sort(function (a, b) { return a.due - b.due; });
    return html`<section class="ic-part" aria-labelledby="ic-coming-h">
      <h3 id="ic-coming-h">Coming next</h3>
      ${now.length ? html`<p class="ic-due-h"><strong>Due now</strong></p>
        <ul id="ic-due" class="timers">${now.map(function (t, i) { return html`<li key=${i}>${t}</li>`; })}</ul>` : null}
      ${next.length ? html`<ul id="ic-coming" class="timers">${next.map(function (x, i) {
          return html`<li key=${i}><strong>at ${clock(obs, x.due)}</strong> — ${x.text}</li>`;
        })}</ul>` : html`<p class="muted" id="ic-coming">Nothing is set to come due.</p>`}
    </section>`;
  }

  // ------------------------------------------------------------------ the board
  function Board(props) {
    var s = props.state, ctx = props.ctx;
    sync(ctx);
    var chars = s.characters || {};
    var ids = Object.keys(chars).sort(function (a, b) { return Number(chars[a].number) - Number(chars[b].number); });
    return html`<div class="intrigue">
      <h3>Characters by badge number</h3>
      <div class="state-grid">
        ${ids.map(function (id) {
          var c = chars[id];
          return html`<div key=${id} id=${"char-" + id} tabindex="-1" data-badge=${String(c.number)}>
            <strong>${"#" + c.number + " " + (c.name || id) + (c.knocked_out ? " (knocked out)" : "") + (c.dead ? " (dead)" : "")}</strong>
            ${ctx.flat(UI.without(c, ["number", "knocked_out", "dead", "wake_due"]))}
          </div>`;
        })}
      </div>
      ${ctx.generic(UI.without(s, ["characters", "start", "combats", "contingency_envelopes", "cooldowns"]))}
    </div>`;
  }

  // ------------------------------------------------------------------ the referee's console
  function BadgeSearch(props) {
    var s = props.ctx.obs.state || {};
    var q = useState(""), query = q[0], setQuery = q[1];
    var sa = useState(""), said = sa[0], setSaid = sa[1];
    function find(ev) {
      ev.preventDefault();
      var want = query.trim().replace(/^#/, "");
      var chars = s.characters || {};
      var hit = Object.keys(chars).filter(function (id) { return String(chars[id].number) === want || id === want; })[0];
      if (!hit) { setSaid("No character wears badge " + want + "."); return; }
      setSaid("Badge " + chars[hit].number + ": " + (chars[hit].name || hit) + ".");
      var el = document.getElementById("char-" + hit);
      if (el) {
        document.querySelectorAll(".intrigue [data-badge].found").forEach(function (x) { x.classList.remove("found"); });
        el.classList.add("found"); el.scrollIntoView({block: "center"}); el.focus();
      }
    }
    return html`<section class="ic-part" aria-labelledby="ic-find-h">
      <h3 id="ic-find-h">Find a character</h3>
      <form class="row" aria-label="Find a character by badge number" onSubmit=${find}>
        <label for="ic-badge">Badge number</label>
        <input id="ic-badge" type="search" inputmode="numeric" autocomplete="off" placeholder="e.g. 40"
          aria-describedby="ic-badge-said" value=${query} onInput=${function (ev) { setQuery(ev.target.value); }} />
        <button type="submit" class="ghost">Find</button>
      </form>
      <p id="ic-badge-said" class="muted" role="status">${said}</p>
    </section>`;
  }

  function Select(props) {
    return html`<div class="stack">
      <label for=${props.id}>${props.label}</label>
      <select id=${props.id} value=${props.value} onChange=${function (ev) { props.onChange(ev.target.value); }}>
        ${props.values.map(function (v, i) {
          return html`<option key=${String(v)} value=${String(v)}>${props.texts ? props.texts[i] : String(v)}</option>`;
        })}
      </select>
    </div>`;
  }
  function pick(value, values) { return values.map(String).indexOf(String(value)) >= 0 ? value : values[0]; }

  function OddsList(props) {
    var ctx = props.ctx, list = props.list;
    if (list == null) return html`<p class="muted">Working out the odds…</p>`;
    if (!list.length) return html`<p class="muted">${props.empty}</p>`;
    return list.map(function (o, i) {
      return html`<div class="roll" key=${i}>
        <div><strong>${o.label}</strong> <span class="muted">${o.dice}</span></div>
        ${ctx.oddsChart(o.odds, null, "Odds of " + o.label)}
      </div>`;
    });
  }

  // The odds of ``kind`` for ``actor`` with ``params`` as they stand, asked again when they
  // change or the table moves on (the last answer asked for wins).
  function useOdds(ctx, kind, actor, params, skip) {
    var st = useState(null), odds = st[0], setOdds = st[1];
    var ask = JSON.stringify([kind, actor, params]);
    var asked = useRef(null);
    useEffect(function () {
      if (skip) return;
      asked.current = ask;
      ctx.odds(kind, actor, params).then(function (list) { if (asked.current === ask) setOdds({ask: ask, list: list}); });
    }, [ask, ctx.obs.version, skip]);
    return odds && odds.ask === ask ? odds.list : null;
  }

  function Perception(props) {
    var ctx = props.ctx, s = ctx.obs.state || {}, chars = s.characters || {};
    var choices = ctx.choices("perceive");
    var perceivers = Object.keys(chars).filter(function (id) { return !chars[id].dead && !chars[id].knocked_out; });
    var ps = useState(null), perceiver = ps[0], setPerceiver = ps[1];
    var ts = useState(null), target = ts[0], setTarget = ts[1];
    var sa = useState(""), said = sa[0], setSaid = sa[1];
    var p = perceivers.length ? pick(perceiver, perceivers) : null;
    var targets = Object.keys(chars).filter(function (id) { return id !== p; });
    var t = pick(target, targets);
    var cool = (s.cooldowns || []).filter(function (c) { return c.perceiver === p && c.target === t; })[0];
    var choice = choices.filter(function (c) { return c.actor === p; })[0];
    var allowed = !!(choice && choice.params.target && choice.params.target.one_of.indexOf(t) >= 0);
    var odds = useOdds(ctx, "perceive", p, {target: t}, !allowed || !!cool);
    if (!perceivers.length) {
      return html`<section class="ic-part" aria-labelledby="ic-perc-h"><h3 id="ic-perc-h">Perception check</h3>
        <p class="muted">Nobody can perceive now.</p></section>`;
    }
    function roll(ev) {
      ev.preventDefault();
      if (!allowed) return;
      ctx.act("perceive", p, {target: t}).then(function (taken) {
        var mine = taken ? latest(p, t) : null;
        setSaid(mine ? handover(mine, s) : "");
        var el = document.getElementById("ic-perc-said");
        if (taken && el) el.focus();
      });
    }
    var box;
    if (cool) {
      box = html`<p class="cooldown">${nameOf(s, p)} checked ${nameOf(s, t)} less than 15 minutes ago: next check at ${cool.until}.</p>`;
    } else if (!allowed) {
      box = html`<p class="muted">${nameOf(s, p)} cannot check ${nameOf(s, t)} now.</p>`;
    } else {
      box = html`<${OddsList} ctx=${ctx} list=${odds}
        empty=${"No envelope of " + nameOf(s, t) + " is for " + nameOf(s, p) + ": nothing to hand over whatever the roll."} />`;
    }
    return html`<section class="ic-part" aria-labelledby="ic-perc-h">
      <h3 id="ic-perc-h">Perception check</h3>
      <form class="grid2" onSubmit=${roll}>
        <${Select} id="ic-perceiver" label="Perceiver" values=${perceivers} value=${p}
          texts=${perceivers.map(function (id) { return nameOf(s, id); })}
          onChange=${function (v) { setPerceiver(v); setTarget(null); }} />
        <${Select} id="ic-target" label="Target (who holds the envelopes)" values=${targets} value=${t}
          texts=${targets.map(function (id) { return nameOf(s, id); })} onChange=${setTarget} />
        <div class="odds-box" id="ic-perc-odds">${box}</div>
        <button type="submit" id="ic-perceive" disabled=${!allowed}>Roll the Perception Check</button>
      </form>
      <div id="ic-perc-said" class="handover" role="status" tabindex="-1">${said}</div>
    </section>`;
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
    var who = nameOf(s, p.perceiver), holder = nameOf(s, p.target);
    if (!got.length) return who + " rolled " + p.total + ": " + holder + " hands over nothing.";
    return who + " rolled " + p.total + ": " + holder + " hands over " + got.map(function (x) {
      return "“" + x.label + "” (" + x.id + ")";
    }).join(" and ") + ".";
  }

  function SkillRoll(props) {
    var ctx = props.ctx, s = ctx.obs.state || {};
    var rolls = ctx.choices("roll");
    var actors = [];
    rolls.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    var st = useState({roller: null, skill: null, mode: "target", tn: "14", against: null});
    var f = st[0];
    function set(k, v) { var n = Object.assign({}, f); n[k] = v; st[1](n); }
    var who = actors.length ? pick(f.roller, actors) : null;
    var fixed = rolls.filter(function (c) { return c.actor === who && c.params.target; })[0];
    var versus = rolls.filter(function (c) { return c.actor === who && c.params.against; })[0];
    var skills = who ? (fixed || versus).params.skill.one_of : [];
    var skill = pick(f.skill, skills);
    var modes = ["target"].concat(versus ? ["against"] : []);
    var mode = pick(f.mode, modes);
    var others = versus ? versus.params.against.one_of : [];
    var against = pick(f.against, others);
    var params = {skill: skill};
    if (mode === "target") params.target = Number(f.tn); else params.against = against;
    var odds = useOdds(ctx, "roll", who, params, !who);
    if (!actors.length) {
      return html`<section class="ic-part" aria-labelledby="ic-skill-h"><h3 id="ic-skill-h">Skill roll</h3>
        <p class="muted">No skill roll is open now.</p></section>`;
    }
    return html`<section class="ic-part" aria-labelledby="ic-skill-h">
      <h3 id="ic-skill-h">Skill roll</h3>
      <form class="grid2" onSubmit=${function (ev) { ev.preventDefault(); ctx.act("roll", who, params); }}>
        <${Select} id="ic-roller" label="Character" values=${actors} value=${who}
          texts=${actors.map(function (id) { return nameOf(s, id); })} onChange=${function (v) { set("roller", v); }} />
        <${Select} id="ic-skill" label="Skill" values=${skills} value=${skill} onChange=${function (v) { set("skill", v); }} />
        <${Select} id="ic-mode" label="Against" values=${modes} value=${mode}
          texts=${["a Target Number"].concat(versus ? ["another character's roll"] : [])} onChange=${function (v) { set("mode", v); }} />
        <div class="stack" hidden=${mode !== "target"}>
          <label for="ic-tn">Target Number (3 to 24)</label>
          <input id="ic-tn" type="number" min="3" max="24" inputmode="numeric" value=${f.tn}
            onInput=${function (ev) { set("tn", ev.target.value); }} />
        </div>
        <div class="stack" hidden=${mode === "target"}>
          <${Select} id="ic-against" label="Opponent" values=${others.length ? others : [""]} value=${against}
            texts=${others.map(function (id) { return nameOf(s, id); })} onChange=${function (v) { set("against", v); }} />
        </div>
        <div class="odds-box" id="ic-skill-odds"><${OddsList} ctx=${ctx} list=${odds} empty="Outside what the rules allow." /></div>
        <button type="submit" id="ic-roll">Roll</button>
      </form>
    </section>`;
  }

  function Contingency(props) {
    var obs = props.ctx.obs, s = obs.state || {}, all = s.contingency_envelopes || {};
    var rows = Object.keys(all).map(function (id) {
      var e = all[id], due = envelopeDue(obs, id, e);
      var status = e.opened ? "opened" : e.openable ? "may be opened now" :
        due != null ? (due <= (obs.now || 0) ? "due" : "at " + clock(obs, due)) : "on its condition";
      return {due: due == null ? 1e12 : due, row: [id, nameOf(s, e.holder), e.label, status]};
    }).sort(function (a, b) { return a.due - b.due; }).map(function (x) { return x.row; });
    return html`<section class="ic-part" aria-labelledby="ic-cont-h">
      <h3 id="ic-cont-h">Contingency envelopes — game time ${clock(obs, obs.now)}</h3>
      ${rows.length ? UI.table(["Envelope", "Holder", "Condition", "Status"], rows, "Contingency envelopes, soonest first")
        : html`<p class="muted">No contingency envelopes in this game.</p>`}
    </section>`;
  }

  function CombatTracker(props) {
    var obs = props.ctx.obs, s = obs.state || {}, combats = s.combats || {}, chars = s.characters || {};
    var ids = Object.keys(combats);
    var tables = ids.map(function (cid) {
      var c = combats[cid];
      var heldBy = c.holds || {};
      var rows = Object.keys(c.sides || {}).map(function (who) {
        var d = (c.declarations || {})[who], x = chars[who] || {};
        var holding = Object.keys(heldBy).filter(function (k) { return heldBy[k] === who; });
        return [nameOf(s, who), c.sides[who],
          d ? d.action + (d.target ? " → " + d.target : "") + (d.resolved ? " (done)" : "") :
            (c.pending || []).indexOf(who) >= 0 ? "to declare" : "—",
          (heldBy[who] ? "held by " + heldBy[who] : "") + (holding.length ? "holding " + holding.join(", ") : "") || "—",
          x.wounds != null ? (x.wounds_left + "/" + x.wounds + " wounds, " + x.damage + " damage") : "—",
          x.dead ? "dead" : x.knocked_out ? "knocked out" + (x.wake_due != null ? ", wakes at " + clock(obs, x.wake_due) : "") :
            (c.escaped || []).indexOf(who) >= 0 ? "escaped" : "fighting"];
      });
      return html`<div key=${cid}>${UI.table(["Who", "Side", "Declared", "Grabs and holds", "Wounds", "State"], rows,
        cid + (c.ended ? " — ended" : " — round " + c.round + (c.in_round ? ", declaring and resolving" : ", between rounds")))}</div>`;
    });
    var timers = Object.keys(chars).filter(function (id) { return chars[id].knocked_out && chars[id].wake_due != null; });
    return html`<section class="ic-part" aria-labelledby="ic-combat-h">
      <h3 id="ic-combat-h">Combat tracker</h3>
      ${tables}
      ${timers.length ? html`<ul class="timers" aria-label="Knock-out timers">${timers.map(function (id) {
          return html`<li key=${id}>${nameOf(s, id)} wakes at ${clock(obs, chars[id].wake_due)}</li>`;
        })}</ul>` : null}
      ${!ids.length && !timers.length ? html`<p class="muted">No combat running.</p>` : null}
    </section>`;
  }

  // ------------------------------------------------------------------ a player's console
  function PlayerPanel(props) {
    var ctx = props.ctx, obs = ctx.obs, s = obs.state || {}, chars = s.characters || {};
    return (ctx.me.plays || []).map(function (id) {
      var c = chars[id];
      if (!c) return null;
      var handed = [];
      seen.forEach(function (e) {
        if (e.kind !== "perception.made" || e.payload.perceiver !== id) return;
        var inside = secret(e, "contents") || {};
        (e.payload.envelopes || []).forEach(function (x) {
          var what = inside[x.id] || {};
          handed.push(html`<li class="envelope" key=${e.number + ":" + x.id}>
            <strong>${nameOf(s, e.payload.target) + " — " + x.label}</strong>
            <p>${what.contents || "(its contents were not given to you)"}</p>
            ${what.directions ? html`<p class="directions">Directions: ${what.directions}</p>` : null}
          </li>`);
        });
      });
      seen.forEach(function (e) {
        if (e.kind !== "envelope.opened" || e.payload.holder !== id) return;
        handed.push(html`<li class="envelope" key=${"o" + e.number}><strong>Opened: ${e.payload.label}</strong>
          <p>${secret(e, "contents") || ""}</p></li>`);
      });
      var carry = [];
      var pe = s.perception_envelopes || {}, ce = s.contingency_envelopes || {};
      Object.keys(pe).forEach(function (k) { if (pe[k].holder === id) carry.push(["perception", k, pe[k].label, "sealed"]); });
      Object.keys(ce).forEach(function (k) {
        if (ce[k].holder !== id) return;
        var due = envelopeDue(obs, k, ce[k]);
        carry.push(["contingency", k, ce[k].label, ce[k].opened ? "opened" : ce[k].openable ? "you may open it now" :
          due != null ? "sealed until " + clock(obs, due) : "sealed"]);
      });
      var cools = (s.cooldowns || []).filter(function (x) { return x.perceiver === id; });
      var plain = UI.without(c, ["number", "wake_due", "wakes_at", "name"]);
      ["knocked_out", "dead"].forEach(function (k) { if (!plain[k]) delete plain[k]; });
      return html`<div key=${id} class="intrigue-console">
        <section class="ic-part" aria-labelledby="ic-handed-h">
          <h3 id="ic-handed-h">Envelopes handed to you</h3>
          ${handed.length ? html`<ul class="envelopes" id="ic-handed">${handed}</ul>`
            : html`<p class="muted" id="ic-handed">None yet.</p>`}
        </section>
        ${carry.length ? UI.table(["Kind", "Envelope", "On the front", ""], carry, "Envelopes you carry") : null}
        ${cools.length ? html`<ul class="timers" id="ic-cooldowns" aria-label="Perception cooldowns">${cools.map(function (x) {
            return html`<li key=${x.target}>Next check on ${nameOf(s, x.target)} at ${x.until}</li>`;
          })}</ul>` : null}
        <section class="ic-part sheet" aria-labelledby=${"ic-sheet-" + id}>
          <h3 id=${"ic-sheet-" + id}>Your character: #${c.number} ${c.name || id}</h3>
          ${c.knocked_out && c.wake_due != null ? html`<p class="cooldown">Knocked out: wakes at ${clock(obs, c.wake_due)}</p>` : null}
          ${ctx.flat(plain)}
        </section>
      </div>`;
    });
  }

  function Console(props) {
    var ctx = props.ctx;
    sync(ctx);
    if (!ctx.me.is_referee) {
      return html`<div class="intrigue-console">
        <${GameTime} ctx=${ctx} />
        <${News} list=${news} />
        <${PlayerPanel} ctx=${ctx} />
      </div>`;
    }
    return html`<div class="intrigue-console">
      <h3 class="console-title">Referee's console</h3>
      <${Clock} ctx=${ctx} />
      <${News} list=${news} />
      <${Coming} ctx=${ctx} />
      <${BadgeSearch} ctx=${ctx} />
      <${Perception} ctx=${ctx} />
      <${SkillRoll} ctx=${ctx} />
      <${Contingency} ctx=${ctx} />
      <${CombatTracker} ctx=${ctx} />
    </div>`;
  }

  // ------------------------------------------------------------------ the log
  function event(e, ctx) {
    sync(ctx);
    if (e.kind !== "perception.made") return null;
    var s = ctx.obs.state || {};
    var inside = secret(e, "contents");
    var cool = (s.cooldowns || []).filter(function (c) { return c.perceiver === e.payload.perceiver && c.target === e.payload.target; })[0];
    return html`<p class="handover">${handover(e, s)}</p>
      ${inside ? Object.keys(inside).map(function (id) {
        return html`<p class="envelope" key=${id}>${id + " reads: " + inside[id].contents +
          (inside[id].directions ? " — Directions: " + inside[id].directions : "")}</p>`;
      }) : null}
      ${cool ? html`<p class="muted">Cooldown: the next check on this target at ${cool.until}.</p>` : null}`;
  }

  window.RefGames.intrigue = {Board: Board, Console: Console, event: event};
})();
