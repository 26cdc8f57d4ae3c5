#!/usr/bin/env bash
# End-to-end: what a user does with the package, on a copy of samples/SampleService.
#   pack -> install from a local feed (private NuGet cache) -> build shows CT warnings -> -warnaserror fails
#   -> analysis modes (errors, none; the user's own .editorconfig/.globalconfig wins; a category setting reaches default) -> a baseline accepts today's
#   sites and fails only a new one (also across a multi-targeted project's frameworks) -> the packed analyzers load and report on Roslyn 4.8 (tools/AnalyzerHost)
#   -> dotnet format analyzers applies every fix -> -warnaserror succeeds -> the sample prints the same summary.
# Every step is checked; the script prints a short report and exits non-zero if any step failed.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/coarsetimers-e2e.XXXXXX")"
trap 'rm -rf "$work"' EXIT
. "$repo/build/lib/local-feed.sh"
version="$(coarse_timers_version "$repo")"
sample="$work/SampleService"
feed="$work/feed"
export NUGET_PACKAGES="$work/nuget-packages"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

results=()
failed=0
run_sample() { # run_sample OUTPUT: builds quietly, then runs the program alone so only its own output is captured
  (cd "$sample" && dotnet build -c Release -o "$work/out-$1" >"$work/run-$1.log" 2>&1 && dotnet "$work/out-$1/SampleService.dll" >"$work/$1.txt" 2>>"$work/run-$1.log")
}
step() { # step NAME OK|FAIL DETAIL
  results+=("$(printf '%-4s %-44s %s' "$2" "$1" "$3")")
  [ "$2" = "ok" ] || failed=1
}
ct_warnings() { grep -oE '[A-Za-z]+\.cs\([0-9]+,[0-9]+\): (warning|error) CT000[1-4]' "$1" | sort -u; }

# 1. Pack.
if bash "$repo/build/pack.sh" "$feed" >"$work/pack.log" 2>&1 && [ -f "$feed/CoarseTimers.$version.nupkg" ]; then
  listing="$(unzip -l "$feed/CoarseTimers.$version.nupkg")"
  missing=""
  for f in lib/netstandard2.0/CoarseTimers.dll lib/net8.0/CoarseTimers.dll analyzers/dotnet/roslyn4.8/cs/CoarseTimers.Analyzers.dll \
    analyzers/dotnet/roslyn4.8/cs/CoarseTimers.CodeFixes.dll buildTransitive/CoarseTimers.targets buildTransitive/CoarseTimersBaselineWriter.cs \
    config/coarsetimers.default.globalconfig config/coarsetimers.errors.globalconfig config/coarsetimers.none.globalconfig icon.png; do
    grep -q " $f\$" <<<"$listing" || missing="$missing $f"
  done
  symbols="$(unzip -l "$feed/CoarseTimers.$version.snupkg" 2>/dev/null | grep -c '\.pdb$')"
  [ "$symbols" -eq 2 ] || missing="$missing snupkg-pdbs($symbols)"
  if [ -z "$missing" ]; then step "pack CoarseTimers $version" ok "lib/netstandard2.0, lib/net8.0, analyzers/dotnet/roslyn4.8/cs, buildTransitive, config, icon, .snupkg"; else step "pack CoarseTimers $version" FAIL "missing:$missing"; fi
else
  step "pack" FAIL "see pack log"; cat "$work/pack.log"
fi

# 2. Install into a copy of the sample, from the local feed only for our package.
cp -r "$repo/samples/SampleService" "$sample"
rm -rf "$sample/bin" "$sample/obj"
write_local_feed_config "$sample" "$feed"
cp -r "$sample" "$work/original"
if (cd "$sample" && dotnet add package CoarseTimers --version "$version" >"$work/add.log" 2>&1); then
  step "install from local feed" ok "private cache $NUGET_PACKAGES"
else
  step "install from local feed" FAIL "see log"; cat "$work/add.log"
fi

# 3. The sample's behaviour before any fix.
run_sample before
step "run sample before fixes" "$([ -s "$work/before.txt" ] && echo ok || echo FAIL)" "$(wc -l <"$work/before.txt" 2>/dev/null || echo 0) summary lines"

