// Intrigue in the Clouds: its screens on the table page (see games/base.js for the hooks).
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table, boxes = B.boxes;

  // Intrigue in the Clouds: every character by badge number, with a search.
  function board(s) {
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
  }

  window.RefGames.intrigue = {board: board};
})();
