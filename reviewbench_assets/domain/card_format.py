"""Number formats and the text histogram of the dataset card: how figures read in its tables."""
from __future__ import annotations


def fmt_int(n: int) -> str:
    return f"{n:,}"


def fmt_rate(num: int, den: int) -> str:
    return f"{100.0 * num / den:.1f}%" if den else "–"


def fmt_num(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:.2f}"


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def fmt_value(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def rating_histogram(counts: dict[float, int], width: int = 40, max_bins: int = 20) -> str:
    """A unicode bar chart of a rating distribution: one bar per value when there are at most
    ``max_bins`` distinct values, else ``max_bins`` equal-width bins."""
    counts = {float(k): int(v) for k, v in counts.items() if v}
    if not counts:
        return "(no ratings)"
    values = sorted(counts)
    if len(values) <= max_bins:
        rows = [(fmt_value(v), counts[v]) for v in values]
    else:
        lo, hi = values[0], values[-1]
        step = (hi - lo) / max_bins
        bins = [0] * max_bins
        for v, c in counts.items():
            bins[min(int((v - lo) / step), max_bins - 1)] += c
        rows = [(f"{lo + i * step:.2f}–{lo + (i + 1) * step:.2f}", c) for i, c in enumerate(bins)]
    peak = max(c for _, c in rows) or 1
    total = sum(c for _, c in rows)
    label_w = max(len(label) for label, _ in rows)
    count_w = max(len(fmt_int(c)) for _, c in rows)
    lines = []
    for label, c in rows:
        eighths = round(width * 8 * c / peak)
        bar = "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]
        lines.append(
            f"{label:>{label_w}} │ {bar:<{width}} {fmt_int(c):>{count_w}} ({100 * c / total:4.1f}%)"
        )
    return "\n".join(lines)


def mean_rating(counts: dict[float, int]) -> float | None:
    n = sum(counts.values())
    return sum(v * c for v, c in counts.items()) / n if n else None


def median_rating(counts: dict[float, int]) -> float | None:
    n = sum(counts.values())
    if not n:
        return None
    items = sorted(counts.items())

    def nth(k: int) -> float:
        seen = 0
        for v, c in items:
            seen += c
            if seen > k:
                return v
        return items[-1][0]

    return nth((n - 1) // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2
