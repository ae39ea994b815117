// The forms of the table page, built from a choice's parameter domains (docs/web.md, "The
// pages"): one_of, between, some_of, text, and the structured record, any_of, steps, depends.
// A form's draft is a tree of plain nodes, one per field, kept by its Choice (table.js): these
// functions make a draft whole for its domain, read the JSON value it stands for, and draw its
// editors with Preact, a refusal shown at the field it names (docs/web.md, "Refusals at the
// field"). Nothing here reads the table: only a domain, a draft and the editor's options.
window.RefForms = (function () {
  "use strict";
  var P = window.preact;
  var h = P.h, Fragment = P.Fragment;
  var OMIT = {};   // a field left out of the params (an optional field off, a depends with no case)

  // ------------------------------------------------------------------ small helpers
  function words(name) { return String(name).replace(/_/g, " "); }
  function J(v) { return JSON.stringify(v); }
  function slug(s) { return String(s).replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "x"; }
  function hash(s) {
    var x = 5381;
    for (var i = 0; i < s.length; i++) x = ((x * 33) ^ s.charCodeAt(i)) >>> 0;
    return x.toString(36);
  }

  // ------------------------------------------------------------------ domains
  // Domains (docs/web.md): one_of, between, some_of, text, and the structured record, any_of,
  // steps, depends. A form's draft is a tree of plain nodes, one per field, kept by the Choice.
  function kindOf(dom) {
    if (!dom || typeof dom !== "object") return "text";
    if (Array.isArray(dom.one_of)) return "one_of";
    if (dom.between || ("low" in dom && "high" in dom)) return "between";
    if (Array.isArray(dom.some_of)) return "some_of";
    if (dom.record && typeof dom.record === "object") return "record";
    if (dom.any_of && typeof dom.any_of === "object") return "any_of";
    if ("steps" in dom) return "steps";
    if ("depends" in dom) return "depends";
    return "text";
  }
  function bounds(dom) { return dom.between || [dom.low, dom.high]; }
  function child(holder, k) { return holder[k] || (holder[k] = {}); }
  function isOptional(dom, name) { return (dom.optional || []).indexOf(name) >= 0; }
  function caseOf(dom, value) {
    var v = J(value);
    for (var i = 0; i < (dom.cases || []).length; i++) if (J(dom.cases[i][0]) === v) return i;
    return -1;
  }
  // a draft node made whole for its domain (a value the domain no longer holds falls back)
  function ensure(dom, node) {
    switch (kindOf(dom)) {
      case "one_of":
        var keys = dom.one_of.map(J);
        if (keys.indexOf(node.v) < 0) node.v = keys.length ? keys[0] : "";
        break;
      case "between": if (node.v == null) node.v = String(bounds(dom)[0]); break;
      case "some_of": if (!node.v) node.v = {}; break;
      case "record": node.f = node.f || {}; node.on = node.on || {}; break;
      case "any_of":
        var labels = Object.keys(dom.any_of);
        if (labels.indexOf(node.shape) < 0) node.shape = labels[0];
        node.s = node.s || {};
        break;
      case "steps":
        if (!node.items) { node.items = []; node.n = 0; }
        while (node.items.length < (dom.least || 0)) node.items.push({id: ++node.n, node: {}});
        break;
      case "depends": node.c = node.c || {}; break;
      default: if (node.v == null) node.v = typeof dom.text === "string" ? dom.text : "";
    }
    return node;
  }
  // a record's fields read lazily, so a depends field can ask for its sibling's value (in the
  // same record, else in the records around it up to the choice's params)
  function scopeOf(dom, node, parent) {
    var memo = {}, busy = {};
    var scope = {
      get: function (name) {
        if (!Object.prototype.hasOwnProperty.call(dom.record, name)) return parent ? parent.get(name) : OMIT;
        if (Object.prototype.hasOwnProperty.call(memo, name)) return memo[name];
        if (busy[name]) return OMIT;
        busy[name] = true;
        var fd = dom.record[name], v;
        if (isOptional(dom, name) && !node.on[name]) v = OMIT;
        else if (kindOf(fd) === "depends") {
          var i = caseOf(fd, scope.get(fd.depends));
          v = i < 0 ? OMIT : valueOf(fd.cases[i][1], child(ensure(fd, child(node.f, name)).c, i), scope);
        } else v = valueOf(fd, child(node.f, name), scope);
        memo[name] = v;
        return v;
      }
    };
    return scope;
  }
  // the JSON value a draft node stands for
  function valueOf(dom, node, scope) {
    ensure(dom, node);
    switch (kindOf(dom)) {
      case "one_of": var i = dom.one_of.map(J).indexOf(node.v); return i < 0 ? null : dom.one_of[i];
      case "between": return node.v === "" ? null : Number(node.v);
      case "some_of": return dom.some_of.filter(function (v) { return node.v[J(v)]; });
      case "record":
        var sc = scopeOf(dom, node, scope), out = {};
        Object.keys(dom.record).forEach(function (n) { var v = sc.get(n); if (v !== OMIT) out[n] = v; });
        return out;
      case "any_of": return valueOf(dom.any_of[node.shape], child(node.s, node.shape), scope);
      case "steps": return node.items.map(function (it) { return valueOf(dom.steps, it.node, scope); });
      case "depends": return OMIT;   // read through its record (scopeOf)
      default: return node.v;
    }
  }
  // whether a person can take the choice at all (a required field with nothing to choose from
  // cannot); on a phone such forms are not shown
  function usable(params) {
    return Object.keys(params).every(function (n) {
      var d = params[n];
      switch (kindOf(d)) {
        case "one_of": return d.one_of.length > 0;
        case "some_of": return d.some_of.length >= (d.least || 0);
        case "between": var b = bounds(d); return b[0] <= b[1];
        default: return true;
      }
    });
  }

  // ------------------------------------------------------------------ refusals at the field
  // A refusal (o.refusal: {at, id, message, loud}) is drawn at the field whose params path (its
  // name, "plan.0.move") is ``at``: the field marked aria-invalid and described by the message.
  // Every field carries its path (data-path) and label (data-label) for placeOf and checked.
  function refusedHere(o) { return o.refusal && o.refusal.at && o.refusal.at === o.name ? o.refusal : null; }
  function marked(o, attrs) {
    var r = refusedHere(o);
    attrs["data-path"] = o.name;
    attrs["data-label"] = o.label;
    if (r) { attrs["aria-invalid"] = "true"; attrs["aria-describedby"] = r.id; }
    return attrs;
  }
  function refusalAt(o) {
    var r = refusedHere(o);
    // keyed by its turn: an answer to sending is a new element, so it is announced each time
    return r ? h("p", {key: "refusal-" + (r.turn || 0), id: r.id, className: "refusal field-refusal",
      role: r.loud ? "alert" : null}, r.message) : null;
  }
  // where in a form a refusal's path (``where`` after "params") is shown: the deepest field it
  // names; a part no field stands for (pydantic's union shapes) is passed over; "" for none
  function placeOf(form, where) {
    var at = "";
    (where || []).forEach(function (part) {
      var next = at ? at + "." + part : String(part);
      if (form && form.querySelector('[data-path="' + CSS.escape(next) + '"]')) at = next;
    });
    return at;
  }
  // the first field of a form a person must still mend before it is sent (a number out of its
  // range, a required one empty), in the words the server would use: {at, message} or null
  function checked(form) {
    var fields = form ? form.querySelectorAll("input[data-path]") : [];
    for (var i = 0; i < fields.length; i++) {
      var el = fields[i], v = el.validity, label = "‘" + el.dataset.label + "’";
      if (!v || v.valid) continue;
      var said = v.valueMissing || v.badInput ? (el.type === "number" ? label + " must be a whole number." : label + " is needed.")
        : v.rangeUnderflow ? label + " must be " + el.min + " or more."
        : v.rangeOverflow ? label + " must be " + el.max + " or less."
        : v.stepMismatch ? label + " must be a whole number."
        : label + " is not right yet.";
      return {at: el.dataset.path, message: said};
    }
    return null;
  }

  // One field's editor. o: {id, name, label, scope, refusal, changed(), focusLater(id)}
  function editor(dom, node, o) {
    ensure(dom, node);
    var k = kindOf(dom);
    if (k === "one_of") {
      return h("div", {className: "stack"}, h("label", {"for": o.id}, o.label),
        h("select", marked(o, {id: o.id, name: o.name, value: node.v,
          onChange: function (ev) { node.v = ev.target.value; o.changed(); }}),
          dom.one_of.map(function (v) { return h("option", {key: J(v), value: J(v)}, Ref.show(v)); })),
        refusalAt(o));
    }
    if (k === "between") {
      var b = bounds(dom);
      return h("div", {className: "stack"}, h("label", {"for": o.id}, o.label + " (" + b[0] + " to " + b[1] + ")"),
        h("input", marked(o, {id: o.id, name: o.name, type: "number", min: b[0], max: b[1], step: 1, required: true,
          inputmode: "numeric", value: node.v, onInput: function (ev) { node.v = ev.target.value; o.changed(); }})),
        refusalAt(o));
    }
    if (k === "some_of") {
      return h("fieldset", marked(o, {id: o.id}), h("legend", null, o.label +
          (dom.least ? " (at least " + dom.least + ")" : "") + (dom.most ? " (at most " + dom.most + ")" : "")),
        refusalAt(o),
        dom.some_of.map(function (v, j) {
          var cid = o.id + "-" + j;
          return h("div", {key: J(v), className: "check"},
            h("input", {type: "checkbox", id: cid, value: String(j), checked: !!node.v[J(v)],
              onChange: function (ev) { node.v[J(v)] = ev.target.checked; o.changed(); }}),
            h("label", {"for": cid}, Ref.show(v)));
        }));
    }
    if (k === "record") {
      return h("fieldset", marked(o, {id: o.id, className: "record"}), h("legend", null, o.label), refusalAt(o),
        fields(dom, node, o));
    }
    if (k === "any_of") {
      var labels = Object.keys(dom.any_of);
      // its shape's editor, under the same name, is where a refusal of it is shown
      return h("fieldset", {id: o.id, className: "any-of"}, h("legend", null, o.label),
        h("div", {className: "stack"}, h("label", {"for": o.id + "-shape"}, "Kind of " + o.label.toLowerCase()),
          h("select", {id: o.id + "-shape", value: node.shape,
            onChange: function (ev) { node.shape = ev.target.value; o.changed(); }},
            labels.map(function (l) { return h("option", {key: l, value: l}, words(l)); }))),
        h(Fragment, {key: "shape-" + node.shape},
          editor(dom.any_of[node.shape], child(node.s, node.shape),
            Object.assign({}, o, {id: o.id + "-" + slug(node.shape), label: words(node.shape)}))));
    }
    if (k === "steps") return stepsEditor(dom, node, o);
    if (k === "depends") return null;   // drawn by its record, which knows the sibling
    return h("div", {className: "stack"}, h("label", {"for": o.id}, o.label),
      h("input", marked(o, {id: o.id, name: o.name, type: "text", maxlength: dom.max_length || 500,
        value: node.v, onInput: function (ev) { node.v = ev.target.value; o.changed(); }})),
      refusalAt(o));
  }

  // A record's fields in their order; an optional one behind a checkbox; a depends field with
  // the domain of the case its sibling's value picks (none: not shown, not sent).
  function fields(dom, node, o) {
    var sc = scopeOf(dom, node, o.scope);
    return Object.keys(dom.record).map(function (name) {
      var fd = dom.record[name];
      var sub = Object.assign({}, o, {id: o.id + "-" + slug(name), name: o.name ? o.name + "." + name : name,
        label: words(name), scope: sc});
      function inner() {
        if (kindOf(fd) === "depends") {
          var i = caseOf(fd, sc.get(fd.depends));
          if (i < 0) return null;
          var dn = ensure(fd, child(node.f, name));
          return h(Fragment, {key: "case-" + i}, editor(fd.cases[i][1], child(dn.c, i), sub));
        }
        return editor(fd, child(node.f, name), sub);
      }
      if (isOptional(dom, name)) {
        return h("div", {key: name, className: "optional"},
          h("div", {className: "check"},
            h("input", {type: "checkbox", id: sub.id + "-on", checked: !!node.on[name],
              onChange: function (ev) { node.on[name] = ev.target.checked; o.changed(); }}),
            h("label", {"for": sub.id + "-on"}, "Give " + sub.label + " (optional)")),
          node.on[name] ? inner() : null);
      }
      return h(Fragment, {key: name}, inner());
    });
  }

  // A list of steps: add, remove, move up, within least..most; each step keeps its draft when
  // the list is reordered (keyed by the step's own number, not its place).
  function stepsEditor(dom, node, o) {
    var least = dom.least || 0, most = dom.most == null ? Infinity : dom.most, items = node.items;
    var range = most === Infinity ? (least ? " (at least " + least + ")" : "") : " (" + least + " to " + most + ")";
    return h("fieldset", marked(o, {id: o.id, className: "steps"}), h("legend", null, o.label + range), refusalAt(o),
      h("ol", {className: "step-list"}, items.map(function (it, i) {
        var sid = o.id + "-s" + it.id;
        return h("li", {key: it.id, className: "step"},
          editor(dom.steps, it.node, Object.assign({}, o, {id: sid, name: o.name + "." + i, label: "Step " + (i + 1)})),
          h("div", {className: "step-tools"},
            i > 0 ? h("button", {type: "button", className: "ghost", id: sid + "-up", "aria-label": "Move step " + (i + 1) + " up",
              onClick: function () {
                items.splice(i - 1, 0, items.splice(i, 1)[0]);
                o.changed();
                o.focusLater(i - 1 > 0 ? sid + "-up" : sid);
              }}, "Move up") : null,
            items.length > least ? h("button", {type: "button", className: "ghost", id: sid + "-remove",
              "aria-label": "Remove step " + (i + 1),
              onClick: function () { items.splice(i, 1); o.changed(); o.focusLater(o.id + "-add"); }}, "Remove") : null));
      })),
      items.length < most ? h("button", {type: "button", className: "ghost", id: o.id + "-add",
        onClick: function () {
          var it = {id: ++node.n, node: {}};
          items.push(it);
          o.changed();
          o.focusLater(o.id + "-s" + it.id);
        }}, "Add a step") : null);
  }

  return {
    OMIT: OMIT, words: words, J: J, slug: slug, hash: hash,
    kindOf: kindOf, ensure: ensure, valueOf: valueOf, usable: usable, editor: editor, fields: fields,
    placeOf: placeOf, checked: checked
  };
})();
