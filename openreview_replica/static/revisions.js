// Client-side rendered revision history (like openreview.net/revisions?id=...).
// The HTML shell holds no revision data; this script fetches it from the replica API with the
// token from the `openreview.accessToken` cookie and renders the DOM contract:
//   <div id="revisions-list" data-loaded="true" data-forum="FORUM">
//     <div class="revision" data-revision-id="ID" data-tcdate="MS" data-invitation="INV">
//       <span class="revision-date">...</span> <a class="pdf-link" href="ABSOLUTE API URL">PDF</a>
//   On error: data-loaded="true" data-error="message".
(function () {
  "use strict";
  var cfg = window.REPLICA_CONFIG || {};
  var list = document.getElementById("revisions-list");
  var status = document.getElementById("status");
  var forum = new URLSearchParams(window.location.search).get("id") || "";
  list.setAttribute("data-forum", forum);

  function readCookie(name) {
    var parts = document.cookie ? document.cookie.split(";") : [];
    for (var i = 0; i < parts.length; i++) {
      var kv = parts[i].trim();
      var eq = kv.indexOf("=");
      if (eq > 0 && kv.slice(0, eq) === name) return decodeURIComponent(kv.slice(eq + 1));
    }
    return null;
  }

  function finish(error) {
    if (error) {
      list.setAttribute("data-error", error);
      status.textContent = error;
      status.className = "error";
    } else {
      status.textContent = "";
    }
    list.setAttribute("data-loaded", "true");
  }

  var token = readCookie(cfg.cookieName || "openreview.accessToken");

  function api(base, path) {
    return fetch(base + path, {
      headers: { Authorization: "Bearer " + token, Accept: "application/json" },
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) {
        if (!r.ok) {
          var e = new Error((body && body.message) || "HTTP " + r.status);
          e.status = r.status;
          e.name2 = body && body.name;
          throw e;
        }
        return body;
      });
    });
  }

  function enc(s) { return encodeURIComponent(s); }

  function loadRows() {
    return api(cfg.apiV2, "/notes?id=" + enc(forum)).then(
      function () {
        return api(cfg.apiV2, "/notes/edits?note.id=" + enc(forum) + "&sort=tcdate&trash=true").then(function (r) {
          return r.edits.map(function (e) {
            var c = (e.note && e.note.content) || {};
            return {
              id: e.id, tcdate: e.tcdate, invitation: e.invitation,
              title: c.title ? c.title.value : "",
              pdf: c.pdf && c.pdf.value ? cfg.apiV2 + "/notes/edits/attachment?id=" + enc(e.id) + "&name=pdf" : null,
            };
          });
        });
      },
      function (err) {
        if (err.status !== 404 || !cfg.apiV1) throw err;
        return api(cfg.apiV1, "/notes?id=" + enc(forum)).then(function () {
          return api(cfg.apiV1, "/references?referent=" + enc(forum) + "&original=true&trash=true").then(function (r) {
            return r.references.map(function (ref) {
              var c = ref.content || {};
              return {
                id: ref.id, tcdate: ref.tcdate, invitation: ref.invitation, title: c.title || "",
                pdf: c.pdf ? cfg.apiV1 + "/references/pdf?id=" + enc(ref.id) : null,
              };
            });
          });
        });
      }
    );
  }

  function render(rows) {
    rows.sort(function (a, b) { return b.tcdate - a.tcdate; });
    rows.forEach(function (row) {
      var div = document.createElement("div");
      div.className = "revision";
      div.setAttribute("data-revision-id", row.id);
      div.setAttribute("data-tcdate", String(row.tcdate));
      div.setAttribute("data-invitation", row.invitation);
      var date = document.createElement("span");
      date.className = "revision-date";
      date.textContent = new Date(row.tcdate).toUTCString();
      div.appendChild(date);
      var inv = document.createElement("span");
      inv.className = "revision-invitation";
      inv.textContent = " " + row.invitation.split("/-/").pop().replace(/_/g, " ") + " ";
      div.appendChild(inv);
      if (row.title) {
        var t = document.createElement("span");
        t.className = "revision-title";
        t.textContent = row.title + " ";
        div.appendChild(t);
      }
      if (row.pdf) {
        var a = document.createElement("a");
        a.className = "pdf-link";
        a.href = row.pdf;
        a.textContent = "Download PDF";
        div.appendChild(a);
      }
      list.appendChild(div);
    });
  }

  function start() {
    if (!forum) return finish("Missing forum id");
    if (!token) {
      status.innerHTML = '<p class="login-required">Please <a href="/login">log in</a> to view the revision history.</p>';
      list.setAttribute("data-error", "Login required (ChallengeRequiredError): no openreview.accessToken cookie");
      list.setAttribute("data-loaded", "true");
      return;
    }
    loadRows().then(
      function (rows) {
        setTimeout(function () { render(rows); finish(null); }, cfg.delayMs || 0);
      },
      function (err) {
        setTimeout(function () { finish(err.message || String(err)); }, cfg.delayMs || 0);
      }
    );
  }

  setTimeout(start, Math.floor((cfg.delayMs || 0) / 2));
})();
