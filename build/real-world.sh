#!/usr/bin/env bash
# Proof on real projects (issue #12): CoarseTimers installed into public .NET projects, fixed, rebuilt and retested.
#   build/real-world.sh SNAPSHOTS [NAME...]
# SNAPSHOTS holds one plain work tree per project, named owner__name, at the commit listed in
# build/real-world-projects.txt (docs/real-world.md says how to get them). NAME restricts the run to some projects.
# Each project is copied to a temporary work folder (the snapshot is never changed), then:
#   install the package from a local feed -> restore -> build -> count CT diagnostics -> run its unit tests
#   -> for each hot-path scope (default, all): dotnet format analyzers for CT0001-CT0004 on the listed projects and
#      the test project
#   -> build again (compiler errors, CT diagnostics left) -> run the same unit tests -> compare per test.
# Results: RW_OUT (default artifacts/real-world): summary.md (the table for docs/real-world.md), and per project and
# scope the logs, the rewrite as a diff and the test outcomes. Manual script, not part of CI: it takes tens of minutes.
# Environment: RW_FEED (a folder with CoarseTimers.<version>.nupkg; default: pack this tree), RW_SCOPES ("default all"),
# RW_WORK (work folder, kept when set), RW_NUGET_PACKAGES (package cache; default private to the run),
# RW_TEST_TIMEOUT (seconds per test run, default 1500).
set -uo pipefail
repo="${RW_REPO:-$(cd "$(dirname "$0")/.." && pwd)}"
. "$repo/build/lib/local-feed.sh"
[ $# -ge 1 ] && [ -d "$1" ] || { echo "usage: $0 SNAPSHOTS [NAME...]" >&2; exit 2; }
snapshots="$(cd "$1" && pwd)"
shift
only=" $* "
out="${RW_OUT:-$repo/artifacts/real-world}"
if [ -n "${RW_WORK:-}" ]; then work="$RW_WORK"; mkdir -p "$work"; else
  work="$(mktemp -d "${TMPDIR:-/tmp}/coarsetimers-real-world.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
scopes="${RW_SCOPES:-default all}"
test_timeout="${RW_TEST_TIMEOUT:-1500}"
export NUGET_PACKAGES="${RW_NUGET_PACKAGES:-$work/nuget-packages}"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
# Only the newest runtime is installed here: test hosts built for an older one run on it.
export DOTNET_ROLL_FORWARD=Major
mkdir -p "$out"
version="$(coarse_timers_version "$repo")"
feed="${RW_FEED:-$work/feed}"
if [ ! -f "$feed/CoarseTimers.$version.nupkg" ]; then
  bash "$repo/build/pack.sh" "$feed" >"$work/pack.log" 2>&1 || { cat "$work/pack.log"; exit 1; }
fi
feed="$(cd "$feed" && pwd)"
# Never a stale copy of the same version from an earlier pack in the cache.
cached="$NUGET_PACKAGES/coarsetimers/$version/coarsetimers.$version.nupkg"
if [ -f "$cached" ] && ! cmp -s "$cached" "$feed/CoarseTimers.$version.nupkg"; then rm -rf "$NUGET_PACKAGES/coarsetimers"; fi
rules="CT0001 CT0002 CT0003 CT0004"
# Their own warnings-as-errors would stop the first build on our warnings; NU1603 is the partial registry copy here.
common_props=(-c Release -p:TreatWarningsAsErrors=false "-p:WarningsNotAsErrors=NU1603" -p:GeneratePackageOnBuild=false)

# Changes a project needs to restore and run its tests here; recorded in docs/real-world.md. Run in the copy's root.
prepare_rebus() {
  # Rebus.Tests uses the contracts as a package that itself depends on the Rebus package: use both as projects, so
  # the tests run against the code being fixed (as the repository's own CI does).
  sed -i 's|<PackageReference Include="Rebus.Tests.Contracts" Version="[^"]*" />|<ProjectReference Include="..\\Rebus.Tests.Contracts\\Rebus.Tests.Contracts.csproj" />|' Rebus.Tests/Rebus.Tests.csproj
  sed -i 's|<PackageReference Include="Rebus" Version="[^"]*" />|<ProjectReference Include="..\\Rebus\\Rebus.csproj" />|' Rebus.Tests.Contracts/Rebus.Tests.Contracts.csproj
  # The registry here has no reference packs for .NET 6 and 7.
  sed -i 's|<TargetFrameworks>netstandard2.0;net6.0;net7.0;net8.0;net9.0;net10.0</TargetFrameworks>|<TargetFrameworks>netstandard2.0;net8.0;net10.0</TargetFrameworks>|' Rebus/Rebus.csproj
  sed -i 's|<TargetFrameworks>net6.0</TargetFrameworks>|<TargetFrameworks>net10.0</TargetFrameworks>|' Rebus.Tests.Contracts/Rebus.Tests.Contracts.csproj
  # NUnit 4.5.1 is missing here; 4.6.1 adds Action overloads that only C# 13's overload priority tells apart.
  sed -i 's|<LangVersion>10</LangVersion>|<LangVersion>14</LangVersion>|' Rebus.Tests.Contracts/Rebus.Tests.Contracts.csproj
}
prepare_websocket_client() {
  # An obsolete DotNetCliToolReference (dotnet-xunit) that no current restore resolves.
  sed -i '/DotNetCliToolReference/d' test/Websocket.Client.Tests/Websocket.Client.Tests.csproj
  # The registry here has no reference packs for .NET 6 and 7.
  sed -i 's|<TargetFrameworks>netstandard2.1;net6;net7;net8</TargetFrameworks>|<TargetFrameworks>netstandard2.1;net8</TargetFrameworks>|' src/Websocket.Client/Websocket.Client.csproj
  # Serilog.Sinks.XUnit is missing here: the tests' log goes nowhere instead of to the test output.
  sed -i '/Serilog.Sinks.XUnit/d' test/Websocket.Client.Tests/Websocket.Client.Tests.csproj
  sed -i '/\.WriteTo\.TestOutput(/d' test/Websocket.Client.Tests/Testserver/TestContext.cs
}
prepare_foundatio() {
  # Missing here: Exceptionless.RandomData (four test helpers, replaced by a stand-in below), Utf8Json, and the
  # MessagePack analyzer: the Utf8Json and MessagePack serializer tests and CloneTests (one MessagePack case) go.
  sed -i '/Exceptionless.RandomData/d' src/Foundatio.TestHarness/Foundatio.TestHarness.csproj tests/Foundatio.Tests/Foundatio.Tests.csproj
  sed -i '/Foundatio.Utf8Json.csproj\|Foundatio.MessagePack.csproj/d' tests/Foundatio.Tests/Foundatio.Tests.csproj
  rm tests/Foundatio.Tests/Serializer/Utf8JsonSerializerTests.cs tests/Foundatio.Tests/Serializer/*MessagePackSerializerTests.cs tests/Foundatio.Tests/Utility/CloneTests.cs
  cat >src/Foundatio.TestHarness/RandomDataStandIn.cs <<'CS'
namespace Exceptionless;

public static class RandomData
{
    public static bool GetBool(int chance = 50) => System.Random.Shared.Next(100) < chance;
    public static int GetInt(int min, int max) => System.Random.Shared.Next(min, max + 1);
    public static string GetString(int minLength = 5, int maxLength = 20) =>
        System.Guid.NewGuid().ToString("N")[..System.Random.Shared.Next(minLength, maxLength + 1)];
    public static T Random<T>(this System.Collections.Generic.IEnumerable<T> items)
    {
        var list = System.Linq.Enumerable.ToList(items);
        return list[System.Random.Shared.Next(list.Count)];
    }
}
CS
}

# The projects: name|repository|commit|projects that get the package and the fixes|test project|runner|test filter|
# extra MSBuild properties|prepare function. A runner is vstest (dotnet test, filter is --filter) or xunit3 (the
# xunit v3 test executable itself, filter is its own arguments).
projects() {
  grep -vE '^\s*(#|$)' "$repo/build/real-world-projects.txt"
}

# ct_diagnostics LOG: one line per distinct CT diagnostic ("path(line,col): RULE"), across target frameworks.
ct_diagnostics() {
  grep -oE '[^ ]+\.cs\([0-9]+,[0-9]+\): (warning|error) CT000[1-4]' "$1" | sed -E 's/: (warning|error) / /' | sort -u
}
# compiler_errors LOG: distinct compiler errors with their message.
compiler_errors() {
  grep -E ': error [A-Z]+[0-9]+' "$1" | sed -E 's/ \[[^]]*\]$//' | sort -u
}
split_diagnostics() { # split_diagnostics DIR LOG NAME: CT diagnostics of the fixed projects in NAME.txt, others' in NAME-other.txt
  local p pattern="^$"
  for p in "${libs[@]}" "$tests"; do pattern="$pattern|^$1/$(dirname "$p")/"; done
  ct_diagnostics "$2" | grep -E "$pattern" >"$res/$3.txt"
  # Other projects the tests reference (helpers, contracts) get the analyzers through their references too.
  ct_diagnostics "$2" | grep -vE "$pattern" >"$res/$3-other.txt"
}
by_rule() { # by_rule FILE: "CT0001 n, CT0003 n" or "none"
  local s
  s="$(grep -oE 'CT000[1-4]' "$1" | sort | uniq -c | awk '{printf "%s%s %s", (NR>1?", ":""), $2, $1}')"
  echo "${s:-none}"
}

sources() { # sources FROM TO: a copy without build output, to compare the rewrite against
  mkdir -p "$2" && tar -C "$1" --exclude=bin --exclude=obj -cf - . | tar -C "$2" -xf -
}
build_all() { # build_all DIR LOG: restores and builds the listed projects and the test project
  local dir="$1" log="$2" p
  : >"$log"
  for p in "${libs[@]}" "$tests"; do
    # Not incremental: a project left as it was must still report the diagnostics it keeps.
    (cd "$dir" && dotnet build "$p" "${common_props[@]}" "${props[@]}" --no-incremental -v minimal -consoleLoggerParameters:NoSummary) >>"$log" 2>&1
  done
}

invoke_tests() { # invoke_tests DIR RESULTS LOG ARGS...: runs the test project; ARGS select tests in the runner's syntax
  local dir="$1" results="$2" log="$3"
  shift 3
  rm -rf "$results"
  mkdir -p "$results"
  if [ "$runner" = xunit3 ]; then
    local dll
    dll="$(ls "$dir/$(dirname "$tests")"/bin/Release/*/"$(basename "$tests" .csproj).dll" | tail -1)"
    (cd "$(dirname "$dll")" && timeout "$test_timeout" dotnet exec "$dll" -trx "$results/tests.trx" "$@") >"$log" 2>&1
  else
    (cd "$dir" && timeout "$test_timeout" dotnet test "$tests" "${common_props[@]}" "${props[@]}" --no-build "$@" --logger "trx;LogFileName=tests.trx" --results-directory "$results") >"$log" 2>&1
  fi
}
run_tests() { # run_tests DIR NAME: writes $res/NAME.tests (one "outcome<TAB>test" a line) and NAME.test.log
  local results="$work/$project/results-$2" selection=()
  if [ "$runner" = xunit3 ]; then read -ra selection <<<"$filter"; elif [ -n "$filter" ]; then selection=(--filter "$filter"); fi
  invoke_tests "$1" "$results" "$res/$2.test.log" "${selection[@]}"
  python3 - "$results" >"$res/$2.tests" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
ns = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
outcomes = {}
for trx in glob.glob(sys.argv[1] + "/**/*.trx", recursive=True):
    root = ET.parse(trx).getroot()
    # NUnit names a result by its method only: qualify it with its class, so equal method names stay apart.
    classes = {t.get("id"): m.get("className") for t in root.iterfind(".//t:UnitTest", ns) for m in t.iterfind("t:TestMethod", ns)}
    for r in root.iterfind(".//t:UnitTestResult", ns):
        name, cls = r.get("testName"), classes.get(r.get("testId"), "")
        outcomes[name if name.startswith(cls) else cls + "." + name] = r.get("outcome")
for name in sorted(outcomes):
    print(f"{outcomes[name]}\t{name}")
PY
}
rerun_test() { # rerun_test DIR TEST: prints the outcomes of TEST run alone ("Passed ", "Failed ", ...)
  local test="${2%%(*}" results="$work/$project/rerun"
  if [ "$runner" = xunit3 ]; then
    invoke_tests "$1" "$results" /dev/null -method "$test"
  else
    invoke_tests "$1" "$results" /dev/null --filter "FullyQualifiedName~$test"
  fi
  grep -ohE '<UnitTestResult [^>]*outcome="[A-Za-z]+"' "$results"/*.trx "$results"/*/*.trx 2>/dev/null | sort -u | sed -E 's/.*outcome="([A-Za-z]+)"/\1 /' | tr -d '\n'
}
fixed_by_rule() { # per rule, diagnostics before minus diagnostics left (lines move, so sites are not matched)
  local r b a list=""
  for r in $rules; do
    b="$(grep -c " $r\$" "$res/$scope.diagnostics-before.txt")"
    a="$(grep -c " $r\$" "$res/$scope.diagnostics-after.txt")"
    [ "$b" -eq 0 ] || list="$list${list:+, }$r $((b - a))"
  done
  echo "${list:-none}"
}
other_count() { # the "(+N in the test project)" note for the summary
  local n
  n="$(wc -l <"$res/$scope.diagnostics-before-other.txt")"
  [ "$n" -eq 0 ] || echo " (+$n in referenced test helpers, not fixed)"
}
test_summary() { # test_summary FILE: "P passed, F failed, S skipped" (or "did not run")
  [ -s "$1" ] || { echo "did not run"; return; }
  awk -F'\t' '{c[$1]++} END {printf "%d passed, %d failed, %d skipped", c["Passed"], c["Failed"]+c["Error"]+c["Timeout"]+c["Aborted"], c["NotExecuted"]+c["Skipped"]}' "$1"
}


