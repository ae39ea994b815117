// Burning Kingdoms: its screens on the table page, as Preact components (games/base.js, THE
// CONTRACT). What a faction chooses lives in the components' own state, so a push (another
// faction acting) never discards a half-written slip, its focus or the open form.
//   Console: each faction's private screen — its decisions first (the sealed slip form with
//            the odds of its own pool and of each Persona spent side by side; after the roll,
//            keeping it or spending Fate or Deeds, each option side by side with its own
//            button and what it buys — the chance of winning, tying or losing each engagement,
//            then of each number of successes; a tie-breaker's odds against each root the
//            opponent may choose), then its disposition, artha and scene economy.
//   Board:   the dispositions over the chronicle, and the latest reveal — the slips, each
//            engagement with its odds by artha choice, each faction's roll and what it did
//            with its artha, the resolution.
//   event:   a sealed slip's note; the reveal's engagement odds.
// Every odds shown is the game's own ``odds_of`` (POST /odds), the check the rule rolls.
(function () {
  "use strict";
  var P = window.preact, H = window.preactHooks;
  var html = window.htm.bind(P.h);
  var useState = H.useState, useEffect = H.useEffect, useRef = H.useRef;
  var UI = window.RefUI;
  var SHOWN = 0.001;   // rows less likely than 0.1% at either end of a chart are one row

  // Every event this page has been shown, in order: the log's items are drawn (the event hook
  // runs) before the board, which reads the latest reveal from them. After an undo the log is
  // drawn again from its first event, which clears what came after it.
  var seen = [];
  function remember(e) {
    if (e.number == null) return;
    seen = seen.filter(function (x) { return x.number < e.number; });
    seen.push(e);
  }
  function since(kind) {   // the latest event of ``kind`` and everything after it
    for (var i = seen.length - 1; i >= 0; i--) if (seen[i].kind === kind) return seen.slice(i);
    return [];
  }

  function successes(n) { return n + (n === 1 ? " success" : " successes"); }
  function artha(a) { return a ? "Fate " + a.fate + " · Persona " + a.persona + " · Deeds " + a.deeds : "—"; }
  function words(name) { return String(name).replace(/_/g, " "); }
  function slug(s) { return String(s).replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "x"; }
  function J(v) { return JSON.stringify(v); }
  // A faction by its name as the table knows it ("the Elves"), its id where it has none.
  var factionNames = {};
  function named(fid) { return factionNames[fid] || fid; }
  function slipWords(x) {
    if (!x) return "—";
    var t = (x.targets || []).length ? " against " + x.targets.map(named).join(" and ") : "";
    var extra = [];
    if (x.persona) extra.push(x.persona + " Persona");
    if (x.deeds_before) extra.push("Deeds");
    if ((x.forks || []).length) extra.push("FoRKs " + x.forks.join(", "));
    if (x.defence) extra.push(x.defence + " dice to defence");
    if (x.downtime) extra.push(x.downtime + " to downtime");
    if (x.helps) extra.push("helps " + named(x.helps));
    return x.maneuver + " with " + x.skill + t + (extra.length ? " (" + extra.join("; ") + ")" : "");
  }

  // An odds chart of the outcomes that matter: at either end, a run of two or more rows each
  // less likely than 0.1% is one row ("7+ successes", "2 or fewer"), its chance their sum.
  function grouped(odds) {
    var keys = Object.keys(odds || {}), p = keys.map(function (k) { return Ref.fraction(odds[k]); });
    var lo = 0, hi = keys.length;
    while (hi - 1 > lo && p[hi - 1] < SHOWN) hi--;
    while (lo < hi - 1 && p[lo] < SHOWN) lo++;
    var out = {};
    function sum(a, b) {
      var t = 0;
      for (var i = a; i < b; i++) t += p[i];
      return String(t);
    }
    function more(k) { var m = /^(\d+)\+?(.*)$/.exec(k); return m ? m[1] + "+" + m[2] : k + " or more"; }
    function fewer(k) { var m = /^(\d+)(.*)$/.exec(k); return m ? m[1] + " or fewer" + m[2] : k + " or less"; }
    if (lo >= 2) out[fewer(keys[lo - 1])] = sum(0, lo); else lo = 0;
    var tail = keys.length - hi >= 2;
    var end = tail ? hi : keys.length;
    for (var i = lo; i < end; i++) out[keys[i]] = odds[keys[i]];
    if (tail) out[more(keys[hi])] = sum(hi, keys.length);
    return out;
  }
  function chart(ctx, odds, hit, caption) { return ctx.oddsChart(grouped(odds), hit, caption); }

  // The odds ``odds_of`` gives for ``kind`` with ``params`` (debounced; the last asked wins),
  // asked again when the table moves on. → {list, fresh (answers these params), asked}
  function useOdds(ctx, kind, actor, params) {
    var ask = J([kind, actor, params]);
    var st = useState({ask: null, list: null}), got = st[0], setGot = st[1];
    var alive = useRef(true), latest = useRef(null);
    latest.current = ask;
    useEffect(function () { return function () { alive.current = false; }; }, []);
    useEffect(function () {
      var timer = setTimeout(function () {
        ctx.odds(kind, actor, params).then(function (list) {
          if (alive.current && latest.current === ask) setGot({ask: ask, list: list || []});
        });
      }, 120);
      return function () { clearTimeout(timer); };
    }, [ask, ctx.obs.version]);
    return {list: got.list, fresh: got.ask === ask};
  }

  function OddsList(props) {
    var ctx = props.ctx, list = props.list || [];
    return list.map(function (o, i) {
      return html`<div class="roll" key=${i}>
        <div><strong>Odds: ${o.label}</strong> <span class="muted">${o.dice}</span></div>
        ${chart(ctx, o.odds, null, "Odds of " + o.label)}
      </div>`;
    });
  }
  function oddsWords(list) {
    var o = (list || [])[0];
    if (!o) return "The rules would refuse this as it stands.";
    var g = grouped(o.odds);
    return "Odds now: " + Object.keys(g).map(function (k) { return k + " " + Ref.pct(Ref.fraction(g[k])); }).join(", ");
  }

  // ------------------------------------------------------------------ the sealed slip form
  function valueOf(dom, v) {
    if (dom.one_of) {
      var at = dom.one_of.map(J).indexOf(J(v));
      return at >= 0 ? dom.one_of[at] : dom.one_of[0];
    }
    if (dom.between) return v == null ? String(dom.between[0]) : v;
    if (dom.some_of) return (v || []).filter(function (x) { return dom.some_of.map(J).indexOf(J(x)) >= 0; });
    return v;
  }
  function sent(dom, v) {
    if (dom.between) return v === "" || isNaN(Number(v)) ? dom.between[0] : Number(v);
    return v;
  }

  function SlipForm(props) {
    var ctx = props.ctx, fid = props.fid, offers = props.offers, pre = "bk-" + fid + "-";
    // what is written, per maneuver (switching maneuvers keeps each one's fields)
    var draft = useRef({maneuver: null, by: {}}).current;
    var bump = useState(0)[1];
    var touched = useRef(false);
    var say = useState(""), said = say[0], setSaid = say[1];
    var names = offers.map(function (c) { return c.params.maneuver.one_of[0]; });
    if (names.indexOf(draft.maneuver) < 0) draft.maneuver = names[0];
    var choice = offers[names.indexOf(draft.maneuver)];
    var vals = draft.by[draft.maneuver] = draft.by[draft.maneuver] || {};
    var fields = Object.keys(choice.params).filter(function (n) { return n !== "maneuver"; });
    fields.forEach(function (n) { vals[n] = valueOf(choice.params[n], vals[n]); });
    function params(override) {
      var p = {maneuver: draft.maneuver};
      fields.forEach(function (n) { p[n] = sent(choice.params[n], vals[n]); });
      return Object.assign(p, override || {});
    }
    function changed() { touched.current = true; bump(function (n) { return n + 1; }); }
    var odds = useOdds(ctx, "write_slip", fid, params());
    useEffect(function () {
      if (odds.fresh && touched.current) { touched.current = false; setSaid(oddsWords(odds.list)); }
    }, [odds.fresh, odds.list]);

    function field(n) {
      var dom = choice.params[n], id = pre + n, label = words(n);
      if (dom.one_of) {
        return html`<div class="stack" key=${n}><label for=${id}>${label}</label>
          <select id=${id} value=${String(vals[n])} onChange=${function (ev) {
            vals[n] = dom.one_of[ev.target.selectedIndex]; changed(); }}>
            ${dom.one_of.map(function (v) { return html`<option key=${J(v)} value=${String(v)}>${String(v)}</option>`; })}
          </select></div>`;
      }
      if (dom.between) {
        return html`<div class="stack" key=${n}>
          <label for=${id}>${label} (${dom.between[0]} to ${dom.between[1]})</label>
          <input id=${id} type="number" min=${dom.between[0]} max=${dom.between[1]} inputmode="numeric"
            value=${vals[n]} onInput=${function (ev) { vals[n] = ev.target.value; changed(); }} /></div>`;
      }
      if (dom.some_of) {
        var hint = dom.least === dom.most && dom.most ? " (" + dom.most + ")" : dom.most ? " (at most " + dom.most + ")" : "";
        return html`<fieldset id=${id} key=${n}><legend>${label + hint}</legend>
          ${dom.some_of.map(function (v, j) {
            var on = vals[n].map(J).indexOf(J(v)) >= 0;
            return html`<div class="check" key=${J(v)}>
              <input type="checkbox" id=${id + "-" + j} value=${String(j)} checked=${on}
                onChange=${function (ev) {
                  vals[n] = dom.some_of.filter(function (x) {
                    return x === v ? ev.target.checked : vals[n].map(J).indexOf(J(x)) >= 0;
                  });
                  changed();
                }} />
              <label for=${id + "-" + j}>${String(v)}</label></div>`;
          })}</fieldset>`;
      }
      return null;
    }

    var persona = choice.params.persona && choice.params.persona.between;
    return html`<form class="slip" aria-labelledby=${pre + "h"} data-maneuver=${draft.maneuver}
        onSubmit=${function (ev) {
          ev.preventDefault();
          ctx.act("write_slip", fid, params()).then(function (taken) {
            var el = taken && document.getElementById("bk-sealed-" + fid);
            if (el) el.focus();
          });
        }}>
      <h4 id=${pre + "h"}>${props.sealed ? "Rewrite the sealed slip" : "Write the sealed slip"}</h4>
      <div class="stack"><label for=${pre + "maneuver"}>Maneuver</label>
        <select id=${pre + "maneuver"} value=${draft.maneuver}
          onChange=${function (ev) { draft.maneuver = names[ev.target.selectedIndex]; changed(); }}>
          ${names.map(function (n) { return html`<option key=${n} value=${n}>${n}</option>`; })}
        </select></div>
      ${fields.map(field)}
      <div class=${"odds-box" + (odds.fresh ? "" : " stale")} id=${pre + "odds"} aria-busy=${odds.fresh ? "false" : "true"}>
        ${odds.list && !odds.list.length && odds.fresh
          ? html`<p class="muted">The rules would refuse this slip as it stands.</p>`
          : html`<${OddsList} ctx=${ctx} list=${odds.list} />`}
      </div>
      ${persona && persona[1] > 0 ? html`<${PersonaSideBySide} ctx=${ctx} fid=${fid} pre=${pre}
          most=${persona[1]} chosen=${Number(vals.persona) || 0} params=${params}
          choose=${function (k) { vals.persona = String(k); changed(); }} />` : null}
      <p class="sr-only" role="status">${said}</p>
      <button type="submit" id=${pre + "seal"}>${props.sealed ? "Seal the new slip" : "Seal the slip"}</button>
    </form>`;
  }

  // The slip's odds with each Persona it may spend (0 to its most), side by side.
  function PersonaSideBySide(props) {
    var ks = [];
    for (var k = 0; k <= props.most; k++) ks.push(k);
    return html`<div class="bk-options-box">
      <h5 id=${props.pre + "persona-h"}>Persona before the roll, side by side</h5>
      <div class="bk-options" id=${props.pre + "persona-odds"} role="group" aria-labelledby=${props.pre + "persona-h"}>
        ${ks.map(function (k) {
          return html`<${PersonaColumn} key=${k} k=${k} ctx=${props.ctx} fid=${props.fid} pre=${props.pre}
            chosen=${props.chosen === k} params=${props.params({persona: k})} choose=${props.choose} />`;
        })}
      </div></div>`;
  }
  function PersonaColumn(props) {
    var ctx = props.ctx, k = props.k;
    var odds = useOdds(ctx, "write_slip", props.fid, props.params);
    var title = k ? k + " Persona" : "no Persona";
    var first = (odds.list || [])[0];
    return html`<div class=${"bk-option" + (props.chosen ? " chosen" : "")}>
      <strong>${title}</strong>
      ${first ? html`<div class="muted">${first.dice}</div>` : null}
      ${first ? chart(ctx, first.odds, null, "Odds with " + title + ": " + first.label) :
        odds.fresh ? html`<p class="muted">Not allowed.</p>` : null}
      <button type="button" class="ghost" id=${props.pre + "persona-" + k} aria-pressed=${props.chosen ? "true" : "false"}
        onClick=${function () { props.choose(k); }}>${props.chosen ? "Chosen" : "Choose " + title}</button>
    </div>`;
  }

  // ------------------------------------------------------------------ after the roll
  // Keep the roll or spend Fate, Deeds or both: each option's odds side by side, each with its
  // own button (the same actions as the forms below).
  function paramsOf(c) {
    var p = {};
    Object.keys(c.params || {}).forEach(function (n) {
      var d = c.params[n];
      if (d.one_of && d.one_of.length) p[n] = d.one_of[0];
    });
    return p;
  }
  function ArthaChoice(props) {
    var ctx = props.ctx, fid = props.fid, r = props.roll;
    var options = ctx.choices("keep", fid).concat(ctx.choices("spend_artha", fid));
    if (!options.length) return null;
    var hid = "bk-" + fid + "-artha-h";
    return html`<section class="bk-decision" aria-labelledby=${hid}>
      <h4 id=${hid}>Your roll: ${successes(r.successes)}${r.attack_pool ? ", attack " + r.attack : ""} — keep it or spend artha</h4>
      <p class="muted">Each choice: the chance it wins, ties or loses each engagement your roll is in (against the other rolls as they stand), then the chance of each number of successes it ends with. A tie goes to the defender unless both sides agree to a tie-breaker.</p>
      <div class="bk-options" id=${"bk-" + fid + "-artha"}>
        ${options.map(function (c) {
          return html`<${ArthaOption} key=${c.kind + "|" + (c.label || "")} c=${c} ctx=${ctx} fid=${fid} />`;
        })}
      </div></section>`;
  }
  // What an option buys: the chance of winning, tying or losing each engagement the roll is
  // in (the game's previews whose outcomes are win/tie/lose or success/failure), first.
  var OUTCOMES = ["win", "tie", "lose", "success", "failure"];
  function isOutcome(o) {
    return Object.keys(o.odds || {}).every(function (k) { return OUTCOMES.indexOf(k) >= 0; });
  }
  function ArthaOption(props) {
    var ctx = props.ctx, c = props.c, fid = props.fid, params = paramsOf(c);
    var asked = useOdds(ctx, c.kind, fid, params);
    var list = (c.odds && c.odds.length) ? c.odds : (asked.list || []);
    var keep = c.kind === "keep";
    var title = keep ? "No artha" : c.label.replace(/^spend /, "");
    var id = "bk-" + fid + "-" + (keep ? "keep" : "spend-" + slug(title.toLowerCase()));
    var outcomes = list.filter(isOutcome), counts = list.filter(function (o) { return !isOutcome(o); });
    return html`<div class="bk-option" data-option=${title}>
      <strong>${title}</strong>
      ${outcomes.map(function (o, i) {
        return html`<div class="bk-outcome" key=${"o" + i}>
          <div class="muted">${o.label.replace(/, with .*$/, "")}</div>
          ${ctx.oddsChart(o.odds, null, "Outcome with " + title + ": " + o.label)}</div>`;
      })}
      ${counts.map(function (o, i) {
        return html`<div key=${"c" + i}><div class="muted">${o.dice}</div>${chart(ctx, o.odds, null, "Odds of " + o.label)}</div>`;
      })}
      <button type="button" id=${id} onClick=${function () { ctx.act(c.kind, fid, params); }}>
        ${keep ? "Keep the roll" : "Spend " + title}</button>
    </div>`;
  }

  // A tied versus test: the tie-breaker on a root stat of the skill this faction used, with its
  // odds against each root the opponent may choose (or the one it agreed to), before it agrees.
  function TieBreak(props) {
    var ctx = props.ctx, fid = props.fid, c = props.c, s = ctx.obs.state || {};
    var opp = c.params.opponent.one_of, roots = c.params.root.one_of;
    var st = useState({opponent: opp[0], root: roots[0]}), v = st[0], setV = st[1];
    var pick = {opponent: opp.indexOf(v.opponent) >= 0 ? v.opponent : opp[0],
      root: roots.indexOf(v.root) >= 0 ? v.root : roots[0]};
    var odds = useOdds(ctx, "tie_break", fid, pick);
    var pre = "bk-" + fid + "-tie-", theirs = (s.tie_offers || {})[pick.opponent];
    // each side tests a root of the skill its own test used (RULINGS, Round 3)
    var skill = ((s.rolls || {})[fid] || {}).skill;
    var agreed = theirs && theirs[0] === fid;
    function set(k) { return function (ev) { var n = Object.assign({}, pick); n[k] = ev.target.value; setV(n); }; }
    return html`<section class="bk-decision" id=${"bk-" + fid + "-tie"} aria-labelledby=${pre + "h"}>
      <h4 id=${pre + "h"}>A tied versus test with ${named(pick.opponent)}: a tie-breaker?</h4>
      <p class="muted">${agreed ? named(pick.opponent) + " agreed to it, on " + theirs[1] + "." :
        "Rolled once both sides agree; the extra successes count for the maneuver."}</p>
      <div class="grid2">
        <div class="stack"><label for=${pre + "opponent"}>Opponent</label>
          <select id=${pre + "opponent"} value=${pick.opponent} onChange=${set("opponent")}>
            ${opp.map(function (o) { return html`<option key=${o} value=${o}>${named(o)}</option>`; })}</select></div>
        <div class="stack"><label for=${pre + "root"}>Root stat${skill ? " of " + skill : ""}</label>
          <select id=${pre + "root"} value=${pick.root} onChange=${set("root")}>
            ${roots.map(function (o) { return html`<option key=${o} value=${o}>${o}</option>`; })}</select></div>
      </div>
      <div class="bk-options" id=${pre + "odds"}>
        ${(odds.list || []).map(function (o, i) {
          return html`<div class="bk-option" key=${i}><strong>${o.label.replace(/^[^:]*: /, "")}</strong>
            <div class="muted">${o.dice}</div>${chart(ctx, o.odds, null, "Odds of " + o.label)}</div>`;
        })}
      </div>
      <button type="button" id=${pre + "agree"} onClick=${function () { ctx.act("tie_break", fid, pick); }}>
        Agree to the tie-breaker on ${pick.root}</button>
    </section>`;
  }

  // ------------------------------------------------------------------ a faction's screen
  function FactionPanel(props) {
    var ctx = props.ctx, fid = props.fid, s = ctx.obs.state || {}, x = (s.factions || {})[fid];
    if (!x) return null;
    var slip = (s.slips || {})[fid];
    var offers = ctx.choices("write_slip", fid);
    var r = (s.rolls || {})[fid];
    var ties = ctx.choices("tie_break", fid);
    var mine = (s.scenes || []).filter(function (sc) { return sc.faction === fid; });
    var open = ctx.choices("scene", fid).map(function (c) { return c.label.replace(/^play (an?) /, ""); });
    var kv = [["Disposition", x.disposition + " (started at " + x.starting_disposition + "; cap " + s.cap + ")"],
      ["Artha", artha(x.leader && x.leader.artha)]];
    if (x.second) kv.push(["2iC artha", artha(x.second.artha)]);
    kv.push(["Maneuver", s.maneuver + " — " + s.phase]);
    kv.push(["Scenes played", mine.length ? mine.map(function (sc) { return sc.kind; }).join(", ") : "none yet"]);
    kv.push(["Scenes left", (s.passed || []).indexOf(fid) >= 0 ? "passed" : open.length ? open.join(", ") : "—"]);
    if ((x.assessed || []).length) kv.push(["Assessed", x.assessed.join(", ")]);
    if (Object.keys(x.infiltrated || {}).length) kv.push(["Infiltrated", Object.keys(x.infiltrated).join(", ")]);
    if (x.sapped) kv.push(["Sapped", x.sapped + "D"]);
    if (r) kv.push(["This maneuver's roll", successes(r.successes) + (r.decided ? " (settled)" : " — keep it or spend artha")]);
    return html`<section class="bk-faction" aria-labelledby=${"bk-f-" + fid}>
      <h3 id=${"bk-f-" + fid}>Your faction: ${x.name || fid}${x.leader ? ", led by " + x.leader.name : ""}</h3>
      ${r && !r.decided && s.phase === "rolled" ? html`<${ArthaChoice} ctx=${ctx} fid=${fid} roll=${r} />` : null}
      ${ties.map(function (c) { return html`<${TieBreak} key=${"tie"} ctx=${ctx} fid=${fid} c=${c} />`; })}
      ${slip ? html`<div class="sealed" id=${"bk-sealed-" + fid} role="status" tabindex="-1">
          <strong>Sealed slip: </strong>${slipWords(slip)}
          <p class="muted">${s.phase === "maneuver" ? "Only your faction sees it until the reveal." : "Revealed."}</p>
        </div>` : null}
      ${offers.length ? html`<${SlipForm} key="slip" ctx=${ctx} fid=${fid} offers=${offers} sealed=${!!slip} />` : null}
      <dl class="kv bk-status">${kv.map(function (p) {
        return html`<${P.Fragment} key=${p[0]}><dt>${p[0]}</dt><dd>${p[1]}</dd></${P.Fragment}>`;
      })}</dl>
    </section>`;
  }

  function Console(props) {
    var ctx = props.ctx, plays = (ctx.me && ctx.me.plays) || [];
    var s = ctx.obs.state || {};
    Object.keys(s.factions || {}).forEach(function (fid) { factionNames[fid] = s.factions[fid].name || fid; });
    var mine = plays.filter(function (fid) { return (s.factions || {})[fid]; });
    if (!mine.length) return null;
    return html`<div class="kingdoms-console">
      ${mine.map(function (fid) { return html`<${FactionPanel} key=${fid} ctx=${ctx} fid=${fid} />`; })}
    </div>`;
  }

  // ------------------------------------------------------------------ the shared board
  function Dispositions(props) {
    var s = props.s, f = s.factions || {}, hist = s.history || [];
    var top = Math.max.apply(null, [s.cap || 1].concat(Object.keys(f).map(function (id) { return f[id].disposition; })));
    var heads = ["Faction", "Start"].concat(hist.map(function (x) { return "After " + x.maneuver; }), ["Now"]);
    var rows = Object.keys(f).map(function (id) {
      var x = f[id], w = Math.max(0, Math.min(100, 100 * x.disposition / top)).toFixed(1) + "%";
      var now = html`<span class="bk-now"><strong>${String(x.disposition)}</strong>${x.out ? " out" :
        html`<span class="dispo" aria-hidden="true"><span class="fill" style=${{width: w}}></span></span>`}</span>`;
      return [(x.name || id) + (x.leader ? " (" + x.leader.name + ")" : "")].concat(
        [x.starting_disposition], hist.map(function (m) { return (m.dispositions || {})[id]; }), [now]);
    });
    return UI.table(heads, rows, "Dispositions over the chronicle (maneuver " + s.maneuver + ", " + s.phase + ")");
  }

  function Reveal(props) {
    var s = props.s, ctx = props.ctx;
    var after = since("slips.revealed");
    if (!after.length) return null;
    var rev = after[0].payload || {};
    var slips = UI.table(["Faction", "Slip", ""], (rev.order || []).map(function (fid) {
      return [named(fid), slipWords((rev.slips || {})[fid]), (rev.void || {})[fid] ? "void: " + rev.void[fid] :
        (rev.cannot_act || []).indexOf(fid) >= 0 ? "cannot act" : ""];
    }), "The slips, in seat order");
    var odds = rev.odds || [];
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
    var rolls = UI.table(["Faction", "Rolled", "Artha after the roll"], Object.keys(rolled).map(function (fid) {
      var r = (s.rolls || {})[fid];
      return [named(fid), rolled[fid], choice[fid] || (waiting && r && !r.decided ? "deciding…" : "none to spend: the roll stands")];
    }), "Each faction's roll and artha choice");
    var resolved = after.filter(function (e) { return e.kind === "maneuver.resolved"; })[0];
    var told = after.filter(function (e) {
      return ["effect.applied", "conqueror.named", "chronicle.won", "maneuver.ended"].indexOf(e.kind) >= 0;
    });
    return html`<section class="reveal" aria-labelledby="bk-reveal-h">
      <h3 id="bk-reveal-h">The reveal of maneuver ${rev.maneuver_number} (read by ${named(rev.reader)})</h3>
      ${slips}
      ${odds.length ? html`<h4>Engagements and their odds, by artha choice</h4>
        <div class="engagements">${odds.map(function (o, i) {
          var against = o.kind === "versus" ? o.dice + "D against " + named(o.target) + ": " + o.against_dice + "D" :
            o.dice + "D against Ob " + o.obstacle + (o.needed != null && o.needed !== o.obstacle ? " (needs " + o.needed + ")" : "");
          var title = named(o.attacker) + (o.target ? " against " + named(o.target) : "") + " · " + o.kind + (o.cell && o.cell !== "-" ? " (" + o.cell + ")" : "");
          return html`<div class="roll" key=${i}><div><strong>${title}</strong> <span class="muted">${against}</span></div>
            ${chart(ctx, o.chance || {}, null, "Chance of " + title + ", by artha spent after the roll")}</div>`;
        })}</div>` : null}
      ${rolls}
      ${resolved ? UI.table(["Engagement", "Maneuver", "Successes", "Result"], (resolved.payload.engagements || []).map(function (e) {
          return [named(e.attacker) + (e.target ? " against " + named(e.target) : ""), e.maneuver + " (" + e.kind + ")",
            e.successes + (e.kind === "versus" ? " vs " + e.defence : " vs Ob " + e.obstacle),
            e.success ? "success, net " + e.net : "failure"];
        }), "The resolution") : null}
      ${resolved ? html`<ol class="narrated" aria-label="The resolution narrated">
        ${told.map(function (e) { return html`<li key=${e.number}>${e.text || e.kind}</li>`; })}</ol>` : null}
    </section>`;
  }

  function Board(props) {
    var s = props.state, ctx = props.ctx;
    Object.keys(s.factions || {}).forEach(function (fid) { factionNames[fid] = s.factions[fid].name || fid; });
    var rest = UI.without(s, ["factions", "slips", "history", "rolls", "tie_offers", "void", "scenes"]);
    return html`<div class="kingdoms">
      <${Dispositions} s=${s} />
      <${Reveal} s=${s} ctx=${ctx} />
      <details class="more"><summary>Everything else on the table</summary>${ctx.generic(rest)}</details>
    </div>`;
  }

  // ------------------------------------------------------------------ the log
  function event(e, ctx) {
    remember(e);
    if (e.kind === "slip.written") {
      var slip = UI.secret(e, "slip");
      return html`<p class="sealed-note">${slip ? "Your sealed slip: " + slipWords(slip) :
        "A slip sealed: its contents stay hidden until the reveal."}</p>`;
    }
    if (e.kind === "slips.revealed") {
      return (e.payload.odds || []).map(function (o, i) {
        return html`<div key=${i}>${chart(ctx, o.chance || {}, null,
          "Chance " + named(o.attacker) + (o.target ? " against " + named(o.target) : "") + ", by artha")}</div>`;
      });
    }
    return null;
  }

  window.RefGames.kingdoms = {Board: Board, Console: Console, event: event, grouped: grouped};
})();
