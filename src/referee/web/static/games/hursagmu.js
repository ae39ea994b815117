// Hursagmu: its screens on the table page (see games/base.js for the hooks).
(function () {
  "use strict";
  var h = Ref.h, B = window.RefBoard;
  var without = B.without, card = B.card, table = B.table, boxes = B.boxes;

  // Hursagmu: the initiative order of the round.
  function board(s) {
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
  }

  window.RefGames.hursagmu = {board: board};
})();
