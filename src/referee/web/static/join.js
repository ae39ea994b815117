// The join link's landing: post the token after "#" for this seat's cookie, then go to the table.
(function () {
  "use strict";
  var id = document.body.dataset.table;
  var status = document.getElementById("join-status");
  var token = decodeURIComponent(location.hash.replace(/^#/, ""));
  history.replaceState(null, "", location.pathname);  // the token leaves the address bar
  if (!token) { status.textContent = "This link has no token: ask the table's host for yours."; return; }
  fetch("/api/tables/" + encodeURIComponent(id) + "/join", {
    method: "POST", headers: {"Content-Type": "application/json"}, credentials: "same-origin",
    body: JSON.stringify({token: token})
  }).then(function (r) {
    if (r.ok) { location.replace("/table/" + encodeURIComponent(id)); return; }
    return r.json().then(function (b) {
      status.textContent = "Could not join: " + ((b.error && b.error.message) || r.status) +
        ". Ask the table's host for a new link.";
    });
  }).catch(function () { status.textContent = "Could not reach the server."; });
})();
