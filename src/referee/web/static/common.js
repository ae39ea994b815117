// Shared helpers: building elements (text only, never parsed as HTML) and calling the API.
var Ref = (function () {
  "use strict";
  function h(tag, attrs) {
    var el = document.createElement(tag);
    var k;
    for (k in (attrs || {})) {
      if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null || attrs[k] === false) continue;
      if (k === "text") el.textContent = attrs[k];
      else if (k === "className") el.className = attrs[k];
      else el.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null) continue;
      if (Array.isArray(c)) c.forEach(function (x) { if (x != null) el.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
      else el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return el;
  }
  function api(method, path, body) {
    var init = {method: method, credentials: "same-origin", headers: {}};
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (r) {
      var type = r.headers.get("content-type") || "";
      var read = type.indexOf("json") >= 0 ? r.json() : r.text();
      return read.then(function (data) { return {ok: r.ok, status: r.status, data: data}; });
    });
  }
  function errorText(res) {
    var e = res.data && res.data.error;
    if (!e) return "The server answered " + res.status + ".";
    var where = e.where && e.where.length ? " (" + e.where.join(".") + ")" : "";
    return e.message + where;
  }
  function show(value) {
    if (value == null) return "—";
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (Array.isArray(value)) return value.map(show).join(", ");
    if (value.name && typeof value.name === "string") return value.name;
    return Object.keys(value).map(function (k) { return k + ": " + show(value[k]); }).join("; ");
  }
  function fraction(text) {
    var p = String(text).split("/");
    return p.length === 2 ? Number(p[0]) / Number(p[1]) : Number(p[0]);
  }
  function pct(p) {
    if (p === 0) return "0%";
    if (p < 0.001) return "<0.1%";
    return (Math.round(p * 1000) / 10) + "%";
  }
  return {h: h, api: api, errorText: errorText, show: show, fraction: fraction, pct: pct};
})();
