"""Line charts as inline SVG for report.html: no script, no external resource,
a bounded size whatever the input (each series is thinned to MAX_POINTS)."""
import html
import math

MAX_POINTS = 160   # per series: enough for the shape of a curve, small for an hour's campaign
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
W, H = 560, 200          # the chart's viewBox
LEFT, RIGHT, TOP, BOTTOM = 58, 12, 10, 34   # room for the axes' labels
e = html.escape


def thin(points, limit=MAX_POINTS):
    """At most `limit` of the (x, y) points, spread evenly over x: the last
    point of each of `limit` equal x intervals, and always the first point."""
    if len(points) <= limit:
        return list(points)
    x0, x1 = points[0][0], points[-1][0]
    if x1 <= x0:
        step = len(points) / limit
        return [points[int(i * step)] for i in range(limit - 1)] + [points[-1]]
    kept, slot = [points[0]], {}
    for p in points[1:]:
        slot[min(limit - 2, int((p[0] - x0) / (x1 - x0) * (limit - 1)))] = p  # the last one of its interval
    return kept + [slot[k] for k in sorted(slot)]


def number(v, span=0):
    """An axis label: v to about 3 significant digits of the axis' span
    (8.001 on an axis of 16 s is 8), thousands grouped, M and G above."""
    v = float(v)
    digits = 2 - math.floor(math.log10(span)) if span > 0 else 2
    v = round(v, digits)
    for div, unit in ((1e9, "G"), (1e6, "M")):
        if abs(v) >= div:
            return f"{v / div:.3g}{unit}"
    if v == int(v):
        return f"{int(v):,}"
    return f"{v:,.{max(0, digits)}f}".rstrip("0").rstrip(".")


def y_range(lo, hi):
    """The y axis: from 0, unless every value is in the upper half of the
    range (a resumed campaign's coverage: a flat line at the top would hide
    its growth), then from a little below the lowest."""
    if hi <= 0:
        return min(lo, 0), 1 if lo >= 0 else 0
    if lo <= hi / 2:
        return 0, hi
    pad = (hi - lo) * 0.05 or max(1, hi * 0.01)
    return lo - pad, hi + (pad if hi == lo else 0)


def line_chart(title, series, x_label="seconds since the worker started"):
    """An SVG line chart: series is [(name, [(x, y), ...])]; each series is
    one <polyline class="series" data-series="name">."""
    drawn = [(name, thin(sorted(pts))) for name, pts in series if pts]
    xs = [p[0] for _, pts in drawn for p in pts] or [0]
    ys = [p[1] for _, pts in drawn for p in pts] or [0]
    xmin, xmax = min(xs), max(xs)
    ymin, ymax = y_range(min(ys), max(ys))
    xspan, yspan = (xmax - xmin) or 1, ymax - ymin
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(x):
        return LEFT + (x - xmin) / xspan * pw

    def py(y):
        return TOP + ph - (y - ymin) / yspan * ph

    S = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
         f'role="img" aria-label="{e(title)}"><title>{e(title)}</title>',
         f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#bbb"/>']
    for frac in (0, 0.5, 1):  # y grid and labels
        y = TOP + ph - frac * ph
        label = number(ymin + yspan * frac, yspan)
        S.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="#ddd"/>'
                 f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{label}</text>')
    for frac, anchor in ((0, "start"), (0.5, "middle"), (1, "end")):
        S.append(f'<text x="{LEFT + frac * pw:.1f}" y="{TOP + ph + 14}" text-anchor="{anchor}" font-size="11">'
                 f'{number(xmin + frac * xspan, xspan)}</text>')
    S.append(f'<text x="{LEFT + pw / 2:.1f}" y="{H - 4}" text-anchor="middle" font-size="11">{e(x_label)}</text>')
    for k, (name, pts) in enumerate(drawn):
        coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        S.append(f'<polyline class="series" data-series="{e(name)}" fill="none" stroke-width="1.5" '
                 f'stroke="{PALETTE[k % len(PALETTE)]}" points="{coords}"><title>{e(name)}</title></polyline>')
    if not drawn:
        S.append(f'<text x="{LEFT + pw / 2:.1f}" y="{TOP + ph / 2:.1f}" text-anchor="middle" font-size="12">'
                 f'no data</text>')
    S.append("</svg>")
    legend = "".join(f'<span style="color:{PALETTE[k % len(PALETTE)]}">&#9632;</span> {e(name)} '
                     for k, (name, _) in enumerate(drawn))
    return (f'<figure class="chart"><figcaption>{e(title)}</figcaption>{"".join(S)}'
            f'<div class="legend">{legend}</div></figure>')
