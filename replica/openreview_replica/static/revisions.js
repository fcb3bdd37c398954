// The /revisions page as openreview.net serves it (public source: openreview/openreview-web
// app/revisions/page.js, Revisions.js, V1Revisions.js, RevisionsList.js, lib/api-client.js),
// rendered client-side from the same API requests with the same parameters:
//   1. getNoteById: v2 GET /notes?details=writable,forumContent&id=ID&trash=true, then the same on
//      v1 when v2 answers NotFoundError or no note (query-string sorts keys, as api-client does);
//   2. note.version === 2: v2 GET /notes/edits?details=writable,presentation,invitation&note.id=ID&sort=tcdate&trash=true
//      else (v1):          v1 GET /references?original=true&referent=ID&trash=true, then
//                          v1 GET /invitations?expired=true&ids=INV1&ids=INV2 (no invitation -> no rows).
// Markup: .revisions > header h1 + .references-list.submissions-list > .row per revision, or the
// alert "No revisions to display."; a failed request -> ErrorAlert (.alert.alert-danger "Error: ..."; a
// network failure reads "The OpenReview API is currently unavailable...", api-client.js formatError)
// in place of the list; a failed note lookup -> ErrorDisplay (.error-display pre.error-message);
// ChallengeRequiredError -> redirect to /challenge?redirect=... (api-client.js checkStatus).
(function () {
  "use strict";
  var cfg = window.REPLICA_CONFIG || {};
  var root = document.getElementById("content");
  var noteId = new URLSearchParams(window.location.search).get("id") || "";

  // Authentication is the `openreview.accessToken` cookie, sent along (credentials: 'include') as
  // openreview-web's api-client does in the browser; with only the Accept header the requests are
  // CORS-simple (no preflight).

  // query-string's stringify: keys sorted, arrays as repeated keys, null skipped
  function stringify(data) {
    return Object.keys(data).sort().filter(function (k) { return data[k] !== null && data[k] !== undefined; })
      .map(function (k) {
        var v = data[k];
        return Array.isArray(v)
          ? v.map(function (x) { return encodeURIComponent(k) + "=" + encodeURIComponent(x); }).join("&")
          : encodeURIComponent(k) + "=" + encodeURIComponent(v);
      }).join("&");
  }

  function get(path, data, version) {
    var base = version === 1 ? cfg.apiV1 : cfg.apiV2;
    var headers = { Accept: "application/json,text/*;q=0.99" };
    var q = stringify(data || {});
    return fetch(base + path + (q ? "?" + q : ""),
                 { method: "GET", mode: "cors", credentials: "include", headers: headers }).catch(function (err) {
      // api-client.js formatError: a network failure (fetch's TypeError) becomes UnavailableError
      if (!(err instanceof TypeError)) throw err;
      var e = new Error("The OpenReview API is currently unavailable, please wait and try again later");
      e.name = "UnavailableError"; e.status = 500;
      throw e;
    }).then(function (r) {
      if (r.ok) return r.json();
      return r.json().catch(function () { return {}; }).then(function (body) {
        var e = new Error(body.message || "HTTP " + r.status);
        e.name = body.name; e.status = body.status || r.status;
        if (e.status === 403 && e.name === "ChallengeRequiredError") {
          window.location = "/challenge?redirect=" + encodeURIComponent(window.location.pathname + window.location.search);
          return new Promise(function () {});
        }
        throw e;
      });
    });
  }

  function getById(path, id, version, params) {
    var data = Object.assign({ id: id }, params);
    return get("/" + path, data, version).then(function (res) {
      return res[path] && res[path].length ? res[path][0] : null;
    }, function (err) {
      if (err.name === "NotFoundError") return null;
      throw err;
    });
  }

  function getNoteById(id) {
    var params = { details: "writable,forumContent", trash: true };
    return getById("notes", id, 2, params).then(function (note) {
      return note || getById("notes", id, 1, params);
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function errorDisplay(message) {
    root.innerHTML = "";
    var row = el("div", "row error-display");
    var head = el("header", "col-xs-12 col-md-10 col-md-offset-1 text-center");
    head.appendChild(el("h1", null, "Error"));
    row.appendChild(head);
    var body = el("div", "col-xs-12 col-md-10 col-md-offset-1 text-center");
    body.appendChild(el("h4", null, "The server responded with the following message:"));
    body.appendChild(el("pre", "error-message", message));
    row.appendChild(body);
    root.appendChild(row);
  }

  function errorAlert(container, message) {
    var a = el("div", "alert alert-danger");
    a.appendChild(el("span", "glyphicon glyphicon-exclamation-sign"));
    a.appendChild(document.createTextNode(" "));
    a.appendChild(el("strong", null, "Error:"));
    a.appendChild(document.createTextNode(" " + message));
    container.appendChild(a);
  }

  function field(v) { return v && typeof v === "object" && "value" in v ? v.value : v; }

  function revisionRow(item) {
    var row = el("div", "row");
    var check = el("div", "checkbox col-sm-1");
    var label = el("label");
    var box = el("input"); box.type = "checkbox";
    label.appendChild(box); check.appendChild(label); row.appendChild(check);
    var body = el("div", "col-sm-9");
    var edit = el("div", "edit" + (item.ddate ? " edit-trashed" : ""));
    edit.appendChild(el("div", "edit-title", item.title || "(no title)"));
    edit.appendChild(el("div", "edit-invitation", (item.invitation || "").split("/-/").pop().replace(/_/g, " ")));
    edit.appendChild(el("div", "edit-date", new Date(item.tcdate).toUTCString()));
    if (item.pdf) {
      var a = el("a", "attachment-download-link", "Download PDF");
      a.href = item.pdf;
      edit.appendChild(a);
    }
    body.appendChild(edit);
    row.appendChild(body);
    return row;
  }

  function renderList(container, items) {
    var list = el("div", "references-list submissions-list hide-sidebar");
    items.forEach(function (item) { list.appendChild(revisionRow(item)); });
    if (items.length === 0) list.appendChild(el("div", "alert alert-danger", "No revisions to display."));
    container.appendChild(list);
  }

  function loadEdits(note) {
    return get("/notes/edits", { "note.id": note.id, sort: "tcdate",
                                 details: "writable,presentation,invitation", trash: true }, 2)
      .then(function (res) {
        return (res.edits || []).map(function (e) {
          var c = (e.note && e.note.content) || {};
          return { id: e.id, tcdate: e.tcdate, ddate: e.ddate, invitation: e.invitation, title: field(c.title),
                   pdf: field(c.pdf) ? "/notes/edits/attachment?id=" + encodeURIComponent(e.id) + "&name=pdf" : null };
        });
      });
  }

  function loadReferences(note) {
    return get("/references", { referent: note.id, original: true, trash: true }, 1).then(function (res) {
      var refs = res.references || [];
      var ids = Array.from(new Set(refs.map(function (r) {
        return (r.details && r.details.original && r.details.original.invitation) || r.invitation;
      })));
      return get("/invitations", { ids: ids, expired: true }, 1).then(function (invRes) {
        if (!(invRes.invitations && invRes.invitations.length > 0)) return [];
        return refs.map(function (r) {
          var c = r.content || {};
          return { id: r.id, tcdate: r.tcdate, ddate: r.ddate, invitation: r.invitation, title: c.title,
                   pdf: c.pdf ? "/references/pdf?id=" + encodeURIComponent(r.id) : null };
        });
      });
    });
  }

  function render(note) {
    root.innerHTML = "";
    var wrap = el("div", "revisions");
    var header = el("header");
    var h1 = el("h1", null, "Revision History");
    header.appendChild(h1);
    var buttons = el("div", "button-container");
    var compare = el("button", "btn btn-primary", "Compare Revisions");
    compare.disabled = true;
    buttons.appendChild(compare);
    header.appendChild(buttons);
    wrap.appendChild(header);
    var spinner = el("div", "spinner-container", "Loading");
    wrap.appendChild(spinner);
    root.appendChild(wrap);
    var load = note.version === 2 ? loadEdits(note) : loadReferences(note);
    load.then(function (items) {
      setTimeout(function () {
        wrap.removeChild(spinner);
        var titled = items.filter(function (i) { return i.title; });
        if (titled.length) h1.textContent = "Revision History for " + titled[titled.length - 1].title.slice(0, 40);
        compare.disabled = items.length === 0;
        renderList(wrap, items);
      }, Math.floor((cfg.delayMs || 0) / 2));
    }, function (err) {
      wrap.removeChild(spinner);
      errorAlert(wrap, err.message || String(err));
    });
  }

  function start() {
    if (!noteId) return errorDisplay("Missing id");
    getNoteById(noteId).then(function (note) {
      if (!note) throw new Error("The note " + noteId + " could not be found");
      render(note);
    }).catch(function (err) { errorDisplay(err.message || String(err)); });
  }

  setTimeout(start, Math.floor((cfg.delayMs || 0) / 2));
})();
