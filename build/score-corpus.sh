#!/usr/bin/env bash
# Scores the PACKED analyzers on the labelled corpus (tests/corpus, format in tests/corpus/README.md).
#   bash build/score-corpus.sh <folder of repository snapshots> [--package <CoarseTimers.*.nupkg> | --analyzers <folder>] [--corpus <folder>]
# <folder>/<owner>__<repo>/ must hold each corpus repository's work tree at the row's commit (`git archive <commit>`).
# Without --package/--analyzers it packs (build/pack.sh) and takes the analyzers from the package's analyzers/ folder.
# --corpus scores another folder of rows (default tests/corpus; tests/corpus/holdout is the held-out set).
# tools/AnalyzerHost (Roslyn 4.8) compiles every project folder that holds a row, as it is, and prints precision and
# recall per API, every miss and false positive, and the AD0001 count. Exit code 1 on an analyzer exception.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
snapshots="${1:?usage: build/score-corpus.sh <snapshots folder> [--package <nupkg> | --analyzers <folder>]}"
snapshots="$(cd "$snapshots" && pwd)"
shift
package="" analyzers="" corpus="$repo/tests/corpus"
while [ $# -gt 0 ]; do
  case "$1" in
    --package) package="$2"; shift 2 ;;
    --analyzers) analyzers="$2"; shift 2 ;;
    --corpus) corpus="$(cd "$2" && pwd)"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d "${TMPDIR:-/tmp}/coarsetimers-score.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ -z "$analyzers" ]; then
  if [ -z "$package" ]; then
    bash "$repo/build/pack.sh" "$work/packages" >&2
    package="$(ls "$work"/packages/CoarseTimers.*.nupkg | grep -v '\.symbols\.' | head -1)"
  fi
  mkdir -p "$work/package"
  (cd "$work/package" && python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(".")' "$package")
  # The C# analyzer folder of the package, wherever the layout puts it (analyzers/dotnet/cs or .../roslynX.Y/cs).
  dll="$(find "$work/package/analyzers" -path '*/cs/CoarseTimers.Analyzers.dll' | sort | head -1)"
  [ -n "$dll" ] || { echo "no analyzers/**/cs/CoarseTimers.Analyzers.dll in $package" >&2; exit 1; }
  analyzers="$(dirname "$dll")"
fi
dotnet build "$repo/tools/AnalyzerHost/AnalyzerHost.csproj" -c Release --nologo -v quiet >&2
host="$repo/tools/AnalyzerHost/bin/Release/net10.0/AnalyzerHost.dll"
echo "analyzers: ${package:-$analyzers}" >&2
dotnet "$host" score --analyzers "$analyzers" --corpus "$corpus" --snapshots "$snapshots"
