"""matplotlib's chart saved as a page of its own (``chart.pdf``; matplotlib 3.x's pdf backend, Type 3
DejaVu Sans, no margin): a line plot whose vertical axis's top tick label "8" stands alone in the
page's top band, where a page number would. ``python chart.py`` here rebuilds it."""
from pathlib import Path

import matplotlib

matplotlib.use("pdf")
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(5.4, 4.2))
ax.plot([0, 2, 4, 6, 8], [0, 3, 5, 6, 8])
ax.set_yticks([0, 2, 4, 6, 8])
ax.set_xticks([0, 2, 4, 6, 8])
fig.savefig(Path(__file__).with_suffix(".pdf"), bbox_inches="tight", metadata={"CreationDate": None})