# 4. A plain build shows the warnings, with file and line, and none in the cold code (Program.cs).
(cd "$sample" && dotnet build --no-incremental >"$work/build1.log" 2>&1)
ct_warnings "$work/build1.log" >"$work/warnings.txt"
ids="$(grep -oE 'CT000[1-4]' "$work/warnings.txt" | sort -u | tr '\n' ' ')"
if [ "$ids" = "CT0001 CT0002 CT0003 CT0004 " ] && ! grep -q '^Program\.cs' "$work/warnings.txt"; then
  step "build shows CT warnings" ok "$(wc -l <"$work/warnings.txt") warnings: $ids; none in cold code"
else
  step "build shows CT warnings" FAIL "ids: '$ids'"; cat "$work/warnings.txt"
fi

# 5. Warnings as errors: the build fails.
if (cd "$sample" && dotnet build --no-incremental -warnaserror >"$work/build2.log" 2>&1); then
  step "build -warnaserror fails" FAIL "it succeeded"
else
  step "build -warnaserror fails" ok "$(grep -oE '[A-Za-z]+\.cs\([0-9]+,[0-9]+\): error CT000[1-4]' "$work/build2.log" | sort -u | wc -l) CT errors"
fi

ct_count() { grep -oE "[A-Za-z]+\.cs\([0-9]+,[0-9]+\): $1 CT000[1-4]" "$2" | sort -u | wc -l; }
sites="$(wc -l <"$work/warnings.txt")"

# 5a. Analysis modes (buildTransitive/CoarseTimers.targets): errors fails the build by itself (whatever its case and
# surrounding spaces), none reports nothing, and an empty value on the command line (a CI variable left unset) is default.
if (cd "$sample" && dotnet build --no-incremental "-p:CoarseTimersAnalysisMode= Errors " >"$work/mode-errors.log" 2>&1); then
  step "mode errors fails the build" FAIL "it succeeded"
else
  n="$(ct_count error "$work/mode-errors.log")"
  step "mode errors fails the build" "$([ "$n" -eq "$sites" ] && echo ok || echo FAIL)" "$n CT errors of $sites sites, no -warnaserror, written ' Errors '"
fi
(cd "$sample" && dotnet build --no-incremental "-p:CoarseTimersAnalysisMode=" >"$work/mode-empty.log" 2>&1)
n="$(ct_count warning "$work/mode-empty.log")"
step "empty mode is default" "$([ "$n" -eq "$sites" ] && ! grep -q CTBUILD01 "$work/mode-empty.log" && grep -q 'Build succeeded' "$work/mode-empty.log" && echo ok || echo FAIL)" "$n CT warnings of $sites sites, no CTBUILD01"
(cd "$sample" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=none >"$work/mode-none.log" 2>&1)
n="$(grep -cE 'CT000[1-4]' "$work/mode-none.log")"
step "mode none reports nothing" "$([ "$n" -eq 0 ] && grep -q 'Build succeeded' "$work/mode-none.log" && echo ok || echo FAIL)" "$n CT diagnostics"

# 5b. The user's own configuration wins over the mode: .editorconfig lowers the first rule the sample shows to a warning,
# a .globalconfig turns the last one off; the others stay errors.
lowered="$(grep -oE 'CT000[1-4]' "$work/warnings.txt" | sort -u | head -1)"
silenced="$(grep -oE 'CT000[1-4]' "$work/warnings.txt" | sort -u | tail -1)"
printf 'root = true\n[*.cs]\ndotnet_diagnostic.%s.severity = warning\n' "$lowered" >"$sample/.editorconfig"
printf 'is_global = true\ndotnet_diagnostic.%s.severity = none\n' "$silenced" >"$sample/.globalconfig"
(cd "$sample" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=errors >"$work/mode-user.log" 2>&1)
others="$(grep -oE 'CT000[1-4]' "$work/warnings.txt" | sort -u | grep -v -e "$lowered" -e "$silenced" | tr '\n' ' ')"
others_ok=1
for id in $others; do grep -qE "error $id" "$work/mode-user.log" || others_ok=0; done
if grep -qE "warning $lowered" "$work/mode-user.log" && ! grep -qE "error $lowered|$silenced" "$work/mode-user.log" && [ "$others_ok" -eq 1 ]; then
  step "user .editorconfig/.globalconfig win" ok "errors mode: $lowered warning (.editorconfig), $silenced off (.globalconfig), ${others:-no other rule} error"
