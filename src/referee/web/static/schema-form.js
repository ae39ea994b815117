// A form built from a JSON Schema (a game's setup schema, as pydantic writes it): objects as
// fieldsets, maps (additionalProperties) and arrays as lists with add and remove, enums as
// selects, integers and numbers with their bounds, booleans as checkboxes, strings as text.
// Optional fields left empty are left out of the value. build(schema, title) → {el, value(),
// showError(path, message), clear()}; a server's error path (setup.characters.kit.zone) is shown
// at the field it names, or at the nearest field above it.
var RefSchemaForm = (function () {
  "use strict";
  var h = Ref.h;
  var count = 0;

  function words(name) { return String(name).replace(/_/g, " "); }

  function build(root, title) {
    var defs = root.$defs || root.definitions || {};
    var nodes = [];   // every field: {el, where: function () -> path}

    function resolve(s) {
      var seen = 0;
      while (s && s.$ref && seen++ < 20) s = defs[s.$ref.split("/").pop()] || {};
      if (s && s.allOf && s.allOf.length === 1) return resolve(Object.assign({}, s.allOf[0], without(s, "allOf")));
      return s || {};
    }
    function last(where) { var w = where(); return w.length ? String(w[w.length - 1]) : "entry"; }
    function without(o, k) { var c = Object.assign({}, o); delete c[k]; return c; }
    // a nullable type (anyOf [X, null]) is an optional X; several types: the first scalar
    function pickOf(s) {
      var alts = (s.anyOf || s.oneOf || []).map(resolve).filter(function (x) { return x.type !== "null"; });
      if (!alts.length) return s;
      var scalars = alts.filter(function (x) { return ["string", "integer", "number", "boolean"].indexOf(x.type) >= 0 || x.enum; });
      var mixed = scalars.length > 1 && scalars.some(function (x) { return x.type === "string"; });
      var chosen = Object.assign({}, mixed ? {type: "loose"} : (alts.length === scalars.length ? scalars[0] : alts[0]));
      ["title", "description", "default"].forEach(function (k) { if (s[k] !== undefined && chosen[k] === undefined) chosen[k] = s[k]; });
      chosen.nullable = (s.anyOf || s.oneOf).some(function (x) { return resolve(x).type === "null"; });
      return chosen;
    }

    // field(schema, label, where, required) → {el, value() → undefined when left out}
    function field(schema, label, where, required) {
      var s = resolve(schema);
      if (s.anyOf || s.oneOf) s = pickOf(Object.assign({}, s, {title: schema.title || s.title}));
      var id = "sf-" + (++count);
      var node = {where: where};
      var out;
      if (s.enum) out = enumField(s, id, label, required);
      else if (s.type === "object" && s.properties) out = objectField(s, label, where, required);
      else if (s.type === "object") out = mapField(s, id, label, where, required);
      else if (s.type === "array" && s.prefixItems) out = tupleField(s, label, where);
      else if (s.type === "array") out = listField(s, id, label, where, required);
      else if (s.type === "boolean") out = boolField(s, id, label);
      else if (s.type === "integer" || s.type === "number") out = numberField(s, id, label, required);
      else out = textField(s, id, label, required);
      node.el = out.el;
      node.input = out.input || null;
      nodes.push(node);
      return out;
    }

    function hint(s) {
      var bits = [];
      if (s.minimum !== undefined) bits.push("at least " + s.minimum);
      if (s.maximum !== undefined) bits.push("at most " + s.maximum);
      return bits.length ? " (" + bits.join(", ") + ")" : "";
    }

    function enumField(s, id, label, required) {
      var sel = h("select", {id: id});
      if (!required) sel.appendChild(h("option", {value: "", text: "(default" + (s.default != null ? ": " + s.default : "") + ")"}));
      s.enum.forEach(function (v, i) { sel.appendChild(h("option", {value: String(i), text: String(v)})); });
      return {el: h("div", {className: "stack sf-field"}, h("label", {"for": id, text: label}), sel), input: sel,
        value: function () { return sel.value === "" ? undefined : s.enum[Number(sel.value)]; }};
    }
    function numberField(s, id, label, required) {
      var input = h("input", {id: id, type: "number", inputmode: "numeric", step: s.type === "integer" ? 1 : "any",
        min: s.minimum, max: s.maximum, required: required,
        placeholder: s.default != null ? "default " + s.default : null});
      return {el: h("div", {className: "stack sf-field"}, h("label", {"for": id, text: label + hint(s)}), input), input: input,
        value: function () {
          if (input.value === "") return undefined;
          var n = Number(input.value);
          return s.type === "integer" ? Math.trunc(n) : n;
        }};
    }
    function boolField(s, id, label) {
      var cb = h("input", {type: "checkbox", id: id});
      cb.checked = s.default === true;
      return {el: h("div", {className: "check sf-field"}, cb, h("label", {"for": id, text: label})), input: cb,
        value: function () { return cb.checked === (s.default === true) ? undefined : cb.checked; }};
    }
    function textField(s, id, label, required) {
      var loose = s.type === "loose";
      var input = h("input", {id: id, type: "text", required: required, maxlength: s.maxLength,
        placeholder: s.default != null && s.default !== "" ? "default " + s.default : null});
      return {el: h("div", {className: "stack sf-field"}, h("label", {"for": id, text: label}), input), input: input,
        value: function () {
          var v = input.value.trim();
          if (v === "") return undefined;
          return loose && /^-?\d+$/.test(v) ? Number(v) : v;
        }};
    }
    function objectField(s, label, where, required) {
      var fs = h("fieldset", {className: "sf-object"}, h("legend", {text: label}));
      var req = s.required || [];
      var parts = Object.keys(s.properties).map(function (k) {
        var sub = s.properties[k];
        var f = field(sub, words(k) + (req.indexOf(k) >= 0 ? " (required)" : ""),
          function () { return where().concat([k]); }, req.indexOf(k) >= 0);
        fs.appendChild(f.el);
        return {key: k, f: f};
      });
      return {el: fs, value: function () {
        var o = {}, any = false;
        parts.forEach(function (p) { var v = p.f.value(); if (v !== undefined) { o[p.key] = v; any = true; } });
        return any || required ? o : undefined;
      }};
    }
    // a list of entries with add and remove: a map's entries are named, an array's are not
    function entries(kind, itemSchema, id, label, where, required, least, name) {
      var fs = h("fieldset", {className: "sf-list", id: id}, h("legend", {text: label}));
      var list = h("ol", {className: "sf-entries"});
      var items = [];
      var single = kind === "map" ? words(name).replace(/s$/, "") : "item";
      var add = h("button", {type: "button", className: "ghost", text: "Add " + (kind === "map" ? "a " : "an ") + single});
      function addOne() {
        var n = ++count;
        var li = h("li", {className: "sf-entry"});
        var item = {li: li};
        var nameInput = null;
        if (kind === "map") {
          nameInput = h("input", {id: "sf-key-" + n, type: "text", required: true, autocomplete: "off"});
          li.appendChild(h("div", {className: "stack sf-field"}, h("label", {"for": "sf-key-" + n, text: "Name (id) of this " + single}), nameInput));
          item.key = function () { return nameInput.value.trim(); };
          nodes.push({el: nameInput.parentNode, input: nameInput, where: function () { return where().concat([item.key()]); }});
        }
        var path = kind === "map"
          ? function () { return where().concat([item.key()]); }
          : function () { return where().concat([items.indexOf(item)]); };
        item.f = field(itemSchema, kind === "map" ? (resolve(itemSchema).type === "object" ? "Details of this " + single : "Value") : single + " " + (items.length + 1), path, true);
        li.appendChild(item.f.el);
        var remove = h("button", {type: "button", className: "ghost sf-remove", text: "Remove this " + single});
        remove.addEventListener("click", function () {
          items.splice(items.indexOf(item), 1);
          li.remove();
          add.focus();
        });
        li.appendChild(remove);
        list.appendChild(li);
        items.push(item);
        return item;
      }
      add.addEventListener("click", function () {
        var item = addOne();
        var first = item.li.querySelector("input, select, textarea");
        if (first) first.focus();
      });
      for (var i = 0; i < (least || 0); i++) addOne();
      fs.appendChild(list);
      fs.appendChild(add);
      return {el: fs, value: function () {
        if (kind === "map") {
          var o = {};
          items.forEach(function (it) {
            var k = it.key();
            if (!k) throw new Error("Give every " + single + " a name (" + label + ").");
            var v = it.f.value();
            o[k] = v === undefined ? {} : v;
          });
          return items.length || required ? o : undefined;
        }
        var arr = items.map(function (it) { return it.f.value(); }).filter(function (v) { return v !== undefined; });
        return arr.length || required ? arr : undefined;
      }};
    }
    function mapField(s, id, label, where, required) {
      var item = s.additionalProperties && s.additionalProperties !== true ? s.additionalProperties : {type: "string"};
      return entries("map", item, id, label, where, required, s.minProperties || (required ? 1 : 0), last(where));
    }
    function listField(s, id, label, where, required) {
      return entries("array", s.items || {type: "string"}, id, label, where, required, s.minItems || 0, last(where));
    }
    function tupleField(s, label, where) {
      var fs = h("fieldset", {className: "sf-tuple"}, h("legend", {text: label}));
      var parts = s.prefixItems.map(function (sub, i) {
        var f = field(sub, label + " " + (i + 1), function () { return where().concat([i]); }, true);
        fs.appendChild(f.el);
        return f;
      });
      return {el: fs, value: function () { return parts.map(function (f) { return f.value(); }); }};
    }

    var top = resolve(root);
    var wrap = h("fieldset", {className: "sf-root"}, h("legend", {text: title}));
    if (top.description) wrap.appendChild(h("p", {className: "muted sf-about", text: top.description.split("\n\n")[0]}));
    var main = field(Object.assign({}, top, {title: null}), "Setup", function () { return []; }, true);
    wrap.appendChild(main.el);

    function clear() {
      wrap.querySelectorAll(".sf-error").forEach(function (x) { x.remove(); });
      wrap.querySelectorAll("[aria-invalid]").forEach(function (x) { x.removeAttribute("aria-invalid"); x.removeAttribute("aria-describedby"); });
    }
    // the server's message next to the field its path names (or the nearest one above it)
    function showError(path, message) {
      var best = null, bestLength = -1;
      nodes.forEach(function (n) {
        if (!n.el.isConnected) return;
        var w = n.where().map(String);
        if (w.length > path.length || w.length <= bestLength) return;
        if (JSON.stringify(path.slice(0, w.length).map(String)) !== JSON.stringify(w)) return;
        best = n; bestLength = w.length;
      });
      if (!best) return false;
      var id = "sf-err-" + (++count);
      var msg = h("p", {className: "error sf-error", id: id, role: "alert", text: message});
      best.el.appendChild(msg);
      var input = best.input || best.el.querySelector("input, select, textarea");
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", id);
        input.focus();
      }
      return true;
    }
    return {el: wrap, value: function () { return main.value() || {}; }, showError: showError, clear: clear};
  }

  return {build: build};
})();
