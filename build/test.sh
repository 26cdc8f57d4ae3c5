#!/usr/bin/env bash
# Runs every check CI runs: code style, all test projects (the runtime's also on Mono, for .NET Framework semantics),
# and the end-to-end flow.
# Usage: bash build/test.sh
# Installs Debian's mono-runtime and mono-devel with apt-get when `mono` is missing (it says so when it does).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v mono >/dev/null 2>&1; then
  echo "== installing Mono (Debian packages mono-runtime, mono-devel) with apt-get: the runtime tests also run on it"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  flock /tmp/apt.lock $sudo apt-get update -q
  flock /tmp/apt.lock $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mono-runtime mono-devel
fi

echo "== restore"
dotnet restore Analyzers.sln --nologo -v quiet

echo "== code style (dotnet format --verify-no-changes)"
dotnet format Analyzers.sln --verify-no-changes --no-restore -v quiet

echo "== build (Release)"
dotnet build Analyzers.sln -c Release --no-restore --nologo -v quiet

echo "== tests"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
dotnet test Analyzers.sln -c Release --no-build --nologo -v quiet 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# One closing line for the whole run, summed over the test projects.
passed=$(grep -oE 'Passed: +[0-9]+' "$log" | awk '{s+=$2} END {print s+0}')
failed=$(grep -oE 'Failed: +[0-9]+' "$log" | awk '{s+=$2} END {print s+0}')
if [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "unit tests: $passed passed, $failed failed"
  exit 1
fi

echo "== runtime tests on Mono (net472 build of the runtime tests, netstandard2.0 build of the runtime)"
# VSTest cannot host net4x on Linux, so the xunit console runner (restored from NuGet, never downloaded here) runs them.
framework_tests=tests/CoarseTimers.Runtime.Tests.NetFramework
runner="$(dotnet msbuild "$framework_tests" -getProperty:Pkgxunit_runner_console -p:Configuration=Release -nologo)/tools/net472/xunit.console.exe"
mono_log=$(mktemp)
trap 'rm -f "$log" "$mono_log"' EXIT
set +e
# -noshadow: load the assemblies from the build output, not from copies the runner makes under /tmp first (one CI run
# of 24 Nov failed every test there with "BadImageFormatException: Method has zero rva" on binaries that then passed).
timeout 600 mono "$runner" "$framework_tests/bin/Release/net472/CoarseTimers.Runtime.Tests.NetFramework.dll" -nologo -noshadow 2>&1 | tee "$mono_log"
mono_status=${PIPESTATUS[0]}
set -e
# xunit's summary: "Total: N, Errors: N, Failed: N, Skipped: N".
mono_total=$(grep -oE 'Total: [0-9]+' "$mono_log" | awk '{s+=$2} END {print s+0}')
mono_failed=$(grep -oE '(Errors|Failed): [0-9]+' "$mono_log" | awk '{s+=$2} END {print s+0}')
mono_skipped=$(grep -oE 'Skipped: [0-9]+' "$mono_log" | awk '{s+=$2} END {print s+0}')
passed=$((passed + mono_total - mono_failed - mono_skipped))
failed=$((failed + mono_failed))
if [ "$mono_status" -ne 0 ] || [ "$mono_total" -eq 0 ]; then
  echo "unit tests: $passed passed, $((failed > 0 ? failed : 1)) failed"
  exit 1
fi


echo "== end-to-end (pack, install, warn, fix, enforce)"
bash build/e2e.sh

echo "tests: $passed passed, $failed failed"