else
  step "user .editorconfig/.globalconfig win" FAIL "see log"; grep -E 'CT000[1-4]' "$work/mode-user.log" | sort -u
fi
rm -f "$sample/.editorconfig" "$sample/.globalconfig"

# 5c. In the default mode (unset) a category-wide setting reaches the rules, as for any analyzer: the mode sets no
# per-rule severity that would outrank it.
printf 'root = true\n[*.cs]\ndotnet_analyzer_diagnostic.category-Performance.severity = none\n' >"$sample/.editorconfig"
(cd "$sample" && dotnet build --no-incremental >"$work/mode-category.log" 2>&1)
n="$(grep -cE 'CT000[1-4]' "$work/mode-category.log")"
step "category setting reaches default mode" "$([ "$n" -eq 0 ] && grep -q 'Build succeeded' "$work/mode-category.log" && echo ok || echo FAIL)" "$n CT diagnostics with category-Performance = none"
rm -f "$sample/.editorconfig"

# 5d. The mode is a compile input: switching it on the command line after a successful build recompiles, so an
# incremental build does not keep the last build's warnings.
(cd "$sample" && dotnet build >"$work/mode-incremental-a.log" 2>&1)
if (cd "$sample" && dotnet build -p:CoarseTimersAnalysisMode=errors >"$work/mode-incremental-b.log" 2>&1); then
  step "mode switch recompiles" FAIL "the incremental errors build succeeded"
else
  step "mode switch recompiles" "$([ "$(ct_count error "$work/mode-incremental-b.log")" -eq "$sites" ] && echo ok || echo FAIL)" "$(ct_count error "$work/mode-incremental-b.log") CT errors, no --no-incremental"
fi

# 5e. Baseline: accept today's sites, survive an unrelated edit, fail only on a new hot-path timer.
if (cd "$sample" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=errors -p:CoarseTimersUpdateBaseline=true >"$work/baseline-write.log" 2>&1) && [ -f "$sample/CoarseTimers.baseline" ]; then
  step "write baseline from the build" ok "$(grep -oE 'wrote [0-9]+ baseline entries \([0-9]+ sites\)' "$work/baseline-write.log" | head -1)"
else
  step "write baseline from the build" FAIL "see log"; grep -E 'error|CoarseTimers' "$work/baseline-write.log" | head -10
fi
{ printf '// An unrelated edit: every line below moves.\n\n'; cat "$work/original/RequestHandler.cs"; } >"$sample/RequestHandler.cs"
if (cd "$sample" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=errors >"$work/baseline-pass.log" 2>&1); then
  step "baselined build passes in errors mode" ok "0 CT errors after an edit that moved every line of RequestHandler.cs"
else
  step "baselined build passes in errors mode" FAIL "see log"; grep -E 'error' "$work/baseline-pass.log" | sort -u | head
fi
# CoarseTimersIgnoreBaseline (as an environment variable, as `dotnet format` would get it) reports every site again.
if (cd "$sample" && CoarseTimersIgnoreBaseline=true dotnet build -p:CoarseTimersAnalysisMode=errors >"$work/baseline-ignored.log" 2>&1); then
  step "ignoring the baseline reports every site" FAIL "it succeeded"
else
  step "ignoring the baseline reports every site" "$([ "$(ct_count error "$work/baseline-ignored.log")" -eq "$sites" ] && echo ok || echo FAIL)" "$(ct_count error "$work/baseline-ignored.log") CT errors with CoarseTimersIgnoreBaseline=true"
fi
cat >"$sample/Poller.cs" <<'CS'
using System.Threading.Tasks;

namespace SampleService;

