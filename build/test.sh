#!/usr/bin/env bash
# Runs every check CI runs: code style, all test projects, and (once it exists) the end-to-end flow.
# Usage: bash build/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

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


echo "== end-to-end (pack, install, warn, fix, enforce)"
bash build/e2e.sh

echo "tests: $passed passed, $failed failed"
