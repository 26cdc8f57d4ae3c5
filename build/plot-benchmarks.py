#!/usr/bin/env python3
"""Draws throughput (M ops/s) against thread count from BenchmarkDotNet's CSV report, as an SVG (standard library only).

Usage: python3 build/plot-benchmarks.py <ScheduleCancelBenchmarks-report.csv> <out.svg>
Each benchmark runs ScheduleCancelBenchmarks.Operations operations per invocation with OperationsPerInvoke set, so the
Mean column is already per operation; throughput = 1e9 / mean_ns / 1e6 M ops/s.
"""
import csv
import re
import sys

UNITS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
COLORS = {"Bcl": "#c0392b", "Coarse": "#2471a3"}
DASH = {"Delay": "", "TimeoutSource": "6,4", "Timer": "2,3"}


def nanoseconds(text):
    match = re.match(r"\s*([\d.,]+)\s*(\S+)", text)
    value, unit = match.group(1).replace(",", ""), match.group(2)
    return float(value) * UNITS[unit]


def main(source, target):
    series = {}
    with open(source, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            method, threads = row["Method"], int(row["Threads"])
            series.setdefault(method, []).append((threads, 1e3 / nanoseconds(row["Mean"])))
    width, height, left, bottom, top, right = 720, 420, 70, 50, 30, 210
    xs = sorted({t for points in series.values() for t, _ in points})
    ymax = max(v for points in series.values() for _, v in points) * 1.1
    px = lambda i: left + i * (width - left - right) / max(1, len(xs) - 1)
    py = lambda v: height - bottom - v / ymax * (height - top - bottom)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">Schedule + cancel throughput (M ops/s) by thread count, 2 cores</text>',
           f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="black"/>']
    for i, t in enumerate(xs):
        out.append(f'<text x="{px(i)}" y="{height - bottom + 18}" text-anchor="middle">{t}</text>')
    for k in range(6):
        v = ymax * k / 5
        out.append(f'<text x="{left - 8}" y="{py(v) + 4}" text-anchor="end">{v:.1f}</text>')
        out.append(f'<line x1="{left}" y1="{py(v)}" x2="{width - right}" y2="{py(v)}" stroke="#eee"/>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 10}" text-anchor="middle">threads</text>')
    for n, (method, points) in enumerate(sorted(series.items())):
        side = "Bcl" if method.startswith("Bcl") else "Coarse"
        kind = next(k for k in DASH if k in method)
        coords = " ".join(f"{px(xs.index(t))},{py(v)}" for t, v in sorted(points))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{COLORS[side]}" stroke-width="2" stroke-dasharray="{DASH[kind]}"/>')
        ly = top + 20 + n * 20
        out.append(f'<line x1="{width - right + 10}" y1="{ly}" x2="{width - right + 40}" y2="{ly}" stroke="{COLORS[side]}" stroke-width="2" stroke-dasharray="{DASH[kind]}"/>')
        out.append(f'<text x="{width - right + 46}" y="{ly + 4}">{method}</text>')
    out.append("</svg>")
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