/// <summary>New code written after the baseline: a poll loop with a timer per iteration.</summary>
internal static class Poller
{
    public static async Task PollAsync(System.Func<bool> done)
    {
        while (!done())
        {
            await Task.Delay(5).ConfigureAwait(false);
        }
    }
}
CS
(cd "$sample" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=errors >"$work/baseline-new.log" 2>&1)
new_errors="$(grep -oE '[A-Za-z]+\.cs\([0-9]+,[0-9]+\): error CT000[1-4]' "$work/baseline-new.log" | sort -u)"
if [ "$(grep -c . <<<"$new_errors")" -eq 1 ] && grep -q '^Poller\.cs' <<<"$new_errors"; then
  step "new hot-path timer fails, alone" ok "$new_errors"
else
  step "new hot-path timer fails, alone" FAIL "errors: $(tr '\n' ' ' <<<"$new_errors")"
fi
rm -f "$sample/Poller.cs" "$sample/CoarseTimers.baseline"
cp "$work/original/RequestHandler.cs" "$sample/RequestHandler.cs"

# 5f. A multi-targeted project whose target frameworks have sites of their own (#if): the baseline accepts them all.
multi="$work/MultiTarget"
mkdir -p "$multi"
write_local_feed_config "$multi" "$feed"
cat >"$multi/MultiTarget.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFrameworks>net8.0;netstandard2.0</TargetFrameworks><LangVersion>latest</LangVersion></PropertyGroup>
  <ItemGroup><PackageReference Include="CoarseTimers" Version="$version" /></ItemGroup>
</Project>
XML
cat >"$multi/Pollers.cs" <<'CS'
using System;
using System.Threading.Tasks;

public static class Pollers
{
    public static async Task Both(Func<bool> done) { while (!done()) { await Task.Delay(5); } }
#if NET8_0_OR_GREATER
    public static async Task Modern(Func<bool> done) { while (!done()) { await Task.Delay(6); } }
#else
    public static async Task Legacy(Func<bool> done) { while (!done()) { await Task.Delay(7); } }
#endif
}
CS
(cd "$multi" && dotnet build --no-incremental -p:CoarseTimersUpdateBaseline=true >"$work/multi-write.log" 2>&1)
entries="$(grep -c '^CT0001' "$multi/CoarseTimers.baseline" 2>/dev/null || echo 0)"
if (cd "$multi" && dotnet build --no-incremental -p:CoarseTimersAnalysisMode=errors >"$work/multi-pass.log" 2>&1) && [ "$entries" -eq 3 ]; then
  step "multi-target baseline covers every target" ok "$entries entries (net8.0 and netstandard2.0 sites); errors build passes"
else
  step "multi-target baseline covers every target" FAIL "$entries entries; see logs"; grep -E 'error|CoarseTimers:' "$work/multi-write.log" "$work/multi-pass.log" | sort -u | head
fi

# 5g. The oldest compiler we claim: the packed analyzer and fixer assemblies, loaded as a Roslyn 4.8 compiler does.
packed="$NUGET_PACKAGES/coarsetimers/$version/analyzers/dotnet/roslyn4.8/cs"
if dotnet build "$repo/tools/AnalyzerHost" -c Release --nologo -v quiet >"$work/host-build.log" 2>&1 &&
  dotnet "$repo/tools/AnalyzerHost/bin/Release/net10.0/AnalyzerHost.dll" check "$work/original" --analyzers "$packed" >"$work/host.log" 2>&1; then
  host_sites="$(grep -oE '[A-Za-z]+\.cs\([0-9]+,[0-9]+\): warning CT000[1-4]' "$work/host.log" | sort -u)"
  loaded="$(grep -c '^analyzer: ' "$work/host.log") analyzers, $(grep -c '^fixer: ' "$work/host.log") fixers"
  if grep -q '^Roslyn: 4\.8\.' "$work/host.log" && [ "$host_sites" = "$(cat "$work/warnings.txt" | sed 's/: error /: warning /')" ]; then
    step "packed analyzers on Roslyn 4.8" ok "$(grep '^Roslyn: ' "$work/host.log"), $loaded, same $sites sites as the build"
  else
    step "packed analyzers on Roslyn 4.8" FAIL "see host log"; cat "$work/host.log"
  fi
