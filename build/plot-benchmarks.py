#!/usr/bin/env python3
"""Draws ours/BCL throughput ratios per replaced API as grouped bars, one bar per runtime and thread count, from the
ratio lines that `--quick` / `--scenarios` print (one run per runtime). SVG, standard library only.

Usage: python3 build/plot-benchmarks.py <net10 output> <mono output> <out.svg>
Reads lines "schedule+cancel NAME threads= N: ... | throughput xR, ..." and "pending N timers created then disposed:
... speed-up xR". A bar above the 1.0 line is faster than the BCL; the dashed marks are the targets of issue 11.
"""
import re
import sys

LINE = re.compile(r"schedule\+cancel (\S+)\s+threads=\s*(\d+):.*throughput x([\d.]+)")
PENDING = re.compile(r"pending\s+([\d,]+) timers created then disposed:.*speed-up x([\d.]+)")
LABELS = {
    "Delay": "CoarseTimer.Delay(t, ct)",
    "TimeoutSource": "CoarseCancellationTokenSource(t)",
    "LinkedCancelAfter": "Coarse linked + CancelAfter",
    "LinkedTimeout": "CoarseTimeout.CreateLinkedTokenSource",
    "TimeoutToken": "CoarseTimeout.After(t)",
    "Timer": "CoarseTimer",
    "Pending 100,000": "100,000 pending timers",
    "Pending 1,000,000": "1,000,000 pending timers",
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
                ratios[("Pending " + match.group(1), "1")] = float(match.group(2))
    return ratios


def main(net_path, mono_path, target):
    data = {".NET 10": read(net_path), "Mono": read(mono_path)}
    groups = [g for g in LABELS if any((g, t) in data[r] for r in data for t in ("1", "8"))]
    ymax = 6.0
    for runtime in data.values():
        ymax = max([ymax] + [min(v, 40) for v in runtime.values()])
    width, height, left, bottom, top = 980, 470, 60, 130, 70
    group_width = (width - left - 20) / max(1, len(groups))
    bar = group_width / 5
    scale = lambda v: (height - bottom) - min(v, ymax) / ymax * (height - bottom - top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="13">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="16">Throughput of ours over the BCL\'s (x), schedule then cancel or dispose; one run per runtime</text>']
    for i, (runtime, threads, color) in enumerate(SERIES):
        x = left + i * 200
        out.append(f'<rect x="{x}" y="36" width="14" height="14" fill="{color}"/>')
        out.append(f'<text x="{x + 20}" y="48">{runtime}, {threads} thread{"s" if threads != "1" else ""}</text>')
    out.append(f'<line x1="{left}" y1="{height - bottom}" x2="{width - 20}" y2="{height - bottom}" stroke="black"/>')
    for k in range(0, int(ymax) + 1, max(1, int(ymax) // 8)):
        out.append(f'<text x="{left - 8}" y="{scale(k) + 4}" text-anchor="end">{k}x</text>')
        out.append(f'<line x1="{left}" y1="{scale(k)}" x2="{width - 20}" y2="{scale(k)}" stroke="#e5e5e5"/>')
    out.append(f'<line x1="{left}" y1="{scale(1)}" x2="{width - 20}" y2="{scale(1)}" stroke="black" stroke-width="1.5"/>')
    for g, group in enumerate(groups):
        x0 = left + g * group_width + bar / 2
        for i, (runtime, threads, color) in enumerate(SERIES):
            value = data[runtime].get((group, threads))
            if value is None:
                continue
            x = x0 + i * bar
            out.append(f'<rect x="{x:.1f}" y="{scale(value):.1f}" width="{bar - 2:.1f}" height="{scale(0) - scale(value):.1f}" fill="{color}"/>')
            out.append(f'<text x="{x + bar / 2 - 1:.1f}" y="{scale(value) - 3:.1f}" text-anchor="middle" font-size="10">{value:g}</text>')
        if group in TARGETS:
            y = scale(TARGETS[group])
            out.append(f'<line x1="{x0 - 2:.1f}" y1="{y:.1f}" x2="{x0 + 4 * bar:.1f}" y2="{y:.1f}" stroke="#c00000" stroke-dasharray="5,3" stroke-width="1.5"/>')
        cx = x0 + 2 * bar
        out.append(f'<text transform="translate({cx:.1f},{height - bottom + 14}) rotate(25)" font-size="12">{LABELS[group]}</text>')
    out.append(f'<text x="{width - 20}" y="{height - 8}" text-anchor="end" font-size="11" fill="#c00000">dashed red: target (x)</text>')
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
