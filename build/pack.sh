#!/usr/bin/env bash
# Packs the one CoarseTimers package (runtime + analyzers + code fixes) into artifacts/packages (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-artifacts/packages}"
# -m:1: the runtime's two target frameworks and the code-fix project each reference the analyzer project with other
# global properties, so a parallel build may build it twice at once and both write its deps.json (seen once in CI under
# load: "The process cannot access the file ... CoarseTimers.Analyzers.deps.json"). One node builds each once, in turn.
dotnet pack src/Runtime/CoarseTimers.csproj -c Release -o "$out" --nologo -v quiet -m:1 "${@:2}"
