// Gin Lane: its screens on the table page (see games/base.js for the hooks).
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table, boxes = B.boxes;

  // Gin Lane: who stands in which zone, and each character's stress tracks.
  function board(s) {
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
  }

  window.RefGames.ginlane = {board: board};
})();
