// Per-game boards drawn over the generic state panel, from the same visible state (observe's).
// Each returns an element; table.js falls back to the generic panel if one throws.
(function () {
  "use strict";
  var h = Ref.h;
  function without(s, keys) {
    var out = {};
    Object.keys(s).forEach(function (k) { if (keys.indexOf(k) < 0) out[k] = s[k]; });
    return out;
  }
  function card(title, body) { return h("div", null, h("strong", {text: title}), body); }
  function table(headers, rows, caption) {
    return h("table", {className: "board"}, h("caption", {text: caption}),
      h("thead", null, h("tr", null, headers.map(function (x) { return h("th", {scope: "col", text: x}); }))),
      h("tbody", null, rows.map(function (r) {
        return h("tr", null, r.map(function (c, i) { return h(i ? "td" : "th", i ? null : {scope: "row"}, c == null ? "—" : String(c)); }));
      })));
  }
  function boxes(used, length) {
    var marks = "";
    for (var i = 1; i <= length; i++) marks += used.indexOf(i) >= 0 ? "■" : "□";
    return marks;
  }

  var games = {};

  // Intrigue in the Clouds: every character by badge number, with a search.
  games.intrigue = function (s) {
    var wrap = h("div");
    var chars = s.characters || {};
    var ids = Object.keys(chars).sort(function (a, b) { return Number(chars[a].number) - Number(chars[b].number); });
    var search = h("input", {id: "badge", type: "search", inputmode: "numeric", autocomplete: "off"});
    wrap.appendChild(h("div", {className: "stack"}, h("label", {"for": "badge", text: "Find a character by badge number"}), search));
    var grid = h("div", {className: "state-grid"});
    ids.forEach(function (id) {
      var c = chars[id];
      var el = card("#" + c.number + " " + (c.name || id) + (c.knocked_out ? " (knocked out)" : "") + (c.dead ? " (dead)" : ""),
        window.RefTable.flat(without(c, ["number", "knocked_out", "dead"])));
      el.dataset.badge = String(c.number);
      grid.appendChild(el);
    });
    search.addEventListener("input", function () {
      var q = search.value.trim();
      grid.querySelectorAll("[data-badge]").forEach(function (el) { el.hidden = !!q && el.dataset.badge.indexOf(q) !== 0; });
    });
    wrap.appendChild(h("h3", {text: "Characters"}));
    wrap.appendChild(grid);
    wrap.appendChild(window.RefTable.generic(without(s, ["characters"])));
    return wrap;
  };

  // Burning Kingdoms: the dispositions board.
  games.kingdoms = function (s) {
    var f = s.factions || {};
    var rows = Object.keys(f).map(function (id) {
      var x = f[id], art = x.leader && x.leader.artha;
      return [x.name || id, x.leader && x.leader.name, x.disposition + (x.starting_disposition != null ? " / " + x.starting_disposition : ""),
        art ? "fate " + art.fate + ", persona " + art.persona + ", deeds " + art.deeds : null, x.out ? "out" : "in"];
    });
    return h("div", null, table(["Faction", "Leader", "Disposition (now / start)", "Artha", ""], rows, "Dispositions"),
      window.RefTable.generic(s));
  };

  // Zweihänder: the scene under way (chase, journey, social exchange) first.
  games.zweihander = function (s) {
    var wrap = h("div");
    ["chase", "journey", "exchange"].forEach(function (k) {
      if (s[k]) { wrap.appendChild(h("h3", {text: "The " + k})); wrap.appendChild(window.RefTable.generic(s[k])); }
    });
    wrap.appendChild(window.RefTable.generic(without(s, ["chase", "journey", "exchange"])));
    return wrap;
  };

  // Gin Lane: who stands in which zone, and each character's stress tracks.
  games.ginlane = function (s) {
    var chars = s.characters || {};
    var zones = {};
    Object.keys(chars).forEach(function (id) { (zones[chars[id].zone] = zones[chars[id].zone] || []).push(id); });
    var board = h("div", {className: "state-grid"});
    Object.keys(zones).sort().forEach(function (z) {
      board.appendChild(card("Zone: " + z, h("ul", null, zones[z].map(function (id) {
        var c = chars[id];
        var tracks = Object.keys(c.tracks || {}).map(function (t) {
          return t + " " + boxes(c.tracks[t], (c.track_lengths || {})[t] || c.tracks[t].length);
        }).join(" · ");
        return h("li", null, h("strong", {text: id}), " (" + c.side + (c.taken_out ? ", taken out" : "") + ") ",
          h("span", {className: "muted", text: tracks}));
      }))));
    });
    return h("div", null, h("h3", {text: "Zones"}), board, window.RefTable.generic(s));
  };

  // Hursagmu: the initiative order of the round.
  games.hursagmu = function (s) {
    var chars = s.characters || {};
    var ids = Object.keys(chars).sort(function (a, b) { return (chars[b].initiative || -99) - (chars[a].initiative || -99); });
    var rows = ids.map(function (id) {
      var c = chars[id];
      return [id, c.initiative, (c.plan || []).map(Ref.show).join(" → ") || null,
        [c.waiting ? "waiting" : "", c.holding ? "holding" : "", c.pushed ? "pushed " + c.pushed : "", c.conscious ? "" : "unconscious"].filter(Boolean).join(", ") || null];
    });
    return h("div", null, table(["Combatant", "Initiative", "Declared", "State"], rows,
      "Round " + s.round + ", " + s.phase + " phase" + ((s.on_turn || []).length ? " — on turn: " + s.on_turn.join(", ") : "")),
      window.RefTable.generic(s));
  };

  window.RefGames = games;
})();
