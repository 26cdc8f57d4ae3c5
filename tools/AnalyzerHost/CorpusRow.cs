using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// One labelled call site of tests/corpus/*.tsv (format: tests/corpus/README.md). <see cref="Line"/> is the 1-based
/// line of the API's name token; <see cref="Class"/> is HOT, COLD, PACING or UNSURE.
/// </summary>
internal sealed record CorpusRow(string Repo, string Commit, string Path, int Line, string Api, string Class, string Reason, string Source)
{
    public const string Header = "repo\tcommit\tpath\tline\tapi\tclass\treason";

    /// <summary>The snapshot folder name of the repository: owner__name.</summary>
    public string SnapshotName => Repo.Replace("/", "__", StringComparison.Ordinal);

    /// <summary>The rule that reports this API.</summary>
    public string RuleId => RuleFor(Api);

    public bool IsScored => Class is "HOT" or "COLD" or "PACING";

    public bool IsHot => Class == "HOT";

    public static string RuleFor(string api) => api switch
    {
        "Task.Delay" or "WhenAny+Task.Delay" => "CT0001",
        "CancellationTokenSource(timeout)" or "CancelAfter" => "CT0002",
        "Timer" => "CT0003",
        "SpinUntil" => "CT0004",
        _ => throw new FormatException($"unknown api '{api}'"),
    };

    /// <summary>Every row of every <c>*.tsv</c> in <paramref name="folder"/>; a malformed line is an error, never skipped.</summary>
    public static List<CorpusRow> ReadAll(string folder)
    {
        var rows = new List<CorpusRow>();
        foreach (var file in Directory.EnumerateFiles(folder, "*.tsv").OrderBy(p => p, StringComparer.Ordinal))
        {
            var lines = File.ReadAllLines(file);
            if (lines.Length == 0 || lines[0].TrimEnd() != Header)
            {
                throw new FormatException($"{file}: the first line must be the header '{Header}'");
            }

            for (var i = 1; i < lines.Length; i++)
            {
                if (lines[i].Trim().Length == 0)
                {
                    continue;
                }

                var cells = lines[i].Split('\t');
                if (cells.Length < 7 || !int.TryParse(cells[3], out var line) || cells[5] is not ("HOT" or "COLD" or "PACING" or "UNSURE"))
                {
                    throw new FormatException($"{file}:{i + 1}: expected 7 tab-separated cells with a line number and a class");
                }

                var row = new CorpusRow(cells[0], cells[1], cells[2], line, cells[4], cells[5], string.Join(" ", cells.Skip(6)), $"{System.IO.Path.GetFileName(file)}:{i + 1}");
                _ = row.RuleId;
                rows.Add(row);
            }
        }

        return rows;
    }
}