else
  step "packed analyzers on Roslyn 4.8" FAIL "see logs"; tail -20 "$work/host-build.log" "$work/host.log" 2>/dev/null
fi

# 6. Apply every fix from the command line.
if (cd "$sample" && dotnet format analyzers SampleService.csproj --diagnostics CT0001 CT0002 CT0003 CT0004 --severity warn -v diag >"$work/format.log" 2>&1); then
  changed="$(diff -rq "$work/original" "$sample" -x bin -x obj -x '*.csproj' | wc -l)"
  if [ "$changed" -gt 0 ]; then step "dotnet format analyzers" ok "$changed files rewritten"; else step "dotnet format analyzers" FAIL "nothing rewritten"; fi
else
  step "dotnet format analyzers" FAIL "see log"; tail -30 "$work/format.log"
fi
if diff -q "$work/original/Program.cs" "$sample/Program.cs" >/dev/null; then
  step "cold code untouched" ok "Program.cs unchanged"
else
  step "cold code untouched" FAIL "Program.cs changed"; diff "$work/original/Program.cs" "$sample/Program.cs"
fi

# The cheapest safe replacement per site: the timeout-only source became the shared timeout token, the linked source
# armed right after creation the linked timeout (docs/rules/CT0002.md).
handler="$sample/RequestHandler.cs"
if grep -q 'CoarseTimeout.After(_timeout)' "$handler" && grep -q 'CoarseTimeout.CreateLinkedTokenSource(serverStopping, _timeout)' "$handler" && ! grep -q '\.CancelAfter(' "$handler"; then
  step "cheapest replacements chosen" ok "CoarseTimeout.After, CoarseTimeout.CreateLinkedTokenSource"
else
  step "cheapest replacements chosen" FAIL "RequestHandler.cs:"; cat "$handler"
fi

# A link of three tokens or of a collection expression, and a race of three tasks, which C# 13 and later bind to .NET 9's
# params span overloads: flagged, and the links become the coarse source's, the delay the coarse one.
gate="$sample/TenantGate.cs"
if grep -q 'CoarseCancellationTokenSource.CreateLinkedTokenSource(serverStopping, callerLeft, quotaSpent)' "$gate" &&
   grep -q 'CoarseCancellationTokenSource.CreateLinkedTokenSource(\[serverStopping, callerLeft\])' "$gate" &&
   grep -q 'Task.WhenAny(work, callerLeft, CoarseTimer.Delay(_limit))' "$gate"; then
  step "span-overload calls rewritten (C# 14)" ok "two links to CoarseCancellationTokenSource, a three-task race to CoarseTimer.Delay"
else
  step "span-overload calls rewritten (C# 14)" FAIL "TenantGate.cs:"; cat "$gate"
fi

# 7. Warnings as errors now passes.
if (cd "$sample" && dotnet build --no-incremental -warnaserror >"$work/build3.log" 2>&1); then
  step "build -warnaserror after fixes" ok "no CT diagnostics left"
else
  step "build -warnaserror after fixes" FAIL "see log"; grep -E 'error|warning' "$work/build3.log" | sort -u | head -20
fi

# 8. Same behaviour after the rewrite.
run_sample after
if [ -s "$work/after.txt" ] && diff -q "$work/before.txt" "$work/after.txt" >/dev/null; then
  step "run sample after fixes" ok "summary identical"
else
  step "run sample after fixes" FAIL "summary differs"; diff "$work/before.txt" "$work/after.txt"; cat "$work/run-after.log"
fi

echo
echo "what dotnet format analyzers rewrote:"
diff -ru -x bin -x obj -x '*.csproj' -x nuget.config "$work/original" "$sample" | grep -E '^[-+][^-+]' | sed 's/^/  /'
echo
echo "CoarseTimers end-to-end report"
printf '%s\n' "${results[@]}"
echo
echo "sample summary (before = after):"
sed 's/^/  /' "$work/before.txt"
if [ "$failed" -ne 0 ]; then
  echo "e2e: FAILED"
  exit 1
fi
echo "e2e: all steps passed"