while IFS='|' read -r project url commit libs_text tests runner filter props_text prepare; do
  case "$only" in "  ") ;; *" $project "*) ;; *) continue ;; esac
  src="$snapshots/${url/\//__}"
  res="$out/$project"
  rm -rf "$work/$project"
  mkdir -p "$res" "$work/$project"
  read -ra libs <<<"$libs_text"
  read -ra props <<<"$props_text"
  echo "== $project ($url @ ${commit:0:12})"
  if [ ! -d "$src" ]; then echo "   no snapshot at $src"; continue; fi

  # The user's steps: the package from the local feed, in each listed project.
  pristine="$work/$project/pristine"
  cp -a "$src" "$pristine"
  rm -f "$pristine/NuGet.config" "$pristine/NuGet.Config" "$pristine/nuget.config"
  write_local_feed_config "$pristine" "$feed"
  (cd "$pristine" && [ -z "$prepare" ] || "$prepare")
  for p in "${libs[@]}"; do
    (cd "$pristine" && dotnet add "$p" package CoarseTimers --version "$version" --no-restore) >>"$res/install.log" 2>&1 ||
      echo "   could not add the package to $p (see install.log)"
  done

  for scope in $scopes; do
    summary="$res/$scope.row"
    rm -f "$res/$scope".*
    dir="$work/$project/$scope"
    rm -rf "$dir"
    cp -a "$pristine" "$dir"
    if [ "$scope" != default ]; then
      printf 'is_global = true\ncoarse_timers.hot_path_scope = %s\n' "$scope" >"$dir/.globalconfig"
    fi
    echo "   [$scope] build before"
    build_all "$dir" "$res/$scope.build-before.log"
    split_diagnostics "$dir" "$res/$scope.build-before.log" "$scope.diagnostics-before"
    compiler_errors "$res/$scope.build-before.log" >"$res/$scope.errors-before.txt"
    if [ -s "$res/$scope.errors-before.txt" ]; then
      echo "   does not build before any fix:"; head -5 "$res/$scope.errors-before.txt"
      echo "| $project | $scope | does not build ($(wc -l <"$res/$scope.errors-before.txt") errors) | | | | | | |" >"$summary"
      continue
    fi
    # Once per project: the same sources and package in every scope (RW_RETEST=1 runs them again).
    if [ ! -s "$res/before.tests" ] || [ -n "${RW_RETEST:-}" ]; then
      echo "   tests before"
      run_tests "$dir" before
    fi
    sources "$dir" "$work/$project/$scope-unfixed"
    echo "   [$scope] dotnet format analyzers"
    # The test project too: the package's analyzers reach it through its project reference. Rules 1-3 skip test
    # projects, so only under hot_path_scope = all (or declared hot paths) does it have anything to fix.
    for p in "${libs[@]}" "$tests"; do
      # shellcheck disable=SC2086 # $rules is a list of diagnostic ids
      (cd "$dir" && dotnet format analyzers "$p" --diagnostics $rules --severity warn --no-restore -v diag) >>"$res/$scope.format.log" 2>&1 ||
        echo "   dotnet format failed on $p (see $scope.format.log)"
    done
    diff -ru -x bin -x obj "$work/$project/$scope-unfixed" "$dir" >"$res/$scope.diff"
    rm -rf "$work/$project/$scope-unfixed"
    echo "   [$scope] build after"
    build_all "$dir" "$res/$scope.build-after.log"
    split_diagnostics "$dir" "$res/$scope.build-after.log" "$scope.diagnostics-after"
    compiler_errors "$res/$scope.build-after.log" >"$res/$scope.errors-after.txt"
    echo "   [$scope] tests after"
    run_tests "$dir" "$scope.after"
    # A test whose outcome differs before and after, and tests present on one side only.
    join -t $'\t' -1 2 -2 2 -a 1 -a 2 -e missing -o 0,1.1,2.1 \
      <(sort -t $'\t' -k2 "$res/before.tests") <(sort -t $'\t' -k2 "$res/$scope.after.tests") |
      awk -F'\t' '$2 != $3 {print $2 " -> " $3 "\t" $1}' >"$res/$scope.tests-changed.raw"
    # A test that passed before and fails after is run alone twice more in the fixed copy: timing tests are flaky.
    : >"$res/$scope.tests-changed.txt"
    while IFS=$'\t' read -r change test; do
      note=""
      if [ "$change" = "Passed -> Failed" ]; then note="; alone after the fixes: $(rerun_test "$dir" "$test")$(rerun_test "$dir" "$test")"; fi
      printf '%s%s\t%s\n' "$change" "$note" "$test" >>"$res/$scope.tests-changed.txt"
    done <"$res/$scope.tests-changed.raw"
    files="$(grep -c '^diff ' "$res/$scope.diff")"
    printf '| %s | %s | %s: %s | %s (%s files) | %s | %s | %s | %s | %s |\n' "$project" "$scope" \
      "$(wc -l <"$res/$scope.diagnostics-before.txt")" "$(by_rule "$res/$scope.diagnostics-before.txt")$(other_count)" \
      "$(fixed_by_rule)" "$files" "$(by_rule "$res/$scope.diagnostics-after.txt")" \
      "$(wc -l <"$res/$scope.errors-after.txt")" "$(test_summary "$res/before.tests")" \
      "$(test_summary "$res/$scope.after.tests")" \
      "$(wc -l <"$res/$scope.tests-changed.txt") ($(grep '^Passed -> Failed' "$res/$scope.tests-changed.txt" | grep -vc 'alone after the fixes:.*Passed') of them passed before and failed after, and never passed alone)" >"$summary"
    tail -1 "$summary"
    if [ -s "$res/$scope.errors-after.txt" ]; then sed 's/^/   /' "$res/$scope.errors-after.txt" | head -20; fi
    if [ -s "$res/$scope.tests-changed.txt" ]; then sed 's/^/   /' "$res/$scope.tests-changed.txt" | head -20; fi
  done
done < <(projects)

# The table for docs/real-world.md: every project and scope in RW_OUT, this run's and earlier ones'.
{
  echo "| project | scope | CT diagnostics before | fixed by dotnet format | left after | build errors after | tests before | tests after | tests changed |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  cat "$out"/*/*.row 2>/dev/null
} >"$out/summary.md"
echo
cat "$out/summary.md"
