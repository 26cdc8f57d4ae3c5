using System;
using System.Collections.Immutable;
using System.Globalization;
using System.Linq;
using Microsoft.CodeAnalysis.Diagnostics;

namespace CoarseTimers.Analyzers.Shared;

/// <summary>Which call sites count as hot: <c>coarse_timers.hot_path_scope</c>.</summary>
internal enum HotPathScope
{
    /// <summary>Loops, per-item delegates, per-operation timeouts and declared hot paths.</summary>
    Default,

    /// <summary>Only members and types marked with a hot-path attribute.</summary>
    Declared,

    /// <summary>Every call site.</summary>
    All,
}

/// <summary>
/// The options of one rule in one syntax tree, read from .editorconfig / global config. A rule-specific key
/// (<c>coarse_timers.CT0001.option</c>) wins over the shared one (<c>coarse_timers.option</c>); a value that does not
/// parse falls back to the default, so a typo never breaks analysis. Every option: docs/configuration.md.
/// </summary>
internal sealed class AnalyzerSettings
{
    private const string Prefix = "coarse_timers.";

    public static readonly AnalyzerSettings Defaults = new(HotPathScope.Default, perOperationTimeouts: true, pacingThresholdMilliseconds: 1000,
        ImmutableArray<string>.Empty, analyzeTestProjects: false, spinLongWaitMilliseconds: 1, pollingThresholdMilliseconds: 16);

    private AnalyzerSettings(HotPathScope scope, bool perOperationTimeouts, long pacingThresholdMilliseconds,
        ImmutableArray<string> hotPathAttributes, bool analyzeTestProjects, long spinLongWaitMilliseconds, long pollingThresholdMilliseconds)
    {
        Scope = scope;
        PerOperationTimeouts = perOperationTimeouts;
        PacingThresholdMilliseconds = pacingThresholdMilliseconds;
        HotPathAttributes = hotPathAttributes;
        AnalyzeTestProjects = analyzeTestProjects;
        SpinLongWaitMilliseconds = spinLongWaitMilliseconds;
        PollingThresholdMilliseconds = pollingThresholdMilliseconds;
    }

    public HotPathScope Scope { get; }

    public bool PerOperationTimeouts { get; }

    public long PacingThresholdMilliseconds { get; }

    /// <summary>Extra attribute names (simple or fully qualified, with or without the Attribute suffix).</summary>
    public ImmutableArray<string> HotPathAttributes { get; }

    public bool AnalyzeTestProjects { get; }

    public long SpinLongWaitMilliseconds { get; }

    /// <summary>
    /// An awaited sleep in a loop polls (rule 1) only when its constant delay is below this: 16 ms by default, one OS
    /// clock tick (15.6 ms), the rate below which a polling loop runs at the timer's own granularity. A longer sleep fires
    /// each period: it paces its loop.
    /// </summary>
    public long PollingThresholdMilliseconds { get; }

    public static AnalyzerSettings Read(AnalyzerConfigOptions options, string ruleId)
    {
        var scope = Get(options, ruleId, "hot_path_scope")?.ToLowerInvariant() switch
        {
            "all" => HotPathScope.All,
            "declared" => HotPathScope.Declared,
            _ => HotPathScope.Default,
        };

        var attributes = Get(options, ruleId, "hot_path_attributes");
        return new AnalyzerSettings(
            scope,
            ReadBool(options, ruleId, "per_operation_timeouts", Defaults.PerOperationTimeouts),
            ReadNonNegative(options, ruleId, "pacing_threshold_ms", Defaults.PacingThresholdMilliseconds),
            attributes is null
                ? ImmutableArray<string>.Empty
                : attributes.Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries).Select(static s => s.Trim()).Where(static s => s.Length > 0).ToImmutableArray(),
            ReadBool(options, ruleId, "analyze_test_projects", Defaults.AnalyzeTestProjects),
            ReadNonNegative(options, ruleId, "spin_long_wait_ms", Defaults.SpinLongWaitMilliseconds),
            ReadNonNegative(options, ruleId, "polling_threshold_ms", Defaults.PollingThresholdMilliseconds));
    }

    private static string? Get(AnalyzerConfigOptions options, string ruleId, string name)
    {
        // .editorconfig keys are case-insensitive; the compiler hands them over lower-cased.
        if (options.TryGetValue(Prefix + ruleId.ToLowerInvariant() + "." + name, out var value) ||
            options.TryGetValue(Prefix + ruleId + "." + name, out value) ||
            options.TryGetValue(Prefix + name, out value))
        {
            return value.Trim();
        }

        return null;
    }

    private static bool ReadBool(AnalyzerConfigOptions options, string ruleId, string name, bool fallback) =>
        bool.TryParse(Get(options, ruleId, name), out var value) ? value : fallback;

    private static long ReadNonNegative(AnalyzerConfigOptions options, string ruleId, string name, long fallback) =>
        long.TryParse(Get(options, ruleId, name), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) && value >= 0 ? value : fallback;
}
