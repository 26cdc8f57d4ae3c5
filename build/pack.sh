#!/usr/bin/env bash
# Packs the one CoarseTimers package (runtime + analyzers + code fixes) into artifacts/packages (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-artifacts/packages}"
dotnet pack src/Runtime/CoarseTimers.csproj -c Release -o "$out" --nologo -v quiet "${@:2}"
