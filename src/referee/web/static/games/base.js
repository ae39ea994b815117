// Per-game screens, one file per game (games/<game>.js), each registering itself here:
//   RefGames.<game> = {board: function (state, ctx) -> element,       the visible state drawn
//                      console: function (ctx) -> element or null,    quick tools over "Your move"
//                      event: function (event, li, ctx)}              a log item decorated
// Every part is optional; table.js falls back to the generic panel if one throws. ``ctx`` is
// RefTable.context(): {obs, me, act(kind, actor, params), odds(kind, actor, params), oddsChart,
// rollCard, generic, flat}. Everything drawn comes from the seat's own observation.
window.RefGames = window.RefGames || {};
window.RefBoard = (function () {
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
        return h("tr", null, r.map(function (c, i) {
          var content = c == null ? "—" : (typeof c === "object" && c.nodeType ? c : String(c));
          return h(i ? "td" : "th", i ? null : {scope: "row"}, content);
        }));
      })));
  }
  function boxes(used, length) {
    var marks = "";
    for (var i = 1; i <= length; i++) marks += used.indexOf(i) >= 0 ? "■" : "□";
    return marks;
  }
  // the value of an event's secret part this seat may see (``{name, value, audience}``), or null
  function secret(e, name) {
    var found = (e.secrets || []).filter(function (x) { return x && x.name === name; })[0];
    return found ? found.value : null;
  }
  return {without: without, card: card, table: table, boxes: boxes, secret: secret};
})();
