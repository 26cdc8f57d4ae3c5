using Microsoft.CodeAnalysis;

namespace CoarseTimers.Analyzers;

/// <summary>Every descriptor, with its help link, built in one place.</summary>
internal static class RuleDescriptors
{
    private const string Category = "Performance";
    private const string HelpLinkBase = "https://github.com/coarse-timers/coarse-timers/blob/main/docs/rules/";

    public static readonly DiagnosticDescriptor TaskDelay = Create(
        DiagnosticIds.TaskDelay,
        title: "Use CoarseTimer.Delay instead of Task.Delay on a hot path",
        messageFormat: "Task.Delay schedules a BCL timer on a hot path ({0}); use CoarseTimer.Delay",
        description: "Every Task.Delay allocates a timer in the process-wide timer queues. On a hot path those timers contend; CoarseTimer.Delay schedules into a sharded timing wheel instead.");

    private static DiagnosticDescriptor Create(string id, string title, string messageFormat, string description) =>
        new(id, title, messageFormat, Category, DiagnosticSeverity.Warning, isEnabledByDefault: true,
            description: description, helpLinkUri: HelpLinkBase + id + ".md");
}
