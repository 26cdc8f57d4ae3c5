#!/usr/bin/env python3
"""Draws ours/BCL throughput ratios per replaced API as grouped bars, one bar per runtime and thread count, from the
ratio lines that `--quick` / `--scenarios` print (one run per runtime). SVG, standard library only.

Usage: python3 build/plot-benchmarks.py <net10 output> <mono output> <out.svg>
Reads lines "schedule+cancel NAME threads= N: ... | throughput xR, ..." and "pending N timers created then disposed
[, threads= N]: ... speed-up xR". Log scale; a bar above the 1x line is faster than the BCL; the dashed marks are issue 11's targets.
"""
import math
import re
import sys

LINE = re.compile(r"schedule\+cancel (\S+)\s+threads=\s*(\d+):.*throughput x([\d.]+)")
PENDING = re.compile(r"pending\s+([\d,]+) timers created then disposed(?:, threads=\s*(\d+))?:.*speed-up x([\d.]+)")
LABELS = {
    "Delay": "CoarseTimer.Delay(t, ct)",
    "TimeoutSource": "CoarseCancellationTokenSource",
    "LinkedCancelAfter": "Coarse linked + CancelAfter",
    "LinkedTimeout": "CoarseTimeout.CreateLinked…",
    "TimeoutToken": "CoarseTimeout.After(t)",
    "Timer": "CoarseTimer",
    "Pending 100,000": "10^5 pending: create+dispose",
    "Pending 1,000,000": "10^6 pending: create+dispose",
}
TARGETS = {"Delay": 2, "TimeoutSource": 1.2, "LinkedCancelAfter": 1.2, "LinkedTimeout": 1.5, "TimeoutToken": 5, "Timer": 1.2,
           "Pending 1,000,000": 2}
SERIES = [(".NET 10", "1", "#1f4e79"), (".NET 10", "8", "#5b9bd5"), ("Mono", "1", "#7b3f00"), ("Mono", "8", "#f4a460")]


def read(path):
    ratios = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            match = LINE.search(line)
            if match:
                ratios[(match.group(1), match.group(2))] = float(match.group(3))
            match = PENDING.search(line)
            if match:
                ratios[("Pending " + match.group(1), match.group(2) or "1")] = float(match.group(3))
    return ratios


def main(net_path, mono_path, target):
    data = {".NET 10": read(net_path), "Mono": read(mono_path)}
    groups = [g for g in LABELS if any((g, t) in data[r] for r in data for t in ("1", "8"))]
    # Ratios on a log2 scale, bars from the 1x line: up is faster than the BCL, down is slower.
    low, high = -3, 6
    width, height, left, bottom, top, right = 1200, 560, 60, 150, 70, 110
    group_width = (width - left - right) / max(1, len(groups))
    bar = group_width / 5
    scale = lambda v: top + (high - max(low, min(high, math.log2(v)))) / (high - low) * (height - bottom - top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="16">Ours over the BCL (x, log scale; above 1x = faster), schedule then cancel or dispose; one run per runtime</text>']
    for i, (runtime, threads, color) in enumerate(SERIES):
        x = left + i * 210
        out.append(f'<rect x="{x}" y="36" width="14" height="14" fill="{color}"/>')
        out.append(f'<text x="{x + 20}" y="48">{runtime}, {threads} thread{"s" if threads != "1" else ""}</text>')
    out.append(f'<line x1="{left + 4 * 210}" y1="43" x2="{left + 4 * 210 + 24}" y2="43" stroke="#c00000" stroke-dasharray="5,3" stroke-width="2"/>')
    out.append(f'<text x="{left + 4 * 210 + 30}" y="48">target</text>')
    for k in range(low, high + 1):
        v = 2.0 ** k
        out.append(f'<text x="{left - 8}" y="{scale(v) + 4}" text-anchor="end">{v:g}x</text>')
        out.append(f'<line x1="{left}" y1="{scale(v)}" x2="{width - right}" y2="{scale(v)}" stroke="#e5e5e5"/>')
    out.append(f'<line x1="{left}" y1="{scale(1)}" x2="{width - right}" y2="{scale(1)}" stroke="black" stroke-width="1.5"/>')
    for g, group in enumerate(groups):
        x0 = left + g * group_width + bar / 2
        for i, (runtime, threads, color) in enumerate(SERIES):
            value = data[runtime].get((group, threads))
            if value is None or value <= 0:
                continue
            x = x0 + i * bar
            y0, y1 = sorted((scale(1), scale(value)))
            out.append(f'<rect x="{x:.1f}" y="{y0:.1f}" width="{bar - 2:.1f}" height="{max(1, y1 - y0):.1f}" fill="{color}"/>')
            ty = scale(value) - 3 if value >= 1 else scale(value) + 11
            out.append(f'<text x="{x + bar / 2 - 1:.1f}" y="{ty:.1f}" text-anchor="middle" font-size="9">{value:.2g}</text>')
        if group in TARGETS:
            y = scale(TARGETS[group])
            out.append(f'<line x1="{x0 - 2:.1f}" y1="{y:.1f}" x2="{x0 + 4 * bar:.1f}" y2="{y:.1f}" stroke="#c00000" stroke-dasharray="5,3" stroke-width="2"/>')
        cx = x0 + 0.5 * bar
        out.append(f'<text transform="translate({cx:.1f},{height - bottom + 16}) rotate(30)" font-size="12">{LABELS[group]}</text>')
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
