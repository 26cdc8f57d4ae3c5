#!/usr/bin/env bash
# Benchmarks, BCL against CoarseTimers, on .NET 10 and on Mono (docs/benchmarks.md).
#   bash build/bench.sh --quick   every public replacement in brief, on both runtimes: one ratio line each (~3 minutes)
#   bash build/bench.sh           BenchmarkDotNet on .NET 10, the full-size scenarios on both runtimes, and the chart
#   bash build/bench.sh --anatomy nanoseconds per piece of an operation, on both runtimes
# Mono stands in for .NET Framework: its timers share one global scheduler lock, as .NET Framework's do. The script
# installs it with apt-get when it is missing (Debian packages mono-runtime and mono-devel) and runs a net472 host
# (tests/CoarseTimers.Benchmarks.Mono, built against Microsoft.NETFramework.ReferenceAssemblies) on the runtime's
# netstandard2.0 build. Output goes to artifacts/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"

if ! command -v mono >/dev/null 2>&1; then
  echo "== installing Mono (apt-get)"
  flock /tmp/apt.lock apt-get update -qq
  DEBIAN_FRONTEND=noninteractive flock /tmp/apt.lock apt-get install -y -qq mono-runtime mono-devel >/dev/null
fi

dotnet build tests/CoarseTimers.Benchmarks -c Release --nologo -v quiet
dotnet build tests/CoarseTimers.Benchmarks.Mono -c Release --nologo -v quiet
net="dotnet tests/CoarseTimers.Benchmarks/bin/Release/net10.0/CoarseTimers.Benchmarks.dll"
mono="mono tests/CoarseTimers.Benchmarks.Mono/bin/Release/net472/CoarseTimers.Benchmarks.Mono.exe"
out=artifacts/bench
mkdir -p "$out"

case "$mode" in
  --quick)
    $net --quick | tee "$out/quick-net10.txt"
    # On Mono each schedule+cancel line runs in a process of its own, then the rest in one more: Mono keeps a cancelled
    # Task.Delay's timer and task, and a disposed Timer's entry, until its due time (10 minutes here), so the BCL side of
    # one line leaves gigabytes live for every later line of both sides to collect around (docs/benchmarks.md, "Method").
    {
      for line in Delay TimeoutSource LinkedCancelAfter LinkedTimeout TimeoutToken Timer; do
        COARSETIMERS_BENCH_ONLY="$line,floor $line" $mono --schedule-cancel
      done
      COARSETIMERS_BENCH_ONLY=none $mono --quick
    } | tee "$out/quick-mono.txt"
    python3 build/plot-benchmarks.py "$out/quick-net10.txt" "$out/quick-mono.txt" "$out/ratios.svg"
    ;;
  --anatomy)
    $net --anatomy | tee "$out/anatomy-net10.txt"
    $mono --anatomy | tee "$out/anatomy-mono.txt"
    ;;
  *)
    $net --filter '*ScheduleCancel*' '*PendingBenchmarks*' --exporters csv markdown --artifacts "$out"
    $net --scenarios | tee "$out/scenarios-net10.txt"
    # Mono: each schedule+cancel line in a process of its own, as in --quick (why: the comment there).
    {
      for line in Delay TimeoutSource LinkedCancelAfter LinkedTimeout TimeoutToken Timer; do
        COARSETIMERS_BENCH_ONLY="$line,floor $line" $mono --schedule-cancel 1000000
      done
      COARSETIMERS_BENCH_ONLY=none $mono --scenarios
    } | tee "$out/scenarios-mono.txt"
    python3 build/plot-benchmarks.py "$out/scenarios-net10.txt" "$out/scenarios-mono.txt" docs/benchmarks-throughput.svg
    ;;
esac
