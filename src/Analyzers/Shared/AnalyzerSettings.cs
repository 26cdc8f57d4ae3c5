using System;
using System.Collections.Concurrent;
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

    private static readonly ConcurrentDictionary<string, OptionKeys> s_keys = new(StringComparer.Ordinal);

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
        var keys = s_keys.GetOrAdd(ruleId, static id => new OptionKeys(id));
        var scope = Get(options, keys.HotPathScope)?.ToLowerInvariant() switch
        {
            "all" => HotPathScope.All,
            "declared" => HotPathScope.Declared,
            _ => HotPathScope.Default,
        };

        var attributes = Get(options, keys.HotPathAttributes);
        return new AnalyzerSettings(
            scope,
            ReadBool(options, keys.PerOperationTimeouts, Defaults.PerOperationTimeouts),
            ReadNonNegative(options, keys.PacingThresholdMilliseconds, Defaults.PacingThresholdMilliseconds),
            attributes is null
                ? ImmutableArray<string>.Empty
                : attributes.Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries).Select(static s => s.Trim()).Where(static s => s.Length > 0).ToImmutableArray(),
            ReadBool(options, keys.AnalyzeTestProjects, Defaults.AnalyzeTestProjects),
            ReadNonNegative(options, keys.SpinLongWaitMilliseconds, Defaults.SpinLongWaitMilliseconds),
            ReadNonNegative(options, keys.PollingThresholdMilliseconds, Defaults.PollingThresholdMilliseconds));
    }

    private static string? Get(AnalyzerConfigOptions options, string[] keys)
    {
        foreach (var key in keys)
        {
            if (options.TryGetValue(key, out var value))
            {
                return value.Trim();
            }
        }

        return null;
    }

    private static bool ReadBool(AnalyzerConfigOptions options, string[] keys, bool fallback) =>
        bool.TryParse(Get(options, keys), out var value) ? value : fallback;

    // A whole number too large for a long (`1000000000000000000000`: "effectively no limit") is the largest one, not the
    // default: falling back would quietly turn a threshold meant to be huge into 16 ms.
    private static long ReadNonNegative(AnalyzerConfigOptions options, string[] keys, long fallback)
    {
        var text = Get(options, keys)?.Trim();
        if (long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value))
        {
            return value >= 0 ? value : fallback;
        }

        var digits = text is not null && text.StartsWith("+", StringComparison.Ordinal) ? text.Substring(1) : text;
        return !string.IsNullOrEmpty(digits) && digits!.All(static c => c is >= '0' and <= '9') ? long.MaxValue : fallback;
    }

    /// <summary>
    /// The keys each option is looked up under, in order of precedence: <c>coarse_timers.ct0001.name</c> (the compiler
    /// hands .editorconfig keys over lower-cased), <c>coarse_timers.CT0001.name</c>, <c>coarse_timers.name</c>. Built once
    /// per rule: settings are read once per syntax tree and rule, so the keys are not rebuilt for every file.
    /// </summary>
    private sealed class OptionKeys
    {
        public OptionKeys(string ruleId)
        {
            HotPathScope = For(ruleId, "hot_path_scope");
            HotPathAttributes = For(ruleId, "hot_path_attributes");
            PerOperationTimeouts = For(ruleId, "per_operation_timeouts");
            PacingThresholdMilliseconds = For(ruleId, "pacing_threshold_ms");
            AnalyzeTestProjects = For(ruleId, "analyze_test_projects");
            SpinLongWaitMilliseconds = For(ruleId, "spin_long_wait_ms");
            PollingThresholdMilliseconds = For(ruleId, "polling_threshold_ms");
        }

        public string[] HotPathScope { get; }

        public string[] HotPathAttributes { get; }

        public string[] PerOperationTimeouts { get; }

        public string[] PacingThresholdMilliseconds { get; }

        public string[] AnalyzeTestProjects { get; }

        public string[] SpinLongWaitMilliseconds { get; }

        public string[] PollingThresholdMilliseconds { get; }

        private static string[] For(string ruleId, string name) =>
            new[] { Prefix + ruleId.ToLowerInvariant() + "." + name, Prefix + ruleId + "." + name, Prefix + name };
    }
}
