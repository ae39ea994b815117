// A form built from a JSON Schema (a game's setup schema, as pydantic writes it): objects as
// fieldsets, maps (additionalProperties) and arrays as lists with add and remove, enums as
// selects, integers and numbers with their bounds, booleans as checkboxes, strings as text, and
// a value that may be one thing or a list of them (an envelope's "to": ALL, or 12, 20, 32) as
// one text box of comma-separated values. Optional fields left empty are left out of the value,
// and an optional object left empty is left out whole (nothing inside it is then required).
//
// build(schema, title) → {el, read() → {value, problems, first}, showError(path, message),
// clear()}. read() checks what the browser cannot (required fields, names, bounds) and shows each
// problem at its field (first: the first field marked, for the focus); showError puts a message
// (the server's, in words: plain()) next to the field its path names (characters.kit.zone), or
// the nearest field above it, and returns that field's control; null when no field holds it.
var RefSchemaForm = (function () {
  "use strict";
  var h = Ref.h;
  var count = 0;
  var SCALARS = ["string", "integer", "number", "boolean", "loose"];
  // words a label keeps as they are written (a label is otherwise in sentence case)
  var PROPER = {npc: "NPC", id: "ID", gm: "GM", english: "English", ob: "Ob"};

  function words(name) { return String(name).replace(/_/g, " "); }
  function sentence(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
  // "free_aspects" → "Free aspects"; a title the schema gives of its own is used as it is
  // (pydantic's own, "Free Aspects", is only the name in title case)
  function labelOf(key, schema) {
    var plain = words(key);
    var auto = plain.replace(/\b\w/g, function (c) { return c.toUpperCase(); });
    var title = schema && schema.title;
    if (title && title !== auto) return title;
    return sentence(plain.split(" ").map(function (w) { return PROPER[w] || w; }).join(" "));
  }
  // one of a plural: "abilities" → "ability", "stretches" → "stretch"; null when not a plural
  function singular(name) {
    var w = words(name).toLowerCase();
    if (/ies$/.test(w)) return w.slice(0, -3) + "y";
    if (/(ch|sh|ss|x|us)es$/.test(w)) return w.slice(0, -2);
    if (/[^su]s$/.test(w)) return w.slice(0, -1);
    return null;
  }
  function an(noun) { return (/^[aeiou]/i.test(noun) ? "an " : "a ") + noun; }
  // a docstring's first paragraph, without its ``code`` marks
  function about(text) { return text ? String(text).split("\n\n")[0].replace(/``/g, "").replace(/\s+/g, " ").trim() : ""; }

  // A server's (pydantic's) message in a person's words; the path it starts with is left out,
  // since the message is shown at that field.
  function plain(message, where) {
    var m = String(message || "").trim();
    var shown = (where || []).join(".");
    if (shown && m.indexOf(shown + ": ") === 0) m = m.slice(shown.length + 2);
    m = m.replace(/^Value error, /, "");
    var key = where && where.length ? String(where[where.length - 1]) : "";
    var x;
    if (/^Field required$/.test(m)) return "This is needed: fill it in.";
    if ((x = /^(?:List|Dictionary|Tuple|Set) should have at least (\d+) items?/.exec(m))) return "Give at least " + (x[1] === "1" ? "one" : x[1]) + ".";
    if ((x = /^(?:List|Dictionary|Tuple|Set) should have at most (\d+) items?/.exec(m))) return "Give at most " + (x[1] === "1" ? "one" : x[1]) + ".";
    if ((x = /^String should have at least (\d+) characters?/.exec(m))) return Number(x[1]) === 1 ? "Write something here." : "Write at least " + x[1] + " characters.";
    if ((x = /^String should have at most (\d+) characters?/.exec(m))) return "Write at most " + x[1] + " characters.";
    if (/^Input should be a valid integer/.test(m)) return "Give a whole number.";
    if (/^Input should be a (valid|finite) number/.test(m)) return "Give a number.";
    if (/^Input should be a valid string/.test(m)) return "Give a word or a sentence here, not a number or a list.";
    if (/^Input should be a valid boolean/.test(m)) return "Give yes or no.";
    if (/^Input should be a valid (list|array|tuple)/.test(m)) return "Give a list here.";
    if (/^Input should be a valid dictionary/.test(m)) return "Give named entries here.";
    if ((x = /^Input should be greater than or equal to (\S+)$/.exec(m))) return "Give " + x[1] + " or more.";
    if ((x = /^Input should be greater than (\S+)$/.exec(m))) return "Give more than " + x[1] + ".";
    if ((x = /^Input should be less than or equal to (\S+)$/.exec(m))) return "Give " + x[1] + " or less.";
    if ((x = /^Input should be less than (\S+)$/.exec(m))) return "Give less than " + x[1] + ".";
    if ((x = /^Input should be ('.*')$/.exec(m))) return "Choose one of " + x[1].replace(/'/g, "") + ".";
    if (/^Extra inputs are not permitted$/.test(m)) {
      var fix = / /.test(key) ? " Names in a setup are written with underscores: “" + key.replace(/ /g, "_") + "”." : "";
      return "“" + key + "” is not something this part of the setup takes." + fix;
    }
    return sentence(m);
  }

  function build(root, title) {
    var defs = root.$defs || root.definitions || {};
    var nodes = [];   // every field: {el, input, where: function () -> path}

    function resolve(s) {
      var seen = 0;
      while (s && s.$ref && seen++ < 20) s = Object.assign({}, defs[s.$ref.split("/").pop()] || {}, without(s, "$ref"));
      if (s && s.allOf && s.allOf.length === 1) return resolve(Object.assign({}, s.allOf[0], without(s, "allOf")));
      return s || {};
    }
    function without(o, k) { var c = Object.assign({}, o); delete c[k]; return c; }
    function isScalar(x) { return SCALARS.indexOf(x.type) >= 0 || !!x.enum; }
    // anyOf/oneOf: a nullable X is an optional X; scalars or a list of them are one text box of
    // comma-separated values ("several"); a choice of tuples is the longest, its tail optional;
    // several scalar types (a number or a name) are a text box read as a number where it is one
    // ("loose"); otherwise the first scalar, or the first alternative (Kingdoms' disposition: a
    // number, not the builder's answers)
    function pickOf(s) {
      var all = s.anyOf || s.oneOf || [];
      var alts = all.map(resolve).filter(function (x) { return x.type !== "null"; });
      var chosen;
      var scalars = alts.filter(isScalar);
      var lists = alts.filter(function (x) { return x.type === "array" && !x.prefixItems && x.items && isScalar(pickOf(resolve(x.items))); });
      var tuples = alts.filter(function (x) { return x.type === "array" && x.prefixItems; });
      if (!alts.length) return s;
      if (lists.length && scalars.length && lists.length + scalars.length === alts.length) {
        chosen = {type: "several", single: true, items: pickOf(resolve(lists[0].items)), numbers: scalars.some(numeric)};
      } else if (tuples.length && tuples.length === alts.length) {
        tuples.sort(function (a, b) { return b.prefixItems.length - a.prefixItems.length; });
        chosen = Object.assign({}, tuples[0], {minItems: tuples[tuples.length - 1].prefixItems.length});
      } else if (scalars.length > 1 && scalars.some(function (x) { return x.type === "string"; })) {
        chosen = {type: "loose"};
      } else {
        chosen = Object.assign({}, alts.length === scalars.length ? scalars[0] : alts[0]);
      }
      ["title", "description", "default"].forEach(function (k) { if (s[k] !== undefined && chosen[k] === undefined) chosen[k] = s[k]; });
      chosen.nullable = all.some(function (x) { return resolve(x).type === "null"; });
      return chosen;
    }

    // field(schema, label, where, required) → {el, input, node, value(problems) → undefined
    // when left out}; a problem is {node, message}
    function field(schema, label, where, required) {
      var s = resolve(schema);
      if (s.anyOf || s.oneOf) s = pickOf(s);
      var id = "sf-" + (++count);
      var node = {where: where};
      var out, kind;
      var item = s.type === "array" && s.items ? pickOf(resolve(s.items)) : null;
      if (s.enum) { kind = "enum"; out = enumField(s, id, label, required); }
      else if (s.type === "object" && s.properties) { kind = "object"; out = objectField(s, label, where, required); }
      else if (s.type === "object") { kind = "map"; out = mapField(s, id, label, where, required); }
      else if (s.type === "array" && s.prefixItems) { kind = "tuple"; out = tupleField(s, label, where); }
      else if (item && isScalar(item) && numeric(item)) { kind = "several"; out = severalField(Object.assign({}, s, {items: item}), id, label, required); }
      else if (s.type === "array") { kind = "list"; out = listField(s, id, label, where, required); }
      else if (s.type === "several") { kind = "several"; out = severalField(s, id, label, required); }
      else if (s.type === "boolean") { kind = "boolean"; out = boolField(s, id, label); }
      else if (numeric(s)) { kind = "number"; out = numberField(s, id, label, required); }
      else { kind = "text"; out = textField(s, id, label, required); }
      out.el.setAttribute("data-kind", kind);   // what the field is: for tests that fill it
      node.el = out.el;
      node.input = out.input || null;
      out.node = node;
      nodes.push(node);
      return out;
    }
    function numeric(s) { return s.type === "integer" || s.type === "number"; }
    // nothing typed in it: an empty list or record, or one of empty ones
    function blank(v) {
      return typeof v === "object" && v !== null && Object.keys(v).every(function (k) { return blank(v[k]); });
    }

    function bounds(s) {
      if (s.minimum !== undefined && s.maximum !== undefined) return " (" + s.minimum + " to " + s.maximum + ")";
      if (s.minimum !== undefined) return " (" + s.minimum + " or more)";
      if (s.maximum !== undefined) return " (" + s.maximum + " or less)";
      return "";
    }
    // a field's box: its label, a hint under it (the schema's description) and its input
    function box(cls, id, label, input, hintText) {
      var hint = null;
      if (hintText) {
        hint = h("p", {className: "muted sf-about", id: id + "-hint", text: hintText});
        input.setAttribute("aria-describedby", hint.id);
      }
      var lab = h("label", {"for": id, text: label});
      var el = cls === "check" ? h("div", {className: "check sf-field"}, input, lab, hint)
                               : h("div", {className: "stack sf-field"}, lab, hint, input);
      return el;
    }
    function need(input, required) { if (required) input.setAttribute("aria-required", "true"); }

    function enumField(s, id, label, required) {
      var sel = h("select", {id: id});
      if (!required) sel.appendChild(h("option", {value: "", text: "(default" + (s.default != null ? ": " + s.default : "") + ")"}));
      s.enum.forEach(function (v, i) { sel.appendChild(h("option", {value: String(i), text: String(v)})); });
      var el = box("stack", id, label, sel, about(s.description));
      return {el: el, input: sel,
        value: function () { return sel.value === "" ? undefined : s.enum[Number(sel.value)]; }};
    }
    function numberField(s, id, label, required) {
      var whole = s.type === "integer";
      var input = h("input", {id: id, type: "number", inputmode: whole ? "numeric" : "decimal", step: whole ? 1 : "any",
        min: s.minimum, max: s.maximum, placeholder: s.default != null ? "default " + s.default : null});
      need(input, required);
      var el = box("stack", id, label + bounds(s), input, about(s.description));
      var self = {el: el, input: input,
        value: function (problems) {
          if (input.validity.badInput) { problems.push({node: self.node, message: whole ? "Give a whole number." : "Give a number."}); return undefined; }
          if (input.value === "") return undefined;
          var n = Number(input.value);
          if (whole && n !== Math.trunc(n)) problems.push({node: self.node, message: "Give a whole number."});
          else if (s.minimum !== undefined && n < s.minimum) problems.push({node: self.node, message: "Give " + s.minimum + " or more."});
          else if (s.maximum !== undefined && n > s.maximum) problems.push({node: self.node, message: "Give " + s.maximum + " or less."});
          return n;
        }};
      return self;
    }
    function boolField(s, id, label) {
      var cb = h("input", {type: "checkbox", id: id});
      cb.checked = s.default === true;
      var el = box("check", id, label, cb, about(s.description));
      return {el: el, input: cb,
        value: function () { return cb.checked === (s.default === true) ? undefined : cb.checked; }};
    }
    function textField(s, id, label, required) {
      var loose = s.type === "loose";
      var input = h("input", {id: id, type: "text", maxlength: s.maxLength,
        placeholder: s.default != null && s.default !== "" ? "default " + s.default : null});
      need(input, required);
      var el = box("stack", id, label, input, about(s.description));
      return {el: el, input: input,
        value: function () {
          var v = input.value.trim();
          if (v === "") return undefined;
          return loose && /^-?\d+$/.test(v) ? Number(v) : v;
        }};
    }
    // one value or several, comma-separated, in one text box: "ALL", or "12, 20, 32"
    function severalField(s, id, label, required) {
      var item = s.items || {type: "string"};
      var input = h("input", {id: id, type: "text", autocomplete: "off", inputmode: numeric(item) ? "numeric" : null});
      need(input, required);
      var example = numeric(item) || item.type === "loose" || s.numbers ? "12, 20, 32" : "first, second";
      var hintText = (s.single ? "One, or several separated by commas: " : "Separated by commas: ") + example + "." +
        (s.description ? " " + about(s.description) : "");
      var el = box("stack", id, label, input, hintText);
      var self = {el: el, input: input,
        value: function (problems) {
          var parts = input.value.split(",").map(function (x) { return x.trim(); }).filter(Boolean);
          if (!parts.length) return undefined;
          var values = parts.map(function (p) {
            var alone = s.single && parts.length === 1 && s.numbers;
            if (/^-?\d+(\.\d+)?$/.test(p) && (numeric(item) || item.type === "loose" || alone)) return Number(p);
            if (numeric(item)) problems.push({node: self.node, message: "“" + p + "” is not a number: give numbers separated by commas."});
            return p;
          });
          return s.single && values.length === 1 ? values[0] : values;
        }};
      return self;
    }
    function objectField(s, label, where, required) {
      var fs = h("fieldset", {className: "sf-object"}, h("legend", {text: label}));
      if (s.description) fs.appendChild(h("p", {className: "muted sf-about", text: about(s.description)}));
      var req = s.required || [];
      var parts = Object.keys(s.properties).map(function (k) {
        var sub = s.properties[k];
        var isRequired = req.indexOf(k) >= 0;
        var f = field(sub, labelOf(k, sub) + (isRequired ? " (required)" : ""),
          function () { return where().concat([k]); }, isRequired);
        f.el.setAttribute("data-key", k);
        fs.appendChild(f.el);
        return {key: k, f: f, required: isRequired};
      });
      return {el: fs, value: function (problems) {
        var o = {}, any = false, mine = [];
        parts.forEach(function (p) {
          var v = p.f.value(mine);
          if (v === undefined) return;
          o[p.key] = v;
          any = any || !blank(v);
        });
        if (!any && !required) return undefined;   // left out whole: nothing in it is needed
        parts.forEach(function (p) {
          if (p.required && o[p.key] === undefined && !mine.some(function (x) { return x.node === p.f.node; })) mine.push({node: p.f.node, message: "This is needed: fill it in."});
        });
        mine.forEach(function (x) { problems.push(x); });
        return o;
      }};
    }
    // a list of entries with add and remove: a map's entries are named, an array's are not
    function entries(kind, itemSchema, id, label, where, required, least, name) {
      var fs = h("fieldset", {className: "sf-list", id: id}, h("legend", {text: label}));
      var itemType = resolve(itemSchema);
      if (itemType.anyOf || itemType.oneOf) itemType = pickOf(itemType);
      var isObject = itemType.type === "object" && !!itemType.properties;
      var one = singular(name);   // "ability"; null when the name is not a plural ("assessed")
      var noun = one || "entry";
      var add = h("button", {type: "button", className: "ghost sf-add", text: one ? "Add " + an(one) : "Add to " + label.toLowerCase()});
      var list = h("ol", {className: "sf-entries"});
      var items = [];
      var self;
      function renumber() {
        items.forEach(function (it, i) { if (it.named) it.named(i + 1); });
      }
      function addOne() {
        var n = ++count;
        var li = h("li", {className: "sf-entry"});
        var item = {li: li};
        if (kind === "map") {
          var nameInput = h("input", {id: "sf-key-" + n, className: "sf-key", type: "text", autocomplete: "off", "aria-required": "true"});
          var nameBox = h("div", {className: "stack sf-field"}, h("label", {"for": "sf-key-" + n, text: "Name (id) of this " + noun}), nameInput);
          li.appendChild(nameBox);
          item.key = function () { return nameInput.value.trim(); };
          item.keyNode = {el: nameBox, input: nameInput, where: function () { return where().concat([item.key()]); }};
          nodes.push(item.keyNode);
        }
        var path = kind === "map"
          ? function () { return where().concat([item.key()]); }
          : function () { return where().concat([items.indexOf(item)]); };
        var itemLabel = kind === "map" ? (isObject ? "Details of this " + noun : "Value") : sentence(noun) + " " + (items.length + 1);
        item.f = field(itemSchema, itemLabel, path, true);
        item.f.el.setAttribute("data-entry", "");
        if (kind !== "map") {
          // the entry's label follows its place in the list when one above it is removed
          var labelEl = item.f.el.querySelector(item.f.el.tagName === "FIELDSET" ? "legend" : "label");
          item.named = function (i) { if (labelEl) labelEl.textContent = sentence(noun) + " " + i; };
        }
        li.appendChild(item.f.el);
        var remove = h("button", {type: "button", className: "ghost sf-remove", text: "Remove this " + noun});
        remove.addEventListener("click", function () {
          items.splice(items.indexOf(item), 1);
          li.remove();
          renumber();
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
      self = {el: fs, input: null, value: function (problems) {
        var out;
        if (kind === "map") {
          out = {};
          var given = 0;
          items.forEach(function (it) {
            var k = it.key();
            var v = it.f.value(problems);
            if (!k) {
              if (v !== undefined && !(isObject && !Object.keys(v).length)) problems.push({node: it.keyNode, message: "Give this " + noun + " a name."});
              else if (items.length <= (least || 0)) problems.push({node: it.keyNode, message: "Give this " + noun + " a name."});
              return;
            }
            if (Object.prototype.hasOwnProperty.call(out, k)) {
              problems.push({node: it.keyNode, message: "Another " + noun + " is named “" + k + "”: give each its own name."});
              return;
            }
            if (v === undefined && !isObject) { problems.push({node: it.f.node, message: "Give the value of “" + k + "”."}); return; }
            out[k] = v === undefined ? {} : v;
            given++;
          });
          if (!given && !required) return undefined;
          if (given < (least || 0)) problems.push({node: self.node, message: "Give at least " + (least === 1 ? "one " + noun : least + " " + words(name)) + "."});
          return out;
        }
        // an entry left blank is not given (a blank record of a list, too: a stretch of nothing)
        out = items.map(function (it) { return it.f.value(problems); }).filter(function (v) {
          return v !== undefined && !(isObject && !Object.keys(v).length);
        });
        if (!out.length && !required) return undefined;
        if (out.length < (least || 0)) problems.push({node: self.node, message: "Give at least " + (least === 1 ? "one " + noun : least + " " + words(name)) + "."});
        return out;
      }};
      return self;
    }
    function last(where) { var w = where(); return w.length ? String(w[w.length - 1]) : "entries"; }
    function mapField(s, id, label, where, required) {
      var item = s.additionalProperties && s.additionalProperties !== true ? s.additionalProperties : {type: "string"};
      return entries("map", item, id, label, where, required, s.minProperties || 0, last(where));
    }
    function listField(s, id, label, where, required) {
      return entries("array", s.items || {type: "string"}, id, label, where, required, s.minItems || 0, last(where));
    }
    // a tuple (a Gin Lane link: two zones, and a cost or not): its parts in order, a tail past
    // the shortest form optional
    function tupleField(s, label, where) {
      var fs = h("fieldset", {className: "sf-tuple"}, h("legend", {text: label}));
      var least = s.minItems !== undefined ? s.minItems : s.prefixItems.length;
      var ORDINAL = ["first", "second", "third", "fourth", "fifth"];
      var parts = s.prefixItems.map(function (sub, i) {
        var f = field(sub, sentence(ORDINAL[i] || "part " + (i + 1)) + (i >= least ? " (optional)" : ""),
          function () { return where().concat([i]); }, i < least);
        fs.appendChild(f.el);
        return f;
      });
      var self = {el: fs, value: function (problems) {
        var values = parts.map(function (f) { return f.value(problems); });
        while (values.length > least && values[values.length - 1] === undefined) values.pop();
        if (values.every(function (v) { return v === undefined; })) return undefined;
        values.forEach(function (v, i) { if (v === undefined) problems.push({node: parts[i].node, message: "This is needed: fill it in."}); });
        return values;
      }};
      return self;
    }

    var top = resolve(root);
    var wrap = h("fieldset", {className: "sf-root"}, h("legend", {text: title}));
    if (top.description) wrap.appendChild(h("p", {className: "muted sf-about", text: about(top.description)}));
    var main = field(Object.assign({}, top, {title: null, description: null}), "Setup", function () { return []; }, true);
    wrap.appendChild(main.el);

    function clear() {
      wrap.querySelectorAll(".sf-error").forEach(function (x) { x.remove(); });
      wrap.querySelectorAll("[aria-invalid]").forEach(function (x) {
        x.removeAttribute("aria-invalid");
        var hint = x.getAttribute("data-sf-hint");
        if (hint) x.setAttribute("aria-describedby", hint); else x.removeAttribute("aria-describedby");
        x.removeAttribute("data-sf-hint");
      });
    }
    // a message next to a field: the field marked invalid and described by it; its input (or
    // the list's first, or its Add button) returned, for the focus
    function mark(node, message) {
      var id = "sf-err-" + (++count);
      var msg = h("p", {className: "error sf-error", id: id, text: message});
      node.el.appendChild(msg);
      var input = node.input || node.el.querySelector("input, select, textarea") || node.el.querySelector("button");
      if (input) {
        var hint = input.getAttribute("aria-describedby");
        if (hint && !input.hasAttribute("data-sf-hint")) input.setAttribute("data-sf-hint", hint);
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", (hint ? hint + " " : "") + id);
      }
      return input;
    }
    // the server's message, in words, next to the field its path names (or the nearest above)
    function showError(path, message) {
      var real = path.filter(function (p) { return !/[\[\]]/.test(String(p)); });  // pydantic's union tags
      var best = null, bestLength = -1;
      nodes.forEach(function (n) {
        if (!n.el.isConnected) return;
        var w = n.where().map(String);
        if (w.length > real.length || w.length <= bestLength) return;
        if (JSON.stringify(real.slice(0, w.length).map(String)) !== JSON.stringify(w)) return;
        best = n; bestLength = w.length;
      });
      if (!best || !bestLength) return null;   // not at any one field: the caller says it
      return mark(best, plain(message, path)) || best.el;
    }
    // the form's value, and what is wrong with it: each problem shown at its field
    function read() {
      var problems = [];
      var value = main.value(problems) || {};
      var marked = problems.map(function (p) { return mark(p.node, p.message); }).filter(Boolean);
      marked.sort(function (a, b) { return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1; });
      return {value: value, problems: problems, first: marked[0] || null};
    }
    return {el: wrap, read: read, showError: showError, clear: clear};
  }

  return {build: build, plain: plain, labelOf: labelOf, singular: singular};
})();
