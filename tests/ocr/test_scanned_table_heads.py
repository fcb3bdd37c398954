"""Issue 36 (real scans): a header cell stacked on two lines on a SCANNED page (a scanned bone-density
report's "Area (cm²)", "BMC (g)" over their columns) came out as two header rows ("Area" over
"(cm²)"): with no text stream on an OCR'd page (``Fragment.seq``), ``table_head_lines._second_row`` took a
line under most of the heads for a unit row of its own. Truth: the LaTeX below (``\\makecell``: one
cell each), judged by olmocr's own ``TableTest``."""
from __future__ import annotations

from benchmarks.fulltext_real.olmocr_judge import explain
from tests.ocr.scanned import scanned_pages

_TABLE = r"""
We compare the methods on three benchmarks, measured on the same machine with the same inputs.

\begin{table}[h]\centering
\begin{tabular}{lccc}
\toprule
Method & \makecell{Time\\(s)} & \makecell{Memory\\(GB)} & \makecell{Top-1\\Acc.} \\
\midrule
Baseline & 12.4 & 3.1 & 61.3 \\
Heuristic & 9.8 & 2.7 & 84.6 \\
Partition & 7.2 & 2.2 & 97.8 \\
Ours & 5.1 & 1.9 & 98.1 \\
\bottomrule
\end{tabular}
\end{table}

The partition is the best of the three baselines, and our method improves on it.
"""

_CELLS = [("12.4", "Time (s)"), ("2.7", "Memory (GB)"), ("98.1", "Top-1 Acc."), ("7.2", "Time (s)")]


def test_stacked_header_cells_on_a_scan_are_one_heading_each(tmp_path):
    (page,) = scanned_pages(tmp_path, _TABLE, r"\usepackage{booktabs,makecell}", angle=0.6)
    failed = [(cell, head, why) for cell, head in _CELLS
              for ok, why in [explain(page, {"id": "t", "type": "table", "cell": cell, "top_heading": head})] if not ok]
    assert not failed, page
