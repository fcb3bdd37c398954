"""Offline OpenReview replica: deterministic fixtures served over HTTP in the real API shapes.

>>> from openreview_replica import ReplicaServer, build_fixtures, FaultConfig
>>> fx = build_fixtures(["iclr-2024", "iclr-2020"], seed=0)
>>> with ReplicaServer(fx, port=0) as rep:
...     rep.api_v2_url, rep.api_v1_url, rep.web_url
"""

from .faults import FaultConfig
from .fixture_model import Fixtures, ForumTruth, RevisionTruth, VenueFixture
from .fixtures import build_fixtures
from .pdfgen import PdfSpec, marker_text, page_marker_text, render_pdf
from .replica_state import LoggedRequest
from .server import ReplicaServer
from .venue_spec import FieldSpec, VenueSpec
from .venues import VENUE_SPECS

__all__ = [
    "FaultConfig", "Fixtures", "ForumTruth", "RevisionTruth", "VenueFixture", "build_fixtures",
    "PdfSpec", "marker_text", "page_marker_text", "render_pdf", "LoggedRequest", "ReplicaServer",
    "VENUE_SPECS", "FieldSpec", "VenueSpec",
]
