// Zweihänder: its screens on the table page (see games/base.js for the hooks).
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table, boxes = B.boxes;

  // Zweihänder: the scene under way (chase, journey, social exchange) first.
  function board(s) {
    var wrap = h("div");
    ["chase", "journey", "exchange"].forEach(function (k) {
      if (s[k]) { wrap.appendChild(h("h3", {text: "The " + k})); wrap.appendChild(window.RefTable.generic(s[k])); }
    });
    wrap.appendChild(window.RefTable.generic(without(s, ["chase", "journey", "exchange"])));
    return wrap;
  }

  window.RefGames.zweihander = {board: board};
})();
