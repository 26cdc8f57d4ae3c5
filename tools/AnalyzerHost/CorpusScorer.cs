using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.AnalyzerHost;

/// <summary>
/// Scores the analyzers on the labelled corpus. Each repository's rows are grouped by the project folder that holds
/// their file (<see cref="SourceProject.ProjectFolderOf"/>); each such project is compiled once, as it is. A row is
/// flagged when a diagnostic of its API's rule lies on a span whose line range contains the row's line. HOT rows are
/// positives, COLD and PACING negatives, UNSURE rows are listed but not scored. Diagnostics on lines that no row names
/// are counted, not scored.
/// </summary>
internal static class CorpusScorer
{
    private static readonly string[] s_apis = { "Task.Delay", "WhenAny+Task.Delay", "CancellationTokenSource(timeout)", "CancelAfter", "Timer", "SpinUntil" };

    public static int Run(string corpusFolder, string snapshotsFolder, ImmutableArray<DiagnosticAnalyzer> analyzers, TextWriter output)
    {
        var rows = CorpusRow.ReadAll(corpusFolder);
        var results = new List<(CorpusRow Row, Diagnostic? Hit)>();
        var missing = new List<CorpusRow>();
        var unmatched = new SortedDictionary<string, int>(StringComparer.Ordinal);
        var unmatchedSites = new List<string>();
        var exceptions = new List<string>();
        var ad0001 = 0;
        var projects = 0;

        foreach (var repo in rows.GroupBy(r => r.SnapshotName).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var root = Path.GetFullPath(Path.Combine(snapshotsFolder, repo.Key));
            var present = repo.Where(r => File.Exists(Path.Combine(root, r.Path))).ToList();
            missing.AddRange(repo.Except(present));
            foreach (var group in present.GroupBy(r => SourceProject.ProjectFolderOf(Path.Combine(root, r.Path), root) ?? Path.GetDirectoryName(Path.Combine(root, r.Path))!))
            {
                var project = SourceProject.FromFolder(group.Key, root);
                // A row in a file that the folder walk left out (a nested project's file) still gets compiled.
                var files = project.Files.Union(group.Select(r => Path.GetFullPath(Path.Combine(root, r.Path)))).ToImmutableArray();
                project = project with { Files = files };
                Console.Error.WriteLine($"[score] {repo.Key}: {Path.GetRelativePath(root, project.Folder)} ({project.AssemblyName}, {files.Length} files)");
                var run = AnalyzerRun.Run(project, analyzers);
                projects++;
                ad0001 += run.AD0001;
                exceptions.AddRange(run.Exceptions.Select(e => $"{repo.Key}/{Path.GetRelativePath(root, project.Folder)}: {e}"));

                var ours = run.Diagnostics.Where(d => d.Id.StartsWith("CT", StringComparison.Ordinal) && d.Location.IsInSource).ToList();
                foreach (var row in group)
                {
                    var path = Path.GetFullPath(Path.Combine(root, row.Path));
                    results.Add((row, ours.FirstOrDefault(d => d.Id == row.RuleId && Covers(d, path, row.Line))));
                }

                // Unlabelled: on a line no row of the repository names. A file two projects compile (a linked source) has
                // its rows scored in one of them; the other's diagnostics on those lines are not unlabelled.
                foreach (var d in ours.Where(d => !present.Any(row => Covers(d, Path.GetFullPath(Path.Combine(root, row.Path)), row.Line))))
                {
                    unmatched[d.Id] = unmatched.GetValueOrDefault(d.Id) + 1;
                    var span = d.Location.GetLineSpan();
                    unmatchedSites.Add($"- {repo.Key} {Path.GetRelativePath(root, span.Path)}:{span.StartLinePosition.Line + 1} {d.Id}: {d.GetMessage()}");
                }
            }
        }

        Print(results, missing, unmatched, unmatchedSites, projects, ad0001, exceptions, output);
        return ad0001 == 0 && exceptions.Count == 0 ? 0 : 1;
    }

    private static bool Covers(Diagnostic diagnostic, string path, int line)
    {
        var span = diagnostic.Location.GetLineSpan();
        return string.Equals(Path.GetFullPath(span.Path), path, StringComparison.Ordinal) &&
               span.StartLinePosition.Line + 1 <= line && line <= span.EndLinePosition.Line + 1;
    }

