// Burning Kingdoms: its screens on the table page (see games/base.js for the hooks).
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table, boxes = B.boxes;

  // Burning Kingdoms: the dispositions board.
  function board(s) {
    var f = s.factions || {};
    var rows = Object.keys(f).map(function (id) {
      var x = f[id], art = x.leader && x.leader.artha;
      return [x.name || id, x.leader && x.leader.name, x.disposition + (x.starting_disposition != null ? " / " + x.starting_disposition : ""),
        art ? "fate " + art.fate + ", persona " + art.persona + ", deeds " + art.deeds : null, x.out ? "out" : "in"];
    });
    return h("div", null, table(["Faction", "Leader", "Disposition (now / start)", "Artha", ""], rows, "Dispositions"),
      window.RefTable.generic(s));
  }

  window.RefGames.kingdoms = {board: board};
})();
