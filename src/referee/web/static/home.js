// Home: the tables this browser has joined, and a table created from a form built from the
// game's setup schema (GET /api/games/{name}) or from a setup file.
(function () {
  "use strict";
  var h = Ref.h;
  var joined = document.getElementById("joined");
  var select = document.getElementById("c-system");
  var form = document.getElementById("create");
  var errorBox = document.getElementById("create-error");
  var created = document.getElementById("created");

  Ref.api("GET", "/api/tables").then(function (res) {
    joined.textContent = "";
    var tables = (res.data && res.data.tables) || [];
    if (!res.ok || !tables.length) {
      joined.appendChild(h("li", {text: "None yet: open a join link, or create a table below."}));
      return;
    }
    tables.forEach(function (t) {
      var id = t.id || t.table;
      joined.appendChild(h("li", null,
        h("a", {href: "/table/" + encodeURIComponent(id), text: (t.name || id)}),
        " ", h("span", {className: "muted", text: "— " + (t.system || "") + ", as " + (t.seat || "?")})));
    });
  });

  Ref.api("GET", "/api/games").then(function (res) {
    (res.data || []).forEach(function (g) {
      select.appendChild(h("option", {value: g.name, text: g.title || g.name}));
    });
    loadSchema();
  });
  select.addEventListener("change", loadSchema);

  // ------------------------------------------------------------------ the setup form
  var setupBox = document.getElementById("c-setup");
  var setupForm = null;   // the form drawn now (RefSchemaForm.build)
  function loadSchema() {
    var name = select.value;
    if (!name || !setupBox) return;
    setupBox.textContent = "";
    setupForm = null;
    Ref.api("GET", "/api/games/" + encodeURIComponent(name)).then(function (res) {
      if (!res.ok || select.value !== name) return;
      setupBox.textContent = "";
      setupForm = RefSchemaForm.build(res.data.setup_schema || {}, "The setup of " + (res.data.title || name));
      setupForm.el.setAttribute("data-game", name);
      setupBox.appendChild(setupForm.el);
    });
  }

  document.getElementById("c-file").addEventListener("change", function (ev) {
    var f = ev.target.files && ev.target.files[0];
    if (!f) return;
    f.text().then(function (text) { document.getElementById("c-yaml").value = text; });
  });

  form.noValidate = true;   // a setup file given leaves the form's own fields aside
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    errorBox.textContent = "";
    created.textContent = "";
    var text = document.getElementById("c-yaml").value;
    if (setupForm) setupForm.clear();
    if (!text.trim()) { createFromForm(); return; }
    Ref.api("POST", "/web/yaml", {text: text}).then(function (res) {
      if (!res.ok) { errorBox.textContent = refusal(res); return null; }
      var body = {system: res.data.system || select.value, setup: res.data.setup,
                  name: document.getElementById("c-name").value};
      if (res.data.players) body.players = res.data.players;
      return Ref.api("POST", "/api/tables", body);
    }).then(function (res) {
      if (!res) return;
      if (!res.ok) { errorBox.textContent = refusal(res); return; }
      showCreated(res.data);
    });
  });

  function createFromForm() {
    if (!setupForm) { errorBox.textContent = "Paste or choose a setup file first."; return; }
    var name = document.getElementById("c-name");
    if (!name.value.trim()) { errorBox.textContent = "Give the table a name."; name.focus(); return; }
    var read = setupForm.read();
    if (read.problems.length) {
      errorBox.textContent = read.problems.length === 1 ? "One field needs a look: it is marked below."
        : read.problems.length + " fields need a look: they are marked below.";
      if (read.first) read.first.focus();
      return;
    }
    var body = {system: select.value, setup: read.value, name: name.value};
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    Ref.api("POST", "/api/tables", body).then(function (res) {
      button.disabled = false;
      if (res.ok) { showCreated(res.data); return; }
      var e = res.data && res.data.error;
      var where = (e && e.where) || [];
      var at = where[0] === "body" && where[1] === "setup" ? setupForm.showError(where.slice(2), e.message) : null;
      if (at) {
        errorBox.textContent = "The game refused the setup: see the field marked below.";
        at.focus();
        return;
      }
      errorBox.textContent = refusal(res);
    }, function () { button.disabled = false; errorBox.textContent = "Could not reach the server."; });
  }

  // a refusal of a setup file in words, with where in the file it is
  function refusal(res) {
    var e = res.data && res.data.error;
    if (!e) return Ref.errorText(res);
    var where = (e.where || []).filter(function (p) { return !/[\[\]]/.test(String(p)); });
    if (where[0] === "body") where = where.slice(1);
    var inSetup = where[0] === "setup" ? where.slice(1) : where;
    var text = RefSchemaForm.plain(e.message, inSetup);
    return where.length ? text + " (at " + where.join(" › ") + ")" : text;
  }

  function showCreated(t) {
    created.appendChild(h("h3", {text: "“" + t.name + "” is ready: hand each seat its link"}));
    created.appendChild(h("p", {className: "muted",
      text: "Each link is shown once. Whoever opens it takes that seat in their browser."}));
    var list = h("ul", {className: "cards"});
    created.appendChild(list);
    t.seats.forEach(function (s) {
      var link = location.origin + s.join;
      var qr = h("div", {"aria-hidden": "false"});
      var li = h("li", {className: "join"}, qr,
        h("div", null,
          h("strong", {text: "Seat " + s.id + (s.plays && s.plays.length ? " — plays " + s.plays.join(", ") : "")}),
          h("br"), h("a", {href: link, text: "open this seat here"}), h("br"),
          h("code", {text: link})));
      list.appendChild(li);
      Ref.api("POST", "/web/qr", {text: link}).then(function (res) {
        if (res.ok) qr.innerHTML = res.data;  // our server's SVG, built from the link alone
      });
    });
  }
})();
