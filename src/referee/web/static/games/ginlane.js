// Gin Lane: its screens on the table page (see games/base.js for the hooks).
//   board:   the zones with who stands where; per character the stress tracks as boxes, the
//            consequences, the sheet's Aspects; the Aspects in play with their free tags.
//   console: the tagging roll: pick a target and the Aspects to tag, and see the exact odds of
//            each tagging choice side by side (none, each Aspect alone, all those ticked), each
//            asked of the server (POST /odds) — the same check the attack will roll.
//   event:   a Wait's plan marked as seen only by the waiting character's seat.
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, boxes = B.boxes;

  function person(id, c, aspectsOn) {
    var tracks = h("ul", {className: "gl-tracks"});
    Object.keys(c.tracks || {}).forEach(function (t) {
      var length = (c.track_lengths || {})[t] || 0;
      var used = c.tracks[t] || [];
      tracks.appendChild(h("li", null, h("span", {className: "gl-track-name", text: t}), " ",
        h("span", {className: "gl-boxes", "aria-hidden": "true", text: boxes(used, length)}),
        h("span", {className: "sr-only", text: used.length + " of " + length + " boxes checked" + (used.length ? ": " + used.join(", ") : "")})));
    });
    var cons = Object.keys(c.consequences || {}).map(function (k) { return k + ": " + c.consequences[k]; });
    var badges = [c.side, c.weapon, c.taken_out ? "taken out" : "", c.waiting ? "waiting" : "",
      c.full_defence ? "full defence" : "", c.block ? "block (" + c.block.kind + ")" : ""].filter(Boolean);
    return h("li", {className: "gl-person" + (c.taken_out ? " out" : "")},
      h("div", null, h("strong", {text: id}), " ", badges.map(function (b) { return h("span", {className: "badge", text: b}); }),
        h("span", {className: "muted", text: " pool " + c.pool})),
      tracks,
      cons.length ? h("div", null, h("strong", {text: "Consequences: "}), cons.join("; ")) : null,
      (c.aspects || []).length ? h("div", null, h("strong", {text: "Aspects: "}), c.aspects.join(", ")) : null,
      aspectsOn.length ? h("div", null, h("strong", {text: "On them: "}), aspectsOn.map(aspectChip)) : null);
  }

  function aspectChip(a) {
    var stars = "";
    for (var i = 0; i < a.free_tags; i++) stars += "★";
    return h("span", {className: "chip", title: a.free_tags + " free tag(s), set by " + (a.setter || "—")},
      a.name + (stars ? " " : ""), stars ? h("span", {"aria-label": a.free_tags + " free tags", text: stars}) : null);
  }

  function board(s) {
    var chars = s.characters || {};
    var placed = s.aspects || [];
    var zones = {};
    Object.keys(chars).forEach(function (id) { (zones[chars[id].zone] = zones[chars[id].zone] || []).push(id); });
    var wrap = h("div", {className: "gl-board"});
    wrap.appendChild(h("h3", {text: "Zones" + (s.round ? " — round " + s.round + (s.turn ? ", " + s.turn + "'s turn" : "") : "")}));
    if ((s.order || []).length) wrap.appendChild(h("p", {className: "muted", text: "Order: " + s.order.join(" → ")}));
    var grid = h("div", {className: "gl-zones"});
    Object.keys(zones).sort().forEach(function (z) {
      var onZone = placed.filter(function (a) { return a.on === z; });
      grid.appendChild(h("section", {className: "gl-zone", "aria-label": "Zone " + z},
        h("h4", {text: z}),
        onZone.length ? h("div", {className: "muted"}, "Aspects here: ", onZone.map(aspectChip)) : null,
        h("ul", {className: "gl-people"}, zones[z].map(function (id) {
          return person(id, chars[id], placed.filter(function (a) { return a.on === id; }));
        }))));
    });
    wrap.appendChild(grid);
    var scene = placed.filter(function (a) { return !chars[a.on] && !zones[a.on]; });
    wrap.appendChild(h("h3", {text: "Aspects in play"}));
    wrap.appendChild(placed.length
      ? h("ul", {className: "gl-aspects"}, placed.map(function (a) {
          return h("li", null, aspectChip(a), " on " + a.on + " — " + a.free_tags + " free tag" + (a.free_tags === 1 ? "" : "s") + (a.setter ? ", set by " + a.setter : ""));
        }))
      : h("p", {className: "muted", text: "None yet: a manoeuvre places one, with a free tag."}));
    if (scene.length) wrap.appendChild(h("p", {className: "muted", text: "On the scene: " + scene.map(function (a) { return a.name; }).join(", ")}));
    wrap.appendChild(window.RefTable.generic(without(s, ["characters", "aspects", "aspect_names", "order", "round", "turn"])));
    return wrap;
  }

  // ---------------------------------------------------------------- the tagging roll
  var pick = {actor: null, target: null, tags: []};
  var cache = {};

  function taggable(ctx, actor, target) {
    var s = ctx.obs.state || {};
    var me = (s.characters || {})[actor] || {};
    var out = [];
    (me.aspects || []).forEach(function (a) { out.push({name: a, note: "your Aspect"}); });
    var near = [actor, target, me.zone, "scene"];
    (s.aspects || []).forEach(function (a) {
      if (near.indexOf(a.on) >= 0 && !out.some(function (x) { return x.name === a.name; })) {
        out.push({name: a.name, note: "on " + a.on + (a.free_tags ? ", " + a.free_tags + " free" : "")});
      }
    });
    return out;
  }

  function console_(ctx) {
    var attacks = ctx.choices("attack");
    if (!attacks.length) return null;
    var c = attacks.filter(function (x) { return x.actor === pick.actor; })[0] || attacks[0];
    pick.actor = c.actor;
    var targets = c.params.target.one_of;
    if (targets.indexOf(pick.target) < 0) pick.target = targets[0];
    var aspects = taggable(ctx, pick.actor, pick.target);
    var names = aspects.map(function (a) { return a.name; });
    pick.tags = pick.tags.filter(function (t) { return names.indexOf(t) >= 0; });

    var box = h("section", {className: "console gl-tagging", "aria-labelledby": "gl-tag-h"});
    box.appendChild(h("h3", {id: "gl-tag-h", text: "Attack — the odds of each tagging choice"}));
    var sel = h("select", {id: "gl-target"}, targets.map(function (t) { return h("option", {value: t, text: t}); }));
    sel.value = pick.target;
    sel.addEventListener("change", function () { pick.target = sel.value; rerender(ctx, box); });
    box.appendChild(h("div", {className: "stack"}, h("label", {"for": "gl-target", text: pick.actor + " attacks"}), sel));
    var fs = h("fieldset", {id: "gl-tags"}, h("legend", {text: "Aspects to tag (a point each unless free)"}));
    if (!aspects.length) fs.appendChild(h("p", {className: "muted", text: "No Aspect to tag here."}));
    aspects.forEach(function (a, i) {
      var cb = h("input", {type: "checkbox", id: "gl-tag-" + i, value: a.name});
      cb.checked = pick.tags.indexOf(a.name) >= 0;
      cb.addEventListener("change", function () {
        pick.tags = aspects.map(function (x, j) { return document.getElementById("gl-tag-" + j).checked ? x.name : null; }).filter(Boolean);
        rerender(ctx, box);
      });
      fs.appendChild(h("div", {className: "check"}, cb, h("label", {"for": "gl-tag-" + i, text: a.name + " (" + a.note + ")"})));
    });
    box.appendChild(fs);
    var cols = h("div", {className: "gl-columns", id: "gl-columns", "aria-live": "polite"});
    box.appendChild(cols);
    fill(ctx, cols, names);
    return box;
  }

  function rerender(ctx, box) {
    var fresh = console_(ctx);
    var focused = document.activeElement && document.activeElement.id;
    box.replaceWith(fresh);
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
  }

  // the tagging choices compared: none, each Aspect alone, and all those ticked
  function options(names) {
    var out = [[]];
    names.forEach(function (n) { out.push([n]); });
    if (pick.tags.length > 1) out.push(pick.tags.slice());
    return out;
  }

  function fill(ctx, cols, names) {
    options(names).forEach(function (tags, i) {
      var params = {target: pick.target};
      if (tags.length) params.tags = tags;
      var k = JSON.stringify([ctx.obs.version, pick.actor, params]);
      var chosen = JSON.stringify(tags) === JSON.stringify(pick.tags);
      var col = h("div", {className: "gl-column roll" + (chosen ? " chosen" : "")},
        h("strong", {text: tags.length ? "Tag " + tags.join(" + ") : "No tags"}));
      var body = h("div", {className: "gl-odds", text: "…"});
      col.appendChild(body);
      var go = h("button", {type: "button", id: "gl-go-" + i, text: "Attack " + pick.target + (tags.length ? ", tagging " + tags.join(" + ") : ", no tags")});
      go.addEventListener("click", function () { ctx.act("attack", pick.actor, params); });
      col.appendChild(go);
      cols.appendChild(col);
      var show = function (list) {
        body.textContent = "";
        if (!list || !list.length) { body.appendChild(h("p", {className: "muted", text: "Not allowed (the pool, or the Aspect)."})); go.disabled = true; return; }
        list.forEach(function (o) {
          body.appendChild(h("div", {className: "muted", text: o.dice}));
          body.appendChild(ctx.oddsChart(o.odds, null, "Odds of " + o.label));
        });
      };
      if (cache[k]) { show(cache[k]); return; }
      ctx.odds("attack", pick.actor, params).then(function (list) { cache[k] = list; show(list); });
    });
  }

  function event(e, li) {
    var plan = B.secret(e, "plan") || (e.payload || {}).plan;
    if (e.kind === "waiting" && plan) {
      li.appendChild(h("div", {className: "secret-note", text: "The plan (only this seat and the referee see it): " + plan}));
    }
  }

  window.RefGames.ginlane = {board: board, console: console_, event: event};
})();
