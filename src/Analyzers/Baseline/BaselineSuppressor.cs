using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Baseline;

/// <summary>
/// Suppresses the CoarseTimers diagnostics a team accepted when it turned the rules on: those listed in a
/// <c>CoarseTimers.baseline</c> additional file (the package adds the project's own). A key is (rule, file, member);
/// its count is how many sites the member had then. Within the count every site of the key is suppressed; a member
/// with more sites than its count has all of them reported, since without lines nobody can tell which one is new, and
/// that member is what changed. Suppressed diagnostics stay visible as suppressed (SARIF, IDE).
/// Cost: the file is parsed once per text snapshot; each diagnostic is a dictionary look-up. It never throws on a
/// malformed file (bad lines are skipped) and does nothing without one.
/// </summary>
[DiagnosticAnalyzer(LanguageNames.CSharp)]
public sealed class BaselineSuppressor : DiagnosticSuppressor
{
    private static readonly ImmutableDictionary<string, SuppressionDescriptor> s_descriptors = new[]
    {
        DiagnosticIds.TaskDelay, DiagnosticIds.TimeoutCancellationTokenSource, DiagnosticIds.ThreadingTimer, DiagnosticIds.SpinUntil,
    }.ToImmutableDictionary(id => id, id => new SuppressionDescriptor("CTB" + id.Substring(2), id, "Accepted in " + BaselineFile.FileName + " (docs/baseline.md)."));

    private static readonly ConditionalWeakTable<AdditionalText, BaselineFile> s_parsed = new();

    public override ImmutableArray<SuppressionDescriptor> SupportedSuppressions { get; } = s_descriptors.Values.OrderBy(d => d.Id, StringComparer.Ordinal).ToImmutableArray();

    public override void ReportSuppressions(SuppressionAnalysisContext context)
    {
        var baseline = Find(context);
        if (baseline is null || baseline.Count == 0)
        {
            return;
        }

        // Group this batch's diagnostics by key; a key within its count is suppressed whole.
        var sites = new Dictionary<(string Rule, string File, string Member), List<Diagnostic>>();
        foreach (var diagnostic in context.ReportedDiagnostics)
        {
            if (!diagnostic.Location.IsInSource
                || !diagnostic.Properties.TryGetValue(BaselineMember.PropertyName, out var member) || member is null
                || baseline.Relative(PathOf(diagnostic.Location)) is not { } file)
            {
                continue;
            }

            var key = (diagnostic.Id, file, member);
            if (!sites.TryGetValue(key, out var list))
            {
                sites[key] = list = new List<Diagnostic>();
            }

            list.Add(diagnostic);
        }

        foreach (var pair in sites)
        {
            if (pair.Value.Count <= baseline.Allowed(pair.Key.Rule, pair.Key.File, pair.Key.Member) && s_descriptors.TryGetValue(pair.Key.Rule, out var descriptor))
            {
                foreach (var diagnostic in pair.Value)
                {
                    context.ReportSuppression(Suppression.Create(descriptor, diagnostic));
                }
            }
        }
    }

    /// <summary>
    /// The file a diagnostic is reported in, as the compiler's log names it (where the baseline writer reads it): the
    /// path a <c>#line "file"</c> directive maps the site to (Razor, T4 and other generated code), else the tree's own.
    /// </summary>
    private static string PathOf(Location location)
    {
        var mapped = location.GetMappedLineSpan();
        return mapped.HasMappedPath && !string.IsNullOrEmpty(mapped.Path) ? mapped.Path : location.SourceTree!.FilePath;
    }

    /// <summary>
    /// The baseline: the additional file the package marks as one (<c>CoarseTimersBaseline</c> metadata, whatever
    /// <c>CoarseTimersBaselineFile</c> names it), or one called <c>CoarseTimers.baseline</c>.
    /// </summary>
    private static BaselineFile? Find(SuppressionAnalysisContext context)
    {
        foreach (var file in context.Options.AdditionalFiles)
        {
            if (string.Equals(Path.GetFileName(file.Path), BaselineFile.FileName, StringComparison.OrdinalIgnoreCase) ||
                (context.Options.AnalyzerConfigOptionsProvider.GetOptions(file).TryGetValue("build_metadata.AdditionalFiles.CoarseTimersBaseline", out var marked) &&
                 string.Equals(marked, "true", StringComparison.OrdinalIgnoreCase)))
            {
                return s_parsed.GetValue(file, f => f.GetText(context.CancellationToken) is { } text ? BaselineFile.Parse(f.Path, text) : BaselineFile.Parse(f.Path, Microsoft.CodeAnalysis.Text.SourceText.From(string.Empty)));
            }
        }

        return null;
    }
}
