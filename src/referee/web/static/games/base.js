// Per-game screens, one file per game (games/<game>.js), each registering itself here.
//
// THE CONTRACT (issue 26): a game's screens are Preact components (static/vendor/README.md),
// so a live update patches them and never discards what a person is typing:
//
//   RefGames.<game> = {
//     Board:   function ({state, ctx}) -> vnode,        the visible state drawn ("The table")
//     Console: function ({ctx}) -> vnode or null,       quick tools over "Your move"
//     event:   function (event, ctx) -> vnode or null   drawn under that event's log item, once
//     eventClass: function (event, ctx) -> string       classes for that log item ("secret")
//     nameOf:  function (actor, ctx) -> string or null  a character's name as this game says it
//   }                                                   (prompts, waiting lines, "Act as")
//
// Every part is optional; table.js falls back to the generic panel when Board throws. A
// component may keep what a person chose in its own state (hooks: ctx.hooks.useState, …): it
// keeps it across pushes, as long as the table page keeps showing it. ``ctx`` (built anew for
// each observation) holds:
//   obs, me                       the seat's own observation and seat (GET /seat)
//   h, html, Fragment, hooks      Preact's h, htm bound to it, Fragment, preactHooks
//   act(kind, actor, params, refuse?)  take an action → Promise<bool>; a refusal is shown in
//                                 the page's one alert, or, given ``refuse(error, words)``,
//                                 handed to the console to show at its own field (the error
//                                 body: error.where, error.rule; words: in a person's words)
//   odds(kind, actor, params)     POST /odds → Promise<list of odds previews>
//   choices(kind?, actor?)        the choices offered now, filtered
//   ui                            RefUI below: table, card, boxes, without, secret (vnodes)
//   generic(obj), flat(obj)       the generic state panel / a key-value list, as vnodes
//   oddsChart(odds, hit, caption), rollCard(card)                        as vnodes
// Everything drawn comes from the seat's own observation.
//
// THE OLD CONTRACT, still rendered while each game's file is ported (a "compatibility island":
// table.js mounts the element returned into a container Preact does not touch):
//   RefGames.<game> = {board: function (state, ctx) -> element,
//                      console: function (ctx) -> element or null,
//                      event: function (event, li, ctx)}     a log item decorated in place
// with ctx's generic/flat/oddsChart/rollCard returning DOM elements and RefBoard's helpers
// (DOM). A module is read as the new contract when it has Board or Console (or ``contract: 2``).
window.RefGames = window.RefGames || {};

// The old helpers, building DOM elements (for the old hooks, until each is ported).
window.RefBoard = (function () {
  "use strict";
  var h = Ref.h;
  function without(s, keys) {
    var out = {};
    Object.keys(s).forEach(function (k) { if (keys.indexOf(k) < 0) out[k] = s[k]; });
    return out;
  }
  function card(title, body) { return h("div", null, h("strong", {text: title}), body); }
  // a table in a scrolling wrapper that is focusable and named, so a wide one scrolls inside
  // it (never the page) and a keyboard can scroll it; an empty header is a td, not an empty th
  function table(headers, rows, caption) {
    var t = h("table", {className: "board"}, h("caption", {text: caption}),
      h("thead", null, h("tr", null, headers.map(function (x) {
        return x === "" || x == null ? h("td", null) : h("th", {scope: "col", text: x});
      }))),
      h("tbody", null, rows.map(function (r) {
        return h("tr", null, r.map(function (c, i) {
          var content = c == null ? "—" : (typeof c === "object" && c.nodeType ? c : String(c));
          return h(i ? "td" : "th", i ? null : {scope: "row"}, content);
        }));
      })));
    return h("div", {className: "scroll-x", tabindex: "0", role: "region", "aria-label": caption}, t);
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

// The same helpers returning Preact vnodes (the new contract: ctx.ui).
window.RefUI = (function () {
  "use strict";
  var h = window.preact.h;
  var B = window.RefBoard;
  function card(title, body) { return h("div", null, h("strong", null, title), body); }
  // rows: lists of cells (text, numbers, vnodes; null shows "—"); the first cell heads its row
  function table(headers, rows, caption) {
    return h("div", {className: "scroll-x", tabIndex: 0, role: "region", "aria-label": caption},
      h("table", {className: "board"}, h("caption", null, caption),
        h("thead", null, h("tr", null, headers.map(function (x, i) {
          return x === "" || x == null ? h("td", {key: i}) : h("th", {key: i, scope: "col"}, x);
        }))),
        h("tbody", null, rows.map(function (r, j) {
          return h("tr", {key: j}, r.map(function (c, i) {
            var content = c == null ? "—" : (typeof c === "object" ? c : String(c));
            return i ? h("td", {key: i}, content) : h("th", {key: i, scope: "row"}, content);
          }));
        }))));
  }
  return {without: B.without, card: card, table: table, boxes: B.boxes, secret: B.secret};
})();
