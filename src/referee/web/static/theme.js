// The theme: the system's (prefers-color-scheme) unless this browser chose one with the toggle.
(function () {
  "use strict";
  var KEY = "referee-theme";
  function chosen() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function dark() {
    var c = chosen();
    if (c) return c === "dark";
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function apply() {
    document.documentElement.dataset.theme = dark() ? "dark" : "light";
    var b = document.getElementById("theme");
    if (b) b.setAttribute("aria-pressed", dark() ? "true" : "false");
  }
  apply();
  if (window.matchMedia) {  // the system's theme changing at dusk follows, unless one was chosen
    var query = window.matchMedia("(prefers-color-scheme: dark)");
    if (query.addEventListener) query.addEventListener("change", apply);
  }
  document.addEventListener("DOMContentLoaded", function () {
    apply();
    var b = document.getElementById("theme");
    if (!b) return;
    b.addEventListener("click", function () {
      try { localStorage.setItem(KEY, dark() ? "light" : "dark"); } catch (e) { /* private mode */ }
      apply();
    });
  });
})();