    private static void Print(List<(CorpusRow Row, Diagnostic? Hit)> results, List<CorpusRow> missing, SortedDictionary<string, int> unmatched, List<string> unmatchedSites,
        int projects, int ad0001, List<string> exceptions, TextWriter output)
    {
        var repos = results.Select(r => r.Row.Repo).Distinct().Count();
        output.WriteLine($"Corpus: {results.Count} rows from {repos} repositories scored in {projects} project compilations; " +
                         $"{results.Count(r => r.Row.IsScored)} labelled HOT/COLD/PACING, {results.Count(r => !r.Row.IsScored)} UNSURE (not scored).");
        output.WriteLine();
        output.WriteLine("| API | HOT | COLD | PACING | UNSURE | TP | FP | FN | precision | recall |");
        output.WriteLine("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        foreach (var api in s_apis)
        {
            WriteRow(output, api, results.Where(r => r.Row.Api == api).ToList());
        }

        WriteRow(output, "**overall**", results);
        output.WriteLine();
        output.WriteLine("TP = HOT with a diagnostic, FP = COLD/PACING with a diagnostic, FN = HOT without one.");
        output.WriteLine();

        // Which evidence the diagnostics rest on, and how often each kind is right: the hot-path reason every message gives.
        output.WriteLine("| hot-path reason | TP | FP | precision |");
        output.WriteLine("| --- | ---: | ---: | ---: |");
        foreach (var group in results.Where(r => r.Row.IsScored && r.Hit is not null).GroupBy(r => HotPathReason(r.Hit!.GetMessage())).OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal))
        {
            var tp = group.Count(r => r.Row.IsHot);
            var fp = group.Count() - tp;
            output.WriteLine($"| {group.Key} | {tp} | {fp} | {Ratio(tp, tp + fp)} |");
        }

        output.WriteLine();

        output.WriteLine("## Misses (HOT, no diagnostic)");
        output.WriteLine();
        foreach (var (row, _) in results.Where(r => r.Row.IsHot && r.Hit is null).OrderBy(r => r.Row.Repo).ThenBy(r => r.Row.Path).ThenBy(r => r.Row.Line))
        {
            output.WriteLine($"- {row.Repo} {row.Path}:{row.Line} {row.Api}: {row.Reason}");
        }

        output.WriteLine();
        output.WriteLine("## False positives (COLD/PACING with a diagnostic)");
        output.WriteLine();
        foreach (var (row, hit) in results.Where(r => r.Row.IsScored && !r.Row.IsHot && r.Hit is not null).OrderBy(r => r.Row.Repo).ThenBy(r => r.Row.Path).ThenBy(r => r.Row.Line))
        {
            output.WriteLine($"- {row.Repo} {row.Path}:{row.Line} {row.Api} {row.Class}: {row.Reason}. Diagnostic: {hit!.Id}: {hit.GetMessage()}");
        }

        output.WriteLine();
        output.WriteLine("## UNSURE rows (not scored)");
        output.WriteLine();
        foreach (var (row, hit) in results.Where(r => !r.Row.IsScored).OrderBy(r => r.Row.Repo).ThenBy(r => r.Row.Path).ThenBy(r => r.Row.Line))
        {
            output.WriteLine($"- {row.Repo} {row.Path}:{row.Line} {row.Api}: {(hit is null ? "not flagged" : "flagged: " + hit.GetMessage())}; {row.Reason}");
        }

        output.WriteLine();
        output.WriteLine($"Diagnostics on lines no row names (not scored): {unmatched.Values.Sum()}" +
                         (unmatched.Count == 0 ? string.Empty : " (" + string.Join(", ", unmatched.Select(kv => $"{kv.Key} {kv.Value}")) + ")"));
        foreach (var site in unmatchedSites.OrderBy(s => s, StringComparer.Ordinal))
        {
            output.WriteLine(site);
        }

        output.WriteLine($"Rows whose file is not in the snapshots folder (not scored): {missing.Count}");
        foreach (var row in missing)
        {
            output.WriteLine($"- {row.Repo} {row.Path}:{row.Line} ({row.Source})");
        }

        output.WriteLine($"AD0001 (analyzer exceptions): {ad0001}");
        foreach (var e in exceptions.Distinct())
        {
            output.WriteLine($"- {e}");
        }
    }

    private static void WriteRow(TextWriter output, string label, List<(CorpusRow Row, Diagnostic? Hit)> rows)
    {
        int Count(string cls) => rows.Count(r => r.Row.Class == cls);
        var tp = rows.Count(r => r.Row.IsHot && r.Hit is not null);
        var fp = rows.Count(r => r.Row.IsScored && !r.Row.IsHot && r.Hit is not null);
        var fn = rows.Count(r => r.Row.IsHot && r.Hit is null);
        output.WriteLine($"| {label} | {Count("HOT")} | {Count("COLD")} | {Count("PACING")} | {Count("UNSURE")} | {tp} | {fp} | {fn} | {Ratio(tp, tp + fp)} | {Ratio(tp, tp + fn)} |");
    }

    /// <summary>
    /// The reason a diagnostic's message gives for the site being hot: the text in the parentheses after "hot path"
    /// (<c>... on a hot path (per-operation timeout); use ...</c>), after "hot path: " (<c>(hot path: inside a loop)</c>) or
    /// after a spin's "long-running wait" (<c>(configured timeout)</c>), one level of
    /// parentheses inside allowed;
    /// the whole message when it gives none.
    /// </summary>
    internal static string HotPathReason(string message)
    {
        var match = s_hotPathReason.Match(message);
        return match.Success ? match.Groups["reason"].Value : message;
    }

    private static readonly Regex s_hotPathReason = new(@"(?:hot path(?: \(|: )|long-running wait \((?:hot path: )?)(?<reason>[^()]*(?:\([^()]*\)[^()]*)*)\)", RegexOptions.CultureInvariant);

    private static string Ratio(int numerator, int denominator) =>
        denominator == 0 ? "n/a" : $"{100.0 * numerator / denominator:0.0}% ({numerator}/{denominator})";
}
