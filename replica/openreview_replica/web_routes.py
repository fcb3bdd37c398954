"""The web site: the /revisions page shell (its script reads the APIs, as openreview.net's does),
/challenge, the static script and the index page."""

from __future__ import annotations

import json
from importlib import resources

from .replica_state import ReplicaState


class WebRoutes:
    """Web pages: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # -- web
    def _web(self):
        p = self._path
        if p == "/revisions":
            return self._send(200, revisions_html(self.state).encode(), "text/html; charset=utf-8")
        if p == "/challenge":  # where openreview-web sends a ChallengeRequiredError
            body = ("<!doctype html><html><head><title>Challenge | OpenReview</title></head><body>"
                    "<main id=\"content\"><h1>Verify you are human</h1><p>Please log in or complete "
                    "the challenge.</p></main></body></html>")
            return self._send(200, body.encode(), "text/html; charset=utf-8")
        if p.startswith("/static/"):
            name = p[len("/static/"):]
            if "/" in name or name not in ("revisions.js",):
                return self._send(404, b"not found", "text/plain")
            data = resources.files("openreview_replica").joinpath("static", name).read_bytes()
            # openreview.net is a Next.js site: its scripts live under /_next/static/ with a content
            # hash in the name and are served `public, max-age=31536000, immutable` (Next.js docs,
            # "Caching": static assets in /_next/static), so a tab loads them once, not per page.
            return self._send(200, data, "application/javascript; charset=utf-8",
                              {"Cache-Control": "public, max-age=31536000, immutable"})
        if p == "/":
            body = (f"<!doctype html><html><head><title>OpenReview replica</title></head><body>"
                    f"<h1>OpenReview replica</h1><p>API v2: {self.state.urls.get('v2')}<br>"
                    f"API v1: {self.state.urls.get('v1')}</p></body></html>")
            return self._send(200, body.encode(), "text/html; charset=utf-8")
        if p == "/favicon.ico":
            return self._send(204, b"", "image/x-icon")
        return self._send(404, b"<!doctype html><title>Not found</title><h1>404</h1>", "text/html; charset=utf-8")


def revisions_html(state: ReplicaState) -> str:
    """The page shell: no revision data, a loading spinner, the client-side script (as openreview.net)."""
    cfg = json.dumps({"apiV2": state.urls.get("v2"), "apiV1": state.urls.get("v1"),
                      "delayMs": state.web_delay_ms, "cookieName": "openreview.accessToken"})
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Revision History | OpenReview</title>
<style>body{{font-family:sans-serif;margin:2em}} .references-list .row{{border-bottom:1px solid #ddd;padding:.5em 0}}
.alert-danger{{color:#a00}}</style></head>
<body><main id="content"><div class="spinner-container">Loading</div></main>
<script>window.REPLICA_CONFIG = {cfg};</script>
<script src="/static/revisions.js"></script>
</body></html>"""
