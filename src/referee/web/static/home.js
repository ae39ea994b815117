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
  var setupForm = null;   // {value(), nodes: [{el, where()}]} of the form drawn now
  function loadSchema() {
    var name = select.value;
    if (!name || !setupBox) return;
    setupBox.textContent = "";
    setupForm = null;
    Ref.api("GET", "/api/games/" + encodeURIComponent(name)).then(function (res) {
      if (!res.ok || select.value !== name) return;
      setupBox.textContent = "";
      setupForm = RefSchemaForm.build(res.data.setup_schema || {}, "The setup of " + (res.data.title || name));
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
      if (!res.ok) { errorBox.textContent = Ref.errorText(res); return null; }
      var body = {system: res.data.system || select.value, setup: res.data.setup,
                  name: document.getElementById("c-name").value};
      if (res.data.players) body.players = res.data.players;
      return Ref.api("POST", "/api/tables", body);
    }).then(function (res) {
      if (!res) return;
      if (!res.ok) { errorBox.textContent = Ref.errorText(res); return; }
      showCreated(res.data);
    });
  });

  function createFromForm() {
    if (!setupForm) { errorBox.textContent = "Paste or choose a setup file first."; return; }
    // the browser's own checks (required, bounds) apply to the form only when it is used
    var bad = Array.prototype.filter.call(form.querySelectorAll("#c-setup input, #c-setup select, #c-name"),
      function (el) { return !el.checkValidity(); })[0];
    if (bad) { bad.reportValidity(); bad.focus(); return; }
    var setup;
    try { setup = setupForm.value(); } catch (e) { errorBox.textContent = String(e.message || e); return; }
    var body = {system: select.value, setup: setup, name: document.getElementById("c-name").value};
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    Ref.api("POST", "/api/tables", body).then(function (res) {
      button.disabled = false;
      if (res.ok) { showCreated(res.data); return; }
      var e = res.data && res.data.error;
      var where = (e && e.where) || [];
      if (where[0] === "body" && where[1] === "setup" && setupForm.showError(where.slice(2), e.message)) {
        errorBox.textContent = "The game refused the setup: see the field marked below.";
        return;
      }
      errorBox.textContent = Ref.errorText(res);
    }, function () { button.disabled = false; errorBox.textContent = "Could not reach the server."; });
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
