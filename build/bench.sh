#!/usr/bin/env bash
# Benchmarks, BCL against CoarseTimers (docs/benchmarks.md).
#   bash build/bench.sh --quick   every scenario in brief, one line each, under 2 minutes
#   bash build/bench.sh           BenchmarkDotNet schedule+cancel at 1/2/8/32 threads, the full scenarios, and the chart
set -euo pipefail
cd "$(dirname "$0")/.."
dotnet build tests/CoarseTimers.Benchmarks -c Release --nologo -v quiet
bench="dotnet tests/CoarseTimers.Benchmarks/bin/Release/net10.0/CoarseTimers.Benchmarks.dll"
if [ "${1:-}" = "--quick" ]; then
  exec $bench --quick
fi
$bench --filter '*ScheduleCancel*' --exporters csv markdown --artifacts artifacts/bench
$bench --scenarios | tee artifacts/bench/scenarios.txt
python3 build/plot-benchmarks.py artifacts/bench/results/CoarseTimers.Benchmarks.ScheduleCancelBenchmarks-report.csv docs/benchmarks-throughput.svg
