// The table as this seat sees it, drawn with Preact + htm (static/vendor/README.md): the page is
// a function of the observation (GET /api/tables/{id}, the answers to actions, the WebSocket's
// pushes). Preact patches the DOM, so a push keeps what a person is doing: typed values, open
// forms, the focus, the caret, the log's scroll. Each choice's form is keyed by its actor, kind
// and label (never by its place in the list); what a person typed lives in that form's state.
// Its forms are built by table-forms.js (RefForms), its cards, charts and generic panels drawn by
// table-cards.js (RefCards); the seat's game's own screens (games/<system>.js) are loaded once
// the seat's game is known.
(function () {
  "use strict";
  var P = window.preact, H = window.preactHooks;
  var h = P.h, Fragment = P.Fragment, html = window.htm.bind(h);
  var useState = H.useState, useRef = H.useRef, useEffect = H.useEffect, useLayoutEffect = H.useLayoutEffect;
  var id = document.body.dataset.table;
  var base = "/api/tables/" + encodeURIComponent(id);
  var root = document.getElementById("table-app");
  var F = window.RefForms, C = window.RefCards;
  var words = F.words, J = F.J, slug = F.slug, hash = F.hash;
  var ensure = F.ensure, valueOf = F.valueOf, usable = F.usable, fields = F.fields;
  var oddsWords = C.oddsWords, OddsBox = C.OddsBox, sameCard = C.sameCard, cardsOf = C.cardsOf;
  var RollCard = C.RollCard, OddsChart = C.OddsChart, Generic = C.Generic, Flat = C.Flat;
  var FairDice = C.FairDice;

  // ------------------------------------------------------------------ the store
  var S = {
    me: null, obs: null, refereeGame: true, fatal: null,
    events: [], epoch: 0, lastNumber: 0, seq: 0, earlier: null, earlierBusy: false, earlierSaid: "",
    refused: "", conn: "", actAs: null, promptsSeen: null, focusAfter: null
  };
  var forms = {};   // choice key -> {draft, params: () => its params as they stand} (RefTable.paramsOf)

  function start() {
    draw();
    Ref.api("GET", base + "/seat").then(function (res) {
      if (!res.ok) {
        S.fatal = res.status === 401
          ? "This browser has no seat here: open your join link (ask the table's host)."
          : Ref.errorText(res);
        draw();
        return null;
      }
      S.me = res.data;
      return Promise.all([Ref.api("GET", "/api/games"), loadGame(S.me.system)]).then(function (both) {
        var games = both[0];
        (games.ok ? games.data : []).forEach(function (g) {
          if (g.name === S.me.system) S.refereeGame = !!g.has_referee;
        });
        return Ref.api("GET", base);
      });
    }).then(function (res) {
      if (!res) return;
      if (!res.ok) { S.fatal = Ref.errorText(res); draw(); return; }
      apply(res.data, true);
      connect();
    });
  }

  // The seat's game's own screens and styles (games/<system>.js and .css), loaded once its game
  // is known: only the files the page lists as present (data-game-scripts, data-game-styles), so
  // a game without screens of its own is drawn with the generic panel. Its styles go right after
  // app.css. Resolves when each has loaded or failed.
  function loadGame(system) {
    var file = "/static/games/" + encodeURIComponent(system);
    function listed(name) { return (document.body.dataset[name] || "").split(" ").indexOf(system) >= 0; }
    function added(el, place) {
      return new Promise(function (done) {
        el.onload = el.onerror = function () { done(); };
        place(el);
      });
    }
    var script = document.createElement("script"), style = document.createElement("link");
    script.src = file + ".js";
    style.rel = "stylesheet";
    style.href = file + ".css";
    var app = document.querySelector('link[href="/static/app.css"]');
    return Promise.all([
      listed("gameScripts") ? added(script, function (el) { document.head.appendChild(el); }) : null,
      listed("gameStyles") ? added(style, function (el) {
        if (app) app.insertAdjacentElement("afterend", el); else document.head.appendChild(el);
      }) : null
    ]);
  }

  // Reconnecting: soon at first, then every 1.6 s at most, each wait jittered by a quarter so
  // that a room of phones does not come back in one burst; a server back up is found within 2 s.
  var retry = 250;
  function nextWait() {
    var wait = retry * (0.75 + Math.random() * 0.5);
    retry = Math.min(retry * 1.5, 1600);
    return wait;
  }
  // What the socket last sent, less the log (the base its next patch applies to), and its version.
  var live = null, askedFull = false;
  var LOG_FIELDS = ["events", "actions", "since", "version", "tag", "reset", "table", "type", "earlier"];
  function baseOf(o) {
    var b = {};
    Object.keys(o).forEach(function (k) { if (LOG_FIELDS.indexOf(k) < 0) b[k] = o[k]; });
    return b;
  }
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var url = scheme + location.host + base + "/live?since=" + S.obs.version +
      (S.obs.tag ? "&tag=" + encodeURIComponent(S.obs.tag) : "");
    var socket = new WebSocket(url);
    live = null; askedFull = false;
    socket.onopen = function () { retry = 250; S.conn = "Live."; draw(); document.body.dataset.live = "1"; };
    socket.onmessage = function (m) {
      var data = JSON.parse(m.data);
      if (data.type === "observation") {
        live = {base: baseOf(data), version: data.version};
        askedFull = false;
        apply(data, false);
      } else if (data.type === "events") {
        // a long catch-up comes in pages of events before its observation
        addEvents(data.events || [], !!data.reset, false);
        draw(true);
        return;
      } else if (data.type === "patch") {
        // the events since the version this socket last sent, and a patch of the rest against
        // what it last sent; one that cannot apply (a gap) asks for a full observation
        var whole = live && live.version === data.since ? patched(live.base, data.patch) : null;
        if (!whole) {
          live = null;
          if (!askedFull && socket.readyState === 1) {
            askedFull = true;
            socket.send(JSON.stringify({type: "full", since: S.obs.version, tag: S.obs.tag || null}));
          }
          return;
        }
        live = {base: whole, version: data.version};
        apply(Object.assign({}, whole, {events: data.events, actions: data.actions, version: data.version,
          since: data.since, tag: data.tag, table: data.table, reset: false}), false);
      } else {
        return;
      }
      document.body.dataset.seen = String(performance.timeOrigin + performance.now());
    };
    socket.onclose = function (ev) {
      document.body.dataset.live = "0";
      if (ev.code === 4401) { S.conn = "This seat's link was revoked: ask for a new one."; draw(); return; }
      S.conn = "Reconnecting…";
      draw();
      // fell behind (4408): back at once, catching up from the version the page holds
      setTimeout(connect, ev.code === 4408 ? 0 : nextWait());
    };
  }

  // A JSON Patch (RFC 6902: add, remove, replace, the ops the server sends) applied to ``doc``
  // without changing it: each container on an op's path is copied, the rest shared (so Preact
  // sees new objects only where something changed). null if an op does not apply.
  function patched(doc, ops) {
    function steps(path) {
      if (path === "") return [];
      if (path.charAt(0) !== "/") throw new Error("bad pointer");
      return path.slice(1).split("/").map(function (s) { return s.replace(/~1/g, "/").replace(/~0/g, "~"); });
    }
    function index(list, step, adding) {
      if (step === "-" && adding) return list.length;
      if (!/^(0|[1-9][0-9]*)$/.test(step)) throw new Error("bad index");
      var i = Number(step);
      if (i > list.length || (i === list.length && !adding)) throw new Error("past the end");
      return i;
    }
    function at(node, path, op, value) {
      var step = path[0], rest = path.slice(1), copy;
      var has = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
      if (Array.isArray(node)) {
        copy = node.slice();
        var i = index(copy, step, op === "add" && !rest.length);
        if (rest.length) copy[i] = at(copy[i], rest, op, value);
        else if (op === "add") copy.splice(i, 0, value);
        else if (op === "remove") copy.splice(i, 1);
        else copy[i] = value;
        return copy;
      }
      if (node === null || typeof node !== "object") throw new Error("no member " + step);
      copy = Object.assign({}, node);
      if (rest.length) {
        if (!has(copy, step)) throw new Error("no member " + step);
        copy[step] = at(copy[step], rest, op, value);
      } else if (op === "add") copy[step] = value;
      else {
        if (!has(copy, step)) throw new Error("no member " + step);
        if (op === "remove") delete copy[step]; else copy[step] = value;
      }
      return copy;
    }
    try {
      (ops || []).forEach(function (o) {
        if (["add", "remove", "replace"].indexOf(o.op) < 0) throw new Error("op " + o.op);
        var path = steps(o.path);
        if (!path.length) {
          if (o.op === "remove") throw new Error("remove the whole");
          doc = o.value;
        } else doc = at(doc, path, o.op, o.value);
      });
      return doc;
    } catch (e) {
      return null;
    }
  }

  // An observation in: new events appended (after an undo, ``reset``, the log replaced), the
  // rest replaced; then the page drawn again (Preact patches only what changed).
  function apply(o, first) {
    // an answer or a push older than what the page holds (a push built before the answer to
    // this page's own action came in) is not the table now: only an undo (``reset``, or
    // ``first``) takes the page back
    if (!first && !o.reset && S.obs && typeof o.version === "number" && o.version < S.obs.version) return;
    // an open (the first answer, a socket's first message to a page holding no events, an
    // undo's reset) carries the latest events and says where older ones begin
    var opening = first || o.reset || !S.events.length;
    var fresh = addEvents(o.events || [], first || o.reset, first);
    if (opening && o.earlier != null) S.earlier = o.earlier;   // older events to page in
    S.obs = Object.assign({}, S.obs || {}, o);
    notePrompts(first);
    draw(fresh.length > 0);
    document.body.dataset.version = String(o.version);
  }

  // Events into the log (after an undo, ``reset``, the log replaced), each once: those it has.
  function addEvents(events, reset, first) {
    if (reset) { S.events = []; S.lastNumber = 0; S.epoch++; S.earlier = null; S.earlierSaid = ""; RefSeal.reset(); }
    var fresh = events.filter(function (e) { return e.number == null || e.number > S.lastNumber; });
    fresh.forEach(function (e) {
      S.events.push({e: e, isNew: !first, key: S.epoch + ":" + (e.number != null ? e.number : "x" + (++S.seq)),
        legacy: legacyEvent(e)});
      if (e.number != null) S.lastNumber = e.number;
    });
    return fresh;
  }

  // A prompt for this seat that was not there before makes the phone vibrate (where allowed).
  function notePrompts(first) {
    var now = {}, fresh = false;
    promptsOf(S.obs).filter(isMine).forEach(function (p) {
      var k = promptKey(p);
      now[k] = true;
      if (!first && S.promptsSeen && !S.promptsSeen[k]) fresh = true;
    });
    S.promptsSeen = now;
    if (fresh && typeof navigator.vibrate === "function") {
      try { navigator.vibrate(200); } catch (e) { /* not allowed here */ }
    }
  }

  function draw(grew) {
    var before = document.activeElement;
    var inApp = before && before !== document.body && root.contains(before);
    var log = document.getElementById("log");
    var atEnd = !log || log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    P.render(h(App, null), root);
    log = document.getElementById("log");
    if (log && grew && atEnd) log.scrollTop = log.scrollHeight;   // follow, unless scrolled back
    var lost = !document.activeElement || document.activeElement === document.body;
    if (S.focusAfter) {
      var el = document.getElementById(S.focusAfter) || document.getElementById("act-h");
      S.focusAfter = null;
      if (el) el.focus();
    } else if (inApp && !before.isConnected && lost) {
      // what had the focus went with a choice that is gone: "Your move", not <body>
      var heading = document.getElementById("act-h");
      if (heading) heading.focus();
    }
  }

  // ------------------------------------------------------------------ small helpers
  // a choice's stable key, and the id its form's elements derive from (sanitised, unique)
  function labelOf(c) { return c.label || c.kind.replace(/[._]/g, " "); }
  function keyOf(c) { return c.actor + "|" + c.kind + "|" + labelOf(c); }
  function idOf(key) { return "c-" + slug(key) + "-" + hash(key); }
  function game() { return (window.RefGames && S.me && window.RefGames[S.me.system]) || {}; }
  function isNewContract(g) { return !!(g.Board || g.Console || g.contract === 2); }
  function hasReferee() { return S.refereeGame; }
  function promptsOf(o) { return (o && Array.isArray(o.prompts)) ? o.prompts : []; }
  function isMine(p) { return !!S.me && (S.me.is_referee || (S.me.plays || []).indexOf(p.actor) >= 0); }
  function promptKey(p) { return [p.actor, (p.kinds || []).join(","), p.cause, p.reason].join("|"); }
  function answers(p, c) { return c.prompt === true && c.actor === p.actor && (p.kinds || []).indexOf(c.kind) >= 0; }
  // A refusal (the server's error body) in words: a rule's names the rule's section
  function refusalWords(e) {
    if (e.code !== "rule") return e.message || "Refused.";
    var text = "The rules refuse this" + (e.rule ? " (" + e.rule + ")" : "") + ": " + (e.reason || e.message);
    return /[.!?]$/.test(text) ? text : text + ".";
  }
  // A character (faction, player) as the page names it: the game's own naming (its nameOf,
  // games/base.js), else the name the state gives it (characters.<id>.name), else its id.
  function nameOf(actor) {
    var g = game(), s = S.obs && S.obs.state, named = null;
    if (typeof g.nameOf === "function") { try { named = g.nameOf(actor, context(false)); } catch (e) { named = null; } }
    if (!named && s && typeof s === "object") {
      var c = (s.characters || {})[actor];
      if (c && typeof c === "object" && typeof c.name === "string" && c.name) named = c.name;
    }
    return named || actor;
  }
  // a DOM element from a vnode (for the old hooks, which take and give elements)
  function toDom(vnode) {
    var box = document.createElement("div");
    P.render(vnode, box);
    return box.firstChild;
  }

  // ------------------------------------------------------------------ the page
  function App() {
    if (S.fatal) {
      return h(Fragment, null, h("h1", {id: "title"}, "No seat at this table"),
        h("div", {id: "refused", className: "error", role: "alert"}, S.fatal));
    }
    if (!S.obs) return h(Fragment, null, h("h1", {id: "title"}, "Table"), h("p", {className: "muted"}, "Loading the table…"));
    var ctx = context(false);
    return h(Fragment, null,
      h(Header, null),
      h(Result, {result: S.obs.result}),
      h("div", {className: "layout"},
        h("section", {"aria-labelledby": "act-h", className: "panel", id: "act-panel"},
          h("h2", {id: "act-h", tabIndex: -1}, "Your move"),
          h(Prompts, {prompts: promptsOf(S.obs), choices: S.obs.choices || []}),
          h("p", {id: "to-move", className: "muted"}, (S.obs.to_move || []).length ? "To move: " + S.obs.to_move.map(nameOf).join(", ") : ""),
          h("div", {id: "refused", className: "error", role: "alert", tabIndex: -1}, S.refused),
          h(Choices, {console: h(ConsoleSlot, {ctx: ctx})}),
          h(Undo, null),
          h("div", {id: "fair-dice"},
            h(FairDice, {send: send, base: base, mayReveal: S.me.is_referee || !hasReferee()})),
          h("p", {id: "handouts"}, "Handouts to print (PDF): ",
            h("a", {id: "handouts-a4", download: true, href: base + "/handouts?paper=a4"}, "A4"), " · ",
            h("a", {id: "handouts-letter", download: true, href: base + "/handouts?paper=letter"}, "US Letter"))),
        h(LogPanel, {count: S.events.length}),
        h("section", {"aria-labelledby": "state-h", className: "panel", id: "state-panel", tabIndex: 0},
          h("h2", {id: "state-h"}, "The table"),
          h(StateSlot, {ctx: ctx}))),
      h("p", {id: "conn", className: "muted", role: "status"}, S.conn));
  }

  function Header() {
    var me = S.me, title = me.name || ((me.title || me.system) + " table");
    document.title = title + " · Referee";
    return h(Fragment, null, h("h1", {id: "title"}, title),
      h("p", {id: "whoami", className: "muted"}, "You are " +
        (me.is_referee ? "the referee" : "seat " + me.seat + (me.plays.length ? ", playing " + me.plays.join(", ") : "")) +
        " · " + (me.title || me.system) + " · version " + S.obs.version));
  }

  // The game's or a conflict's end (obs.result, when the kernel sends it).
  function Result(props) {
    var r = props.result;
    if (!r || typeof r !== "object") return null;
    var conflict = r.conflict && r.conflict.over ? r.conflict : null;
    if (!r.over && !conflict) return null;
    var named = conflict && conflict.name ? conflict.name.charAt(0).toUpperCase() + conflict.name.slice(1) : "The conflict";
    function line(x) {
      var won = (x.winners || []).length ? "Won: " + x.winners.map(nameOf).join(", ") + "." : "Nobody won.";
      return (x.summary ? x.summary + " " : "") + won;
    }
    return html`<section class="result" role="region" aria-labelledby="result-h">
      <h2 id="result-h">${r.over ? "The game is over" : named + " is over"}</h2>
      ${r.over ? html`<p>${line(r)}</p>` : null}
      ${conflict ? html`<p>${r.over ? named + ": " : ""}${line(conflict)}</p>` : null}
    </section>`;
  }

  // ------------------------------------------------------------------ prompts
  // The seat's prompts first, each with the choices that answer it and "Decline" where the rules
  // give a default; a prompt for another seat is only a line saying whom the table waits for.
  function Prompts(props) {
    var list = props.prompts;
    if (!list.length) return null;
    return h("div", {className: "prompts"}, list.map(function (p) {
      var k = promptKey(p);
      if (!isMine(p)) {
        return h("p", {key: k, className: "prompt-other muted"}, "Waiting for " + (p.name || nameOf(p.actor)) + ": " + p.reason);
      }
      return h(PromptBox, {key: k, p: p, choices: props.choices});
    }));
  }

  function PromptBox(props) {
    var p = props.p, k = promptKey(p), hid = "prompt-" + slug(p.actor) + "-" + hash(k);
    var refusal = useState(""), refused = refusal[0], setRefused = refusal[1];
    var mine = props.choices.filter(function (c) { return answers(p, c); });
    return h("section", {className: "prompt", role: "region", "aria-labelledby": hid},
      h("h3", {id: hid}, (p.name || nameOf(p.actor)) + ": " + p.reason),
      h("p", {className: "muted"}, [p.section ? "Rules: " + p.section + "." : "",
        p.blocking ? " Nobody else may act until this is answered." : ""].join("")),
      h(PromptOdds, {choices: mine, id: hid}),
      mine.map(function (c) { return h(Choice, {key: keyOf(c), c: c}); }),
      refused ? h("p", {id: hid + "-refusal", className: "refusal form-refusal", role: "alert"}, refused) : null,
      p.default ? h("button", {type: "button", className: "ghost decline", id: hid + "-decline",
        "aria-describedby": refused ? hid + "-refusal" : null,
        onClick: function () {
          setRefused("");
          send(p.default.kind, p.actor, p.default.params || {}, hid + "-decline", function (e) {
            document.body.dataset.refusals = String(Number(document.body.dataset.refusals || 0) + 1);
            setRefused(refusalWords(e));
          });
        }},
        "Decline" + (mine.length ? "" : " (" + words(p.default.kind) + ")")) : null);
  }

  // The odds of every answer to a prompt side by side, each choice's previews as the rules give
  // them now, without opening any (a choice's own form then follows its fields).
  function PromptOdds(props) {
    var shown = [];
    props.choices.forEach(function (c) {
      (Array.isArray(c.odds) ? c.odds : []).forEach(function (o, i) {
        if (o && o.odds) shown.push({key: keyOf(c) + "|" + i, c: c, o: o});
      });
    });
    if (!shown.length) return null;
    var several = props.choices.length > 1;   // then each says which answer it is the odds of
    return h("div", {className: "prompt-odds", role: "group", "aria-label": "The odds of each answer"},
      shown.map(function (x) {
        var title = x.o.label || labelOf(x.c);
        return h("figure", {key: x.key, className: "prompt-odd"},
          h("figcaption", null, several ? h("span", {className: "prompt-odd-choice"}, labelOf(x.c) + ": ") : null,
            h("strong", null, title), x.o.dice ? h("span", {className: "muted"}, " " + x.o.dice) : null),
          OddsChart(x.o.odds, null, "Odds of " + title));
      }));
  }

  // ------------------------------------------------------------------ choices
  // The waiting lines first (on a phone, read before any tool), then the game's console, then
  // the generic forms.
  function Choices(props) {
    var prompts = promptsOf(S.obs).filter(isMine);
    var choices = (S.obs.choices || []).filter(function (c) {
      return !prompts.some(function (p) { return answers(p, c); });   // those are under their prompt
    });
    var actors = [];
    choices.forEach(function (c) { if (actors.indexOf(c.actor) < 0) actors.push(c.actor); });
    var picked = "";
    if (actors.length > 1) {  // a referee acting for many: one actor's choices at a time
      picked = S.actAs;
      if (picked == null || (picked !== "" && actors.indexOf(picked) < 0)) picked = S.actAs = actors[0];
    }
    var shown = choices.filter(function (c) { return !picked || c.actor === picked; });
    return h("div", {id: "choices"},
      h(WaitingLines, {waiting: S.obs.waiting || []}),
      props.console,
      !(S.obs.choices || []).length && !(S.obs.waiting || []).length ? h("p", {className: "muted"}, "Nothing for you to do right now.") : null,
      actors.length > 1 ? h("div", {className: "stack"}, h("label", {"for": "act-as"}, "Act as"),
        h("select", {id: "act-as", value: picked, onChange: function (ev) { S.actAs = ev.target.value; draw(); }},
          h("option", {value: ""}, "everyone"),
          actors.map(function (a) { return h("option", {key: a, value: a}, nameOf(a)); }))) : null,
      shown.map(function (c) { return h(Choice, {key: keyOf(c), c: c}); }));
  }

  // Why each character of this seat that cannot act now waits, and until when ("Moll: knocked
  // out, until 19:40."), first where the choices would be. The region is always there, so a
  // screen reader announces (politely) a line as it comes, changes or goes.
  function WaitingLines(props) {
    return h("div", {className: "waiting-lines", "aria-live": "polite", "aria-atomic": "false"},
      props.waiting.map(function (w) {
        var reason = String(w.reason || "").replace(/[.\s]+$/, ""), until = w.until ? String(w.until).replace(/[.\s]+$/, "") : "";
        var who = w.name || nameOf(w.actor), named = reason.indexOf(who) === 0;   // "Moll is knocked out"
        return h("p", {key: "wait-" + w.actor, className: "waiting", "data-actor": w.actor,
            title: w.section ? "Rules: " + w.section : null},
          named ? null : h("strong", null, who + ": "), reason + (until ? ", " + until : "") + ".");
      }));
  }

  // One choice: a details/summary with its form. Its draft (what the person typed and picked),
  // its odds answer and its open state stay as long as the choice is offered.
  function Choice(props) {
    var c = props.c, key = keyOf(c), fid = idOf(key), label = labelOf(c);
    var top = {record: c.params || {}};
    var draft = useRef({}).current;
    var bump = useState(0)[1];
    var odds = useState(null), asked = odds[0], setAsked = odds[1];
    var say = useState(""), said = say[0], setSaid = say[1];
    var pending = useRef(null), timer = useRef(null), focusNext = useRef(null), details = useRef(null);
    var alive = useRef(true);
    var refusal = useState(null), refused = refusal[0], setRefused = refusal[1], turns = useRef(0);
    var cRef = useRef(c);
    cRef.current = c;

    function params() { return valueOf({record: cRef.current.params || {}}, draft, null); }
    function requestOdds(byPerson) {
      var cur = cRef.current, ask;
      try { ask = J({kind: cur.kind, actor: cur.actor, params: params()}); } catch (e) { return; }
      if (pending.current === ask) return;
      pending.current = ask;
      clearTimeout(timer.current);
      timer.current = setTimeout(function () {   // debounced; the last answer asked for wins
        Ref.api("POST", base + "/odds", JSON.parse(ask)).then(function (res) {
          if (!alive.current || pending.current !== ask) return;
          pending.current = null;
          if (!res.ok) {   // a field the server cannot read yet: said at that field, quietly
            var e = res.data && res.data.error;
            if (e && e.code === "action" && (e.where || [])[0] === "params") refuse(e, false);
            return;
          }
          setRefused(function (r) { return r && !r.loud ? null : r; });
          setAsked({odds: res.data.odds});
          if (byPerson) setSaid(oddsWords(res.data.odds));
        }, function () { if (pending.current === ask) pending.current = null; });
      }, 120);
    }
    // A refusal in this form: at the field its path names (focused, when sent), else at the
    // button; ``loud`` (an answer to sending) is announced at once, a quiet one (the odds asked
    // while typing) is read with its field.
    function refuse(e, loud) {
      var form = document.getElementById(fid + "-form"), where = e.where || [];
      var at = where[0] === "params" ? F.placeOf(form, where.slice(1)) : "";
      if (!loud && !at) return;
      var said = {at: at, id: fid + "-refusal", message: refusalWords(e), loud: loud, turn: loud ? ++turns.current : 0};
      setRefused(function (r) { return r && r.loud && !loud ? r : said; });   // an answer to sending stays
      if (loud) {   // counted on the page (data-refusals), for tools and tests to wait on
        document.body.dataset.refusals = String(Number(document.body.dataset.refusals || 0) + 1);
        var el = at && form ? form.querySelector('[data-path="' + CSS.escape(at) + '"]') : null;
        focusNext.current = el && el.id ? el.id : fid + "-go";
      }
    }
    forms[key] = {draft: draft, params: params};   // registered as drawn (RefTable.paramsOf)
    useEffect(function () {
      return function () {
        alive.current = false;
        clearTimeout(timer.current);
        if (forms[key] && forms[key].draft === draft) delete forms[key];
      };
    }, []);
    useEffect(function () {   // a push: the odds of the form as it stands, if it is open
      if (details.current && details.current.open) requestOdds(false);
    }, [S.obs.version]);
    useLayoutEffect(function () {
      if (!focusNext.current) return;
      var el = document.getElementById(focusNext.current);
      focusNext.current = null;
      if (el && !/^(INPUT|SELECT|BUTTON|TEXTAREA)$/.test(el.tagName)) el = el.querySelector("input, select, textarea, button") || el;
      if (el) el.focus();
    });
    var o = {id: fid, name: "", label: label, scope: null, refusal: refused,
      changed: function () { setRefused(null); bump(function (n) { return n + 1; }); requestOdds(true); },
      focusLater: function (x) { focusNext.current = x; }};
    var shownOdds = asked ? asked.odds : c.odds;
    var ok = usable(c.params || {});
    var me = S.me;
    return h("details", {className: "choice" + (ok ? "" : " unusable"), "data-key": key, id: fid, ref: details,
        onToggle: function () { if (details.current && details.current.open) requestOdds(false); }},
      h("summary", null, label + ((me.plays || []).length === 1 && c.actor === me.plays[0] ? "" : " — " + nameOf(c.actor))),
      h("form", {"data-kind": c.kind, "data-actor": c.actor, id: fid + "-form", noValidate: true,
          onSubmit: function (ev) {
            ev.preventDefault();
            var p, mend = F.checked(ev.currentTarget);
            if (mend) {   // said at the field before it is sent (the odds' words, if they said it)
              refuse({code: "action", where: ["params"].concat(mend.at.split(".")),
                message: refused && refused.at === mend.at ? refused.message : mend.message}, true);
              return;
            }
            try { p = params(); } catch (e) { return; }
            clearTimeout(timer.current);   // the odds asked while typing: this answer comes instead
            pending.current = null;
            setRefused(null);
            send(c.kind, c.actor, p, fid + "-go", function (e) { refuse(e, true); });
          }},
        fields(top, ensure(top, draft), o),
        ok ? null : h("p", {className: "muted"}, "Nothing can be chosen for this now."),
        h(OddsBox, {odds: shownOdds, label: label}),
        h("p", {className: "sr-only", role: "status"}, said),
        refused && !refused.at ? h("p", {key: "refusal-" + refused.turn, id: refused.id, className: "refusal form-refusal",
          role: "alert"}, refused.message) : null,
        h("button", {type: "submit", id: fid + "-go",
          "aria-describedby": refused && !refused.at ? refused.id : null}, label)));
  }

  function Undo() {
    var show = (S.me.is_referee || !hasReferee()) && S.obs.version > 0;
    return h("div", {id: "undo-box"}, show ? h("button", {type: "button", className: "ghost", id: "undo", onClick: doUndo},
      "Undo the last action") : null);
  }

  // ------------------------------------------------------------------ acting
  // Take an action on the version this page shows; the answer (or the refusal) is shown. The
  // promise says whether it was taken. After it, the focus stays on ``focusId`` (the form's
  // button) — or, if that is gone, "Your move" — or moves to the refusal: given to ``refuse``
  // (the form's own, shown at its field or button), else in the page's one alert (#refused).
  var busy = false;
  function send(kind, actor, params, focusId, refuse) {
    if (busy && focusId) return Promise.resolve(false);
    busy = true;
    S.refused = "";
    draw();
    return Ref.api("POST", base + "/actions", {kind: kind, params: params, version: S.obs.version, actor: actor})
      .then(function (res) {
        busy = false;
        if (res.ok) { S.focusAfter = focusId || null; apply(res.data, false); return true; }
        if (res.status === 409) {
          S.refused = "The table moved on while you chose: look again, then choose again.";
          return Ref.api("GET", base).then(function (r) {
            S.focusAfter = "refused";
            if (r.ok) apply(r.data, true); else draw();
            return false;
          });
        }
        if (refuse && res.data && res.data.error && (res.status === 422 || res.status === 403)) {
          refuse(res.data.error);
          draw();
          return false;
        }
        S.refused = "Refused: " + Ref.errorText(res);
        S.focusAfter = "refused";
        draw();
        return false;
      }, function () {
        busy = false;
        S.refused = "Could not reach the server.";
        S.focusAfter = "refused";
        draw();
        return false;
      });
  }

  function doUndo() {
    S.refused = "";
    draw();
    Ref.api("POST", base + "/undo", {version: S.obs.version}).then(function (res) {
      if (res.ok) { S.focusAfter = "undo"; apply(res.data, true); return; }
      S.refused = "Refused: " + Ref.errorText(res);
      S.focusAfter = "refused";
      draw();
    });
  }

  // ------------------------------------------------------------------ the log
  // An old table opens with its latest events; "Earlier events" pages in the ones before them
  // (GET .../events?before=), put at the top of the log. The view stays where it was (the
  // log's scroll is kept from its bottom), the focus stays on the button (on the log once the
  // first event is in), and nothing typed elsewhere is touched. A page that comes after an undo
  // replaced the log is dropped.
  var EARLIER_PAGE = 100;
  function loadEarlier() {
    if (S.earlier == null || S.earlierBusy) return;
    var epoch = S.epoch;
    S.earlierBusy = true;
    draw();
    Ref.api("GET", base + "/events?before=" + S.earlier + "&limit=" + EARLIER_PAGE).then(function (res) {
      S.earlierBusy = false;
      if (epoch !== S.epoch) { draw(); return; }
      if (!res.ok) { S.earlierSaid = "Could not load earlier events: " + Ref.errorText(res); draw(); return; }
      var first = S.events.length && S.events[0].e.number != null ? S.events[0].e.number : Infinity;
      var older = (res.data.events || []).filter(function (e) { return e.number < first; });
      S.events = older.map(function (e) {
        return {e: e, isNew: false, key: S.epoch + ":" + e.number, legacy: null};
      }).concat(S.events);
      S.earlier = res.data.earlier;
      S.earlierSaid = older.length + (older.length === 1 ? " earlier event" : " earlier events") +
        " added at the top" + (S.earlier == null ? ": this is the start of the table." : ".");
      var log = document.getElementById("log");
      var fromBottom = log ? log.scrollHeight - log.scrollTop : 0;
      if (S.earlier == null) S.focusAfter = "log";
      draw();
      log = document.getElementById("log");
      if (log) log.scrollTop = log.scrollHeight - fromBottom;
    }, function () {
      S.earlierBusy = false;
      S.earlierSaid = "Could not reach the server.";
      draw();
    });
  }

  // Folded on a phone ("What has happened (N)", closed), open on a wide screen; each event drawn
  // once, keyed by its number, so the live list only ever gets additions.
  function LogPanel(props) {
    var fold = useRef(null);
    useLayoutEffect(function () {
      if (window.matchMedia && window.matchMedia("(min-width: 60rem)").matches) fold.current.open = true;
    }, []);
    return h("section", {"aria-labelledby": "log-h", className: "panel", id: "log-panel"},
      h("details", {className: "log-fold", id: "log-fold", ref: fold},
        h("summary", null, h("h2", {id: "log-h"}, "What has happened (" + props.count + ")")),
        S.earlier != null ? h("button", {type: "button", id: "log-earlier", className: "log-earlier",
          "aria-busy": S.earlierBusy ? "true" : null, onClick: loadEarlier}, "Earlier events") : null,
        h("p", {id: "log-earlier-said", className: "muted", "aria-live": "polite"}, S.earlierSaid || null),
        h("ol", {id: "log", className: "log", "aria-live": "polite", "aria-relevant": "additions", tabIndex: 0,
            "aria-label": "What has happened, oldest first"},
          S.events.map(function (x) { return h(EventItem, {key: x.key, e: x.e, isNew: x.isNew, legacy: x.legacy}); }))));
  }

  function EventItem(props) { P.Component.call(this, props); }
  EventItem.prototype = Object.create(P.Component.prototype);
  EventItem.prototype.constructor = EventItem;
  EventItem.prototype.shouldComponentUpdate = function () { return false; };   // drawn once
  // An old hook decorates a log item in place (a compatibility island). It runs as the event
  // arrives, before the console and board are drawn (they read what it remembers), on a
  // detached item whose additions EventItem moves into its own; a roll card it draws that the
  // item already shows is not drawn again.
  function legacyEvent(e) {
    var g = game();
    if (!g.event || isNewContract(g)) return null;
    var li = document.createElement("li"), drawn = {};
    cardsOf(e).forEach(function (c) { drawn[sameCard(c)] = true; });
    var ctx = context(true);
    ctx.rollCard = function (c) {
      if (drawn[sameCard(c)]) return document.createDocumentFragment();
      drawn[sameCard(c)] = true;
      return toDom(RollCard(c));
    };
    try { g.event(e, li, ctx); } catch (err) { /* the plain item stays */ }
    return li;
  }
  EventItem.prototype.componentDidMount = function () {
    var li = this.li || this.base, from = this.props.legacy;
    if (!li || !from) return;
    while (from.firstChild) li.appendChild(from.firstChild);
    from.classList.forEach(function (c) { li.classList.add(c); });
  };
  EventItem.prototype.render = function (props) {
    var self = this, e = props.e, g = game(), extra = null;
    if (g.event && isNewContract(g)) {
      try { extra = g.event(e, context(false)); } catch (err) { extra = null; }
    }
    var seals = RefSeal.see(e.payload).map(function (v, i) {
      var ok = v.verdict === "checked";
      return h("div", {key: "seal" + i, className: "seal " + (ok ? "ok" : "bad"), "data-verdict": v.verdict},
        ok ? "✓ checked: " + v.choice + " is the choice that was sealed"
          : v.verdict === "MISMATCH" ? "✗ " + v.choice + " is NOT the choice that was sealed"
          : "? " + v.choice + ": its sealing is not in this page's log");
    });
    var more = "";
    if (g.eventClass && isNewContract(g)) {
      try { more = g.eventClass(e, context(false)) || ""; } catch (err) { more = ""; }
    }
    var cls = [props.isNew ? "new" : "", more].join(" ").trim();
    return h("li", {className: cls || null, "data-kind": e.kind, ref: function (el) { self.li = el; }},
      h("span", {className: "num"}, "#" + e.number), h("span", null, e.text || e.kind),
      cardsOf(e).map(function (c, i) { return h(Fragment, {key: "card" + i}, RollCard(c)); }),
      seals, extra);
  };

  // ------------------------------------------------------------------ the game's screens
  // An error in a game's Board shows the generic panel instead (until the next observation).
  function Boundary(props) { P.Component.call(this, props); this.state = {failedAt: null}; }
  Boundary.prototype = Object.create(P.Component.prototype);
  Boundary.prototype.constructor = Boundary;
  Boundary.getDerivedStateFromError = function () { return {failedAt: S.obs ? S.obs.version : -1}; };
  Boundary.prototype.render = function (props, state) {
    if (state.failedAt != null && state.failedAt === (S.obs && S.obs.version)) return props.fallback();
    return props.children;
  };

  // An old hook's element mounted into a container Preact leaves alone (a compatibility island),
  // built again for each observation, the focus kept on the element of the same id.
  function Island(props) {
    var box = useRef(null), seen = useRef(null);
    useLayoutEffect(function () {
      var el = box.current;
      if (!el || seen.current === S.obs) return;
      seen.current = S.obs;
      var keep = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : null;
      var made = null;
      try { made = props.build(); } catch (err) { made = props.fallback ? props.fallback() : null; }
      // built anew for each push, its live regions would speak on every push: not here (an old
      // console's own redraw on a person's change keeps them)
      if (made && made.querySelectorAll) {
        if (made.removeAttribute) made.removeAttribute("aria-live");
        made.querySelectorAll("[aria-live]").forEach(function (x) { x.removeAttribute("aria-live"); });
      }
      el.textContent = "";
      if (made) el.appendChild(made);
      if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
    });
    return h("div", {id: props.id, ref: box});
  }

  function ConsoleSlot(props) {
    var g = game();
    if (g.Console) return h("div", {id: "console"}, h(Boundary, {fallback: function () { return null; }}, h(g.Console, {ctx: props.ctx})));
    if (g.console && !isNewContract(g)) {
      return h(Island, {id: "console", build: function () { return g.console(context(true)); }});
    }
    return h("div", {id: "console"});
  }

  function StateSlot(props) {
    var g = game(), s = S.obs.state;
    if (s == null) return h("div", {id: "state"});
    if (g.Board) {
      return h("div", {id: "state"}, h(Boundary, {fallback: function () { return Generic(s); }},
        h(g.Board, {state: s, ctx: props.ctx})));
    }
    if (g.board && !isNewContract(g)) {
      return h(Island, {id: "state", build: function () { return g.board(S.obs.state, context(true)); },
        fallback: function () { return toDom(Generic(S.obs.state)); }});
    }
    return h("div", {id: "state"}, Generic(s));
  }

  // What a game's screens may use (games/base.js): vnodes for the new contract, DOM elements
  // for the old hooks (``legacy``).
  function context(legacy) {
    function dom(f) { return function () { return toDom(f.apply(null, arguments)); }; }
    return {
      obs: S.obs, me: S.me, h: legacy ? Ref.h : h, html: html, Fragment: Fragment, hooks: H, ui: window.RefUI,
      generic: legacy ? dom(Generic) : Generic, flat: legacy ? dom(Flat) : Flat,
      oddsChart: legacy ? dom(OddsChart) : OddsChart, rollCard: legacy ? dom(RollCard) : RollCard,
      // a console that shows a refusal at its own field passes ``refuse(error, words)``
      act: function (kind, actor, params, refuse) {
        return send(kind, actor, params, null, typeof refuse === "function"
          ? function (e) { refuse(e, refusalWords(e)); } : null);
      },
      odds: function (kind, actor, params) {
        return Ref.api("POST", base + "/odds", {kind: kind, actor: actor, params: params || {}})
          .then(function (res) { return res.ok ? res.data.odds : []; });
      },
      choices: function (kind, actor) {
        return (S.obs.choices || []).filter(function (c) {
          return (!kind || c.kind === kind) && (!actor || c.actor === actor);
        });
      }
    };
  }

  window.RefTable = {
    // for the old hooks (DOM elements)
    generic: function (s) { return toDom(Generic(s)); },
    flat: function (o) { return toDom(Flat(o)); },
    context: function () { return context(true); },
    // for tests and tools: draw an observation as if pushed; a choice's key, its form's id and
    // its params as they stand
    render: function (o) { apply(Object.assign({version: S.obs ? S.obs.version : 0}, o), false); },
    keyOf: keyOf,
    idOf: idOf,
    patched: patched,
    paramsOf: function (key) { return forms[key] ? forms[key].params() : undefined; }
  };
  start();
})();
