#!/usr/bin/env bash
# The analyzers' cost, side by side: the compiler's time on one generated project built without and with the CoarseTimers
# analyzers, alternating, several times, in one run (issue 16: overhead <= 2% of the compiler's time on 1,500 files).
#   bash build/measure-analyzers.sh [--files N] [--reps R] [--dense] [--analyzer <CoarseTimers.Analyzers.dll>]
# --files     generated files (default 1500)
# --reps      measured pairs (default 5); each pair is one build without and one with, in alternating order
# --dense     every file is timer code (8 timer sites each, 5 flagged: the worst case) instead of the realistic
#             project (one file in 25 holds timer code; build/generate-load-project.py describes both)
# --analyzer  measure this analyzer assembly (default: build src/Analyzers in Release and use it)
# Every build is `dotnet build --no-incremental` of the same project, no warm-up (no compiler server: every build
# starts a compiler process). The compiler runs as its own process (the server's CPU is shared with other builds on
# the machine) through a wrapper that records that process's wall, user and system time (/usr/bin/time);
# -p:WithCoarseTimers=false leaves out only our analyzer assembly, so both sides run the SDK's own analyzers and
# generators. The overhead is the median over pairs of (with - without) / without, for CPU time (user + system: what the
# analyzers cost, robust to a loaded machine) and for wall time. A last build with -p:ReportAnalyzer=true prints the
# compiler's per-analyzer times (summed over threads; kept out of the pairs because the timing itself costs).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
files=1500 reps=5 dense="" analyzer=""
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    --dense) dense="--dense"; shift ;;
    --analyzer) analyzer="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    *) echo "unknown argument: $1 (usage: build/measure-analyzers.sh [--files N] [--reps R] [--dense] [--analyzer <dll>])" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d "${TMPDIR:-/tmp}/coarsetimers-load.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -z "$analyzer" ]; then
  dotnet build "$repo/src/Analyzers/CoarseTimers.Analyzers.csproj" -c Release --nologo -v quiet >/dev/null
  analyzer="$repo/src/Analyzers/bin/Release/netstandard2.0/CoarseTimers.Analyzers.dll"
fi
python3 "$repo/build/generate-load-project.py" "$work" "$files" "$analyzer" $dense
cd "$work"
dotnet restore --nologo -v quiet

roslyn="$(dotnet msbuild Load.csproj -getProperty:RoslynTargetsPath)"
export CT_DOTNET="$(command -v dotnet)" CT_CSC="$roslyn/bincore/csc.dll" CT_CSC_TIMES="$work/times.txt"
cat >"$work/csc-timed" <<'WRAP'
#!/bin/sh
exec /usr/bin/time -f "%e %U %S" -o "$CT_CSC_TIMES" "$CT_DOTNET" exec "$CT_CSC" "$@"
WRAP
chmod +x "$work/csc-timed"

# One full (non-incremental) build; $1 = true|false (with our analyzers or not). Prints "wall_s cpu_s" of the compiler.
compile() {
  dotnet build --no-restore --no-incremental -c Release -p:WithCoarseTimers="$1" -p:UseSharedCompilation=false \
    -p:CscToolPath="$work" -p:CscToolExe=csc-timed -v:n "${@:2}" >build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$CT_CSC_TIMES"
}

without=() with=()
for rep in $(seq 1 "$reps"); do
  if [ $((rep % 2)) -eq 1 ]; then
    w=$(compile false); a=$(compile true)
  else
    a=$(compile true); w=$(compile false)
  fi
  without+=("$w") with+=("$a")
  echo "pair $rep: compiler wall/CPU s without: $w, with: $a"
done
warnings=$(grep -oE 'warning CT000[1-4]' build.log | sort | uniq -c | awk '{printf "%s %s, ", $3, $1}')

python3 - "$files" "${dense:-realistic}" "${without[*]}" "${with[*]}" <<'PY'
import statistics, sys
files, kind = sys.argv[1], sys.argv[2].lstrip('-')
def split(text):
    v = list(map(float, text.split()))
    return v[0::2], v[1::2]
(w_wall, w_cpu), (a_wall, a_cpu) = split(sys.argv[3]), split(sys.argv[4])
print(f"project: {files} generated files, {kind}; {len(w_cpu)} alternating pairs")
for name, w, a in (("CPU", w_cpu, a_cpu), ("wall", w_wall, a_wall)):
    overhead = [100 * (y - x) / x for x, y in zip(w, a)]
    print(f"compiler {name}: without median {statistics.median(w):.2f} s, with median {statistics.median(a):.2f} s; "
          f"per pair {', '.join(f'{o:+.1f}%' for o in overhead)}; OVERHEAD median {statistics.median(overhead):+.2f}%")
PY
echo "CT warnings in the last build (MSBuild prints each twice): ${warnings%, }"

compile true -p:ReportAnalyzer=true -v:d >/dev/null
total_analyzers=$(grep -m1 -oE 'Total analyzer execution time: [0-9.]+' build.log | awk '{print $5}')
report_wall=$(awk '{print $1}' "$CT_CSC_TIMES")
echo "ReportAnalyzer build (compiler wall ${report_wall} s; all analyzers ${total_analyzers} s summed over threads):"
grep -A5 -E '^\s+[0-9.<]+\s+[0-9<]+\s+CoarseTimers.Analyzers, ' build.log | sed 's/^ *//' || true
ours=$(grep -E '^\s+[0-9.<]+\s+[0-9<]+\s+CoarseTimers.Analyzers, ' build.log | head -1 | awk '{print $1}')
python3 -c "print(f'our analyzers / compiler wall time: {100 * float(\"$ours\".lstrip(\"<\")) / $report_wall:.2f}% (summed over threads, timing overhead included)')"
