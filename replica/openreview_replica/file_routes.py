"""PDFs and attachments: /pdf, /attachment (one file or a zip), API v2's /notes/edits/attachment and
API v1's /references/pdf, with the PDF faults (missing, truncated, bad) applied."""

from __future__ import annotations

import io
import zipfile

from .faults import bad_pdf
from .http_base import ApiError, not_found
from .listing import content_value, sha_from_value


class FileRoutes:
    """File downloads: a mixin of server.ReplicaHandler, whose base
    (http_base.HandlerBase) holds the request plumbing these methods call."""

    # PDFs
    def _send_pdf(self, forum_id: str, value, name: str = "pdf"):
        f = self.state.faults
        if forum_id in f.missing_pdfs:
            raise not_found("PDF")
        sha = sha_from_value(value)
        data = self.state.fx.pdf_bytes(sha) if sha else None
        if data is None:
            raise not_found(f"Attachment {name}")
        if forum_id in f.corrupt_pdfs:
            data = data[: max(64, len(data) // 3)]
        if forum_id in f.bad_pdfs:
            data = bad_pdf(f.bad_pdfs[forum_id], data)
        ctype = "application/pdf" if str(value).endswith(".pdf") else "application/octet-stream"
        self._send(200, data, ctype, {"Content-Disposition": f'attachment; filename="{forum_id}.pdf"'})

    def _note_for_file(self, note_id: str) -> dict:
        return self._one("Note", note_id, self.idx.notes.get(note_id))

    def _pdf(self):
        nid = self.q.get("id")
        if not nid:
            raise ApiError(400, "ValidationError", "id is required")
        n = self._note_for_file(nid)
        val = content_value(n.get("content") or {}, "pdf")
        if not val:
            raise not_found("PDF")
        self._send_pdf(n["forum"], val)

    def _attachment(self):
        name = self.q.get("name") or "pdf"
        if self.q.get("ids"):
            ids = [i for i in self.q["ids"].split(",") if i]
            if len(ids) > 50:
                raise ApiError(400, "ValidationError", "ids must contain at most 50 ids", {"path": "ids"})
            if len(ids) == 1:
                self.q["id"] = ids[0]
            else:
                buf = io.BytesIO()
                f = self.state.faults
                with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
                    for i in ids:
                        n = self._note_for_file(i)
                        val = content_value(n.get("content") or {}, name)
                        sha = sha_from_value(val)
                        data = self.state.fx.pdf_bytes(sha) if sha else None
                        if data is None or n["forum"] in f.missing_pdfs:
                            continue
                        if n["forum"] in f.corrupt_pdfs:
                            data = data[: max(64, len(data) // 3)]
                        if n["forum"] in f.bad_pdfs:
                            data = bad_pdf(f.bad_pdfs[n["forum"]], data)
                        ext = str(val).rsplit(".", 1)[-1]
                        z.writestr(f"{i}.{ext}", data)
                return self._send(200, buf.getvalue(), "application/zip",
                                  {"Content-Disposition": f'attachment; filename="{name}.zip"'})
        nid = self.q.get("id")
        if not nid:
            raise ApiError(400, "ValidationError", "id or ids is required")
        n = self._note_for_file(nid)
        val = content_value(n.get("content") or {}, name)
        if not val:
            raise not_found(f"Attachment {name}")
        self._send_pdf(n["forum"], val, name)

    def _edit_attachment(self):
        eid = self.q.get("id")
        hit = self.idx.edits.get(eid or "")
        e = self._one("Edit", eid, hit[1] if hit else None)
        name = self.q.get("name") or "pdf"
        val = content_value(e["note"].get("content") or {}, name)
        if not val:
            raise not_found(f"Attachment {name}")
        self._send_pdf(e["note"]["id"], val, name)

    def _reference_pdf(self):
        rid = self.q.get("id")
        hit = self.idx.refs.get(rid or "")
        r = self._one("Reference", rid, hit[1] if hit else None, check_readers=False)
        name = self.q.get("name") or "pdf"
        val = (r.get("content") or {}).get(name)
        if not val:
            raise not_found(f"Attachment {name}")
        self._send_pdf(r["referent"], val, name)
