#!/usr/bin/env bash
# The main job. Until the end-to-end demo exists this builds the whole solution.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/e2e.sh ]; then
  exec bash build/e2e.sh
fi
dotnet build Analyzers.sln -c Release --nologo
