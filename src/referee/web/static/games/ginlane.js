// Gin Lane: its screens on the table page, on the new contract (Preact components,
// games/base.js):
//   Board:   the zones with who stands where; per character a card: the stress tracks as boxes
//            (read out in words), the consequences, the sheet's Aspects, those placed on them;
//            then the Aspects in play with their free tags.
//   Console: the tagging roll: a target, the skill to attack with (the weapon's own unless
//            another is picked), the Aspects to tag, and the exact odds of each tagging choice
//            side by side (none, each Aspect alone, all those ticked), each asked of the server
//            (POST /odds) — the same check the attack will roll — each column with its button.
//            What is picked is the component's own state: a push keeps it, and the focus.
//   event:   a Wait's plan marked as seen only by the waiting character's seat.
(function () {
  "use strict";
  var html = window.htm.bind(window.preact.h);
  var hooks = window.preactHooks;
  var useState = hooks.useState, useEffect = hooks.useEffect, useRef = hooks.useRef;
  var UI = window.RefUI;

  function stars(n) {
    var out = "";
    for (var i = 0; i < n; i++) out += "★";
    return out;
  }

  function AspectChip(props) {
    var a = props.a, marks = stars(a.free_tags);
    return html`<span class="chip" title=${a.free_tags + " free tag(s), set by " + (a.setter || "—")}>${a.name}${marks ? " " : ""}${marks
      ? html`<span aria-label=${a.free_tags + " free tags"}>${marks}</span>` : null}</span>`;
  }
  function chips(list) {
    return list.map(function (a, i) { return html`<${AspectChip} key=${a.name + "@" + a.on + "#" + i} a=${a} />`; });
  }

  function Person(props) {
    var id = props.id, c = props.c, on = props.on;
    var cons = Object.keys(c.consequences || {}).map(function (k) { return k + ": " + c.consequences[k]; });
    var badges = [c.side, c.weapon, c.taken_out ? "taken out" : "", c.waiting ? "waiting" : "",
      c.full_defence ? "full defence" : "", c.block ? "block (" + c.block.kind + ")" : ""].filter(Boolean);
    return html`<li class=${"gl-person" + (c.taken_out ? " out" : "")}>
      <div><strong>${id}</strong> ${badges.map(function (b) { return html`<span class="badge" key=${b}>${b}</span>`; })}<span class="muted"> pool ${c.pool}</span></div>
      <ul class="gl-tracks">
        ${Object.keys(c.tracks || {}).map(function (t) {
          var length = (c.track_lengths || {})[t] || 0, used = c.tracks[t] || [];
          return html`<li key=${t}><span class="gl-track-name">${t}</span> <span class="gl-boxes" aria-hidden="true">${UI.boxes(used, length)}</span><span class="sr-only">${used.length + " of " + length + " boxes checked" + (used.length ? ": " + used.join(", ") : "")}</span></li>`;
        })}
      </ul>
      ${cons.length ? html`<div><strong>Consequences: </strong>${cons.join("; ")}</div>` : null}
      ${(c.aspects || []).length ? html`<div><strong>Aspects: </strong>${c.aspects.join(", ")}</div>` : null}
      ${(c.free_aspects || []).length ? html`<div class="gl-free"><strong>Free Aspects: </strong>${c.free_aspects.join(", ")}</div>` : null}
      ${(c.possessions || []).length ? html`<div><strong>Possessions: </strong>${c.possessions.join(", ")}</div>` : null}
      ${on.length ? html`<div><strong>On them: </strong>${chips(on)}</div>` : null}
    </li>`;
  }

  // the rest of the state for the generic panel, without what the board shows and empty records
  function rest(s) {
    var out = UI.without(s, ["characters", "aspects", "aspect_names", "order", "round", "turn"]);
    Object.keys(out).forEach(function (k) {
      var v = out[k];
      if (v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length) delete out[k];
    });
    return out;
  }

  function Board(props) {
    var s = props.state, ctx = props.ctx;
    var chars = s.characters || {};
    var placed = s.aspects || [];
    var zones = {};
    Object.keys(chars).forEach(function (id) { (zones[chars[id].zone] = zones[chars[id].zone] || []).push(id); });
    var scene = placed.filter(function (a) { return !chars[a.on] && !zones[a.on]; });
    return html`<div class="gl-board">
      <h3>Zones${s.round ? " — round " + s.round + (s.turn ? ", " + s.turn + "'s turn" : "") : ""}</h3>
      ${(s.order || []).length ? html`<p class="muted">Order: ${s.order.join(" → ")}</p>` : null}
      <div class="gl-zones">
        ${Object.keys(zones).sort().map(function (z) {
          var here = placed.filter(function (a) { return a.on === z; });
          return html`<section class="gl-zone" key=${z} aria-label=${"Zone " + z}>
            <h4>${z}</h4>
            ${here.length ? html`<div class="muted">Aspects here: ${chips(here)}</div>` : null}
            <ul class="gl-people">
              ${zones[z].map(function (id) {
                return html`<${Person} key=${id} id=${id} c=${chars[id]} on=${placed.filter(function (a) { return a.on === id; })} />`;
              })}
            </ul>
          </section>`;
        })}
      </div>
      <h3>Aspects in play</h3>
      ${placed.length
        ? html`<ul class="gl-aspects">${placed.map(function (a, i) {
            return html`<li key=${i}><${AspectChip} a=${a} />${" on " + a.on + " — " + a.free_tags + " free tag" + (a.free_tags === 1 ? "" : "s") + (a.setter ? ", set by " + a.setter : "")}</li>`;
          })}</ul>`
        : html`<p class="muted">None yet: a manoeuvre places one, with a free tag.</p>`}
      ${scene.length ? html`<p class="muted">On the scene: ${scene.map(function (a) { return a.name; }).join(", ")}</p>` : null}
      ${ctx.generic(rest(s))}
    </div>`;
  }

  // ---------------------------------------------------------------- the tagging roll
  // The Aspects the attacker may tag: the sheet's (those given at creation, free, among them),
  // and those placed on the attacker, the target, the zone or the scene.
  function taggable(state, actor, target) {
    var me = (state.characters || {})[actor] || {};
    var out = [];
    (me.aspects || []).forEach(function (a) { out.push({name: a, note: "your Aspect"}); });
    (me.free_aspects || []).forEach(function (a) { out.push({name: a, note: "yours, free"}); });
    (me.possessions || []).forEach(function (a) { out.push({name: a, note: "your possession"}); });
    var near = [actor, target, me.zone, "scene"];
    (state.aspects || []).forEach(function (a) {
      if (near.indexOf(a.on) >= 0 && !out.some(function (x) { return x.name === a.name; })) {
        out.push({name: a.name, note: "on " + a.on + (a.free_tags ? ", " + a.free_tags + " free" : "")});
      }
    });
    return out;
  }

  // the tagging choices compared: none, each Aspect alone, and all those ticked
  function options(names, ticked) {
    var out = [[]];
    names.forEach(function (n) { out.push([n]); });
    if (ticked.length > 1) out.push(ticked.slice());
    return out;
  }

  function paramsOf(target, skill, tags) {
    var params = {target: target};
    if (skill) params.skill = skill;
    if (tags.length) params.tags = tags;
    return params;
  }

  // One column: a tagging choice's odds (null while they are first asked) and its button.
  function Column(props) {
    var ctx = props.ctx, tags = props.tags, list = props.odds, target = props.target;
    var refused = list && !list.length;
    return html`<div class=${"gl-column roll" + (props.chosen ? " chosen" : "")}>
      <strong>${tags.length ? "Tag " + tags.join(" + ") : "No tags"}</strong>
      <div class="gl-odds">
        ${list == null ? "…"
          : refused ? html`<p class="muted">Not allowed (the skill's reach, the pool, or the Aspect).</p>`
          : list.map(function (o, i) {
              return html`<div key=${i}><div class="muted">${o.dice}</div>${ctx.oddsChart(o.odds, null, "Odds of " + o.label)}</div>`;
            })}
      </div>
      <button type="button" id=${props.id} disabled=${refused}
        onClick=${function () { ctx.act("attack", props.actor, props.params); }}>
        ${"Attack " + target + (props.params.skill ? " with " + props.params.skill : "") +
          (tags.length ? ", tagging " + tags.join(" + ") : ", no tags")}</button>
    </div>`;
  }

  function Console(props) {
    var ctx = props.ctx;
    var picked = useState({actor: null, target: null, skill: "", tags: []});
    var mine = picked[0], setMine = picked[1];
    var answers = useState({}), cache = answers[0], setCache = answers[1];
    var asked = useRef({});

    var s = ctx.obs.state || {};
    var attacks = ctx.choices("attack");
    var c = attacks.filter(function (x) { return x.actor === mine.actor; })[0] || attacks[0];
    var actor = c ? c.actor : null;
    var actors = [];
    attacks.forEach(function (x) { if (actors.indexOf(x.actor) < 0) actors.push(x.actor); });
    var targets = c ? c.params.target.one_of : [];
    var target = targets.indexOf(mine.target) >= 0 ? mine.target : targets[0];
    var me = (s.characters || {})[actor] || {};
    var skills = Object.keys(me.skills || {});
    var skill = skills.indexOf(mine.skill) >= 0 ? mine.skill : "";
    var aspects = c ? taggable(s, actor, target) : [];
    var names = aspects.map(function (a) { return a.name; });
    var tags = names.filter(function (n) { return mine.tags.indexOf(n) >= 0; });   // in the Aspects' order
    // each column's odds are kept by what it asks (actor and params): a push shows them until
    // the answer for the new version comes (no flicker), and each is asked once per version
    var version = ctx.obs.version;
    var columns = options(names, tags).map(function (t) {
      var params = paramsOf(target, skill, t);
      return {tags: t, params: params, key: JSON.stringify([actor, params])};
    });
    var wanted = version + "\n" + columns.map(function (x) { return x.key; }).join("\n");

    useEffect(function () {
      columns.forEach(function (x) {
        if (asked.current[x.key] === version) return;
        asked.current[x.key] = version;
        ctx.odds("attack", actor, x.params).then(function (list) {
          if (asked.current[x.key] !== version) return;   // a later version's answer is coming
          setCache(function (was) { var next = Object.assign({}, was); next[x.key] = list || []; return next; });
        });
      });
    }, [wanted]);

    if (!c) return null;
    function set(name, value) {
      setMine(function (was) { var next = Object.assign({}, was); next[name] = value; return next; });
    }
    function tick(name, on) {
      set("tags", names.filter(function (n) { return n === name ? on : tags.indexOf(n) >= 0; }));
    }
    var chosenKey = JSON.stringify(tags);
    return html`<section class="console gl-tagging" aria-labelledby="gl-tag-h">
      <h3 id="gl-tag-h">Attack — the odds of each tagging choice</h3>
      <div class="gl-pickers">
        ${actors.length > 1 ? html`<div class="stack">
          <label for="gl-actor">Who attacks</label>
          <select id="gl-actor" value=${actor} onChange=${function (ev) { set("actor", ev.target.value); }}>
            ${actors.map(function (x) { return html`<option key=${x} value=${x}>${x}</option>`; })}
          </select></div>` : null}
        <div class="stack">
          <label for="gl-target">${actor} attacks</label>
          <select id="gl-target" value=${target} onChange=${function (ev) { set("target", ev.target.value); }}>
            ${targets.map(function (t) { return html`<option key=${t} value=${t}>${t}</option>`; })}
          </select>
        </div>
        <div class="stack">
          <label for="gl-skill">with the skill</label>
          <select id="gl-skill" value=${skill} onChange=${function (ev) { set("skill", ev.target.value); }}>
            <option value="">${"the " + (me.weapon || "weapon") + "'s own"}</option>
            ${skills.map(function (k) { return html`<option key=${k} value=${k}>${k + " (" + me.skills[k] + ")"}</option>`; })}
          </select>
        </div>
      </div>
      <fieldset id="gl-tags">
        <legend>Aspects to tag (a point each unless free)</legend>
        ${aspects.length ? null : html`<p class="muted">No Aspect to tag here.</p>`}
        ${aspects.map(function (a, i) {
          return html`<div class="check" key=${a.name}>
            <input type="checkbox" id=${"gl-tag-" + i} value=${a.name} checked=${tags.indexOf(a.name) >= 0}
              onChange=${function (ev) { tick(a.name, ev.target.checked); }} />
            <label for=${"gl-tag-" + i}>${a.name + " (" + a.note + ")"}</label>
          </div>`;
        })}
      </fieldset>
      <div class="gl-columns" id="gl-columns" aria-live="polite">
        ${columns.map(function (x, i) {
          return html`<${Column} key=${JSON.stringify(x.tags)} id=${"gl-go-" + i} ctx=${ctx} actor=${actor} target=${target}
            tags=${x.tags} params=${x.params} odds=${cache[x.key]} chosen=${JSON.stringify(x.tags) === chosenKey} />`;
        })}
      </div>
    </section>`;
  }

  function event(e) {
    var plan = UI.secret(e, "plan") || (e.payload || {}).plan;
    if (e.kind !== "waiting" || !plan) return null;
    return html`<div class="secret-note">The plan (only this seat and the referee see it): ${plan}</div>`;
  }

  window.RefGames.ginlane = {Board: Board, Console: Console, event: event};
})();
