#!/usr/bin/env bash
# The analyzers' cost on a large generated project: time in the CoarseTimers analyzers as a share of compile time.
#   bash build/measure-analyzers.sh [files]      (default 3000 files, each with loops, timeouts, timers and cold code)
# Builds the generated project with -p:ReportAnalyzer=true (the compiler's own per-analyzer timing) and reports our
# analyzers' time against the CoreCompile (csc) time of the same build; then, side by side, the Csc task time of the
# same project built without and with the analyzers (best of 2 each, no-incremental), whose difference is wall time.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
files="${1:-3000}"
work="$(mktemp -d "${TMPDIR:-/tmp}/coarsetimers-load.XXXXXX")"
trap 'rm -rf "$work"' EXIT
dotnet build "$repo/src/Analyzers/CoarseTimers.Analyzers.csproj" -c Release --nologo -v quiet
analyzer="$repo/src/Analyzers/bin/Release/netstandard2.0/CoarseTimers.Analyzers.dll"
mkdir -p "$work/src"
cat >"$work/Load.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework><Nullable>disable</Nullable><ImplicitUsings>disable</ImplicitUsings></PropertyGroup>
  <ItemGroup Condition="'\$(WithCoarseTimers)' != 'false'"><Analyzer Include="$analyzer" /></ItemGroup>
</Project>
XML
for i in $(seq 1 "$files"); do
  cat >"$work/src/Service$i.cs" <<CS
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace Load.Area$((i % 50));

public sealed class Service$i
{
    private readonly List<int> _items = new() { 1, 2, 3 };
    private volatile bool _ready;

    public async Task<int> HandleAsync(Task work, CancellationToken stopping)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(5));
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(stopping, timeout.Token);
        var winner = await Task.WhenAny(work, Task.Delay(Timeout.Infinite, linked.Token));
        var total = 0;
        for (var attempt = 0; attempt < 3; attempt++)
        {
            total += attempt;
            await Task.Delay(10 * attempt);
        }

        total += _items.Select(x => x * 2).Where(x => x > 2).Sum();
        return winner == work ? total : -total;
    }

    public bool Wait() => SpinWait.SpinUntil(() => _ready, 50);

    public IDisposable Start() => new Timer(_ => { }, null, 1000, 1000);

    public async Task PollAsync(CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            await Task.Delay(TimeSpan.FromSeconds(30), stopping);
        }
    }

    public string Describe(int value) => value switch { 0 => "zero", < 0 => "negative", _ => value.ToString() };
}
CS
done
cd "$work"
dotnet restore --nologo -v quiet
dotnet build --no-restore --no-incremental -c Release -p:ReportAnalyzer=true -v:d -clp:PerformanceSummary >build.log 2>&1 || { tail -30 build.log; exit 1; }
ours=$(grep -E '^\s+[0-9.]+\s+[0-9<]+\s+CoarseTimers.Analyzers' build.log | head -1 | awk '{print $1}')
total_analyzers=$(grep -m1 -oE 'Total analyzer execution time: [0-9.]+' build.log | awk '{print $5}')
csc_ms=$(grep -E '^\s+[0-9]+ ms\s+Csc\s' build.log | tail -1 | awk '{print $1}')
warnings=$(grep -E 'warning CT000[1-4]' build.log | sort -u | wc -l)
grep -A6 -E '^\s+[0-9.]+\s+[0-9<]+\s+CoarseTimers.Analyzers' build.log | head -7 || true
echo "files: $files, CT warnings: $warnings"
echo "CoarseTimers analyzers: ${ours:-?} s; all analyzers: ${total_analyzers:-?} s; Csc task: ${csc_ms:-?} ms"
if [ -n "${ours:-}" ] && [ -n "${csc_ms:-}" ]; then
  python3 -c "print(f'share of compile time: {100 * float(\"$ours\") / (float(\"$csc_ms\") / 1000):.2f}% (analyzer time is summed over concurrent threads, so this overstates wall time)')"
fi
csc_time() {
  dotnet build --no-restore --no-incremental -c Release -p:WithCoarseTimers="$1" -v:d -clp:PerformanceSummary 2>&1 |
    grep -E '^\s+[0-9]+ ms\s+Csc\s' | tail -1 | awk '{print $1}'
}
without=$( (csc_time false; csc_time false) | sort -n | head -1)
with=$( (csc_time true; csc_time true) | sort -n | head -1)
echo "side by side, Csc task (best of 2): without analyzers ${without} ms, with CoarseTimers analyzers ${with} ms"
python3 -c "print(f'difference: {100 * ($with - $without) / $without:+.2f}% of compile time (includes run-to-run noise)')"
