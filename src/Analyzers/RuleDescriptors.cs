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
        description: "Every Task.Delay allocates a timer in the BCL timer queues, whose locks every timer in the process shares " +
            "(one global lock on .NET Framework). On a hot path those timers contend. CoarseTimer.Delay schedules into a sharded " +
            "timing wheel instead and may complete later than asked by at most its resolution, never earlier.");

    public static readonly DiagnosticDescriptor TimeoutCancellationTokenSource = Create(
        DiagnosticIds.TimeoutCancellationTokenSource,
        title: "Use CoarseCancellationTokenSource for timeouts on a hot path",
        messageFormat: "{0} schedules a BCL timer on a hot path ({1}); use CoarseTimeout or CoarseCancellationTokenSource",
        description: "A CancellationTokenSource with a timeout, or CancelAfter, creates a BCL timer per operation; it is almost " +
            "always cancelled before it fires, but creating and deleting it takes the timer-queue lock. CoarseCancellationTokenSource " +
            "keeps the timeout in a sharded timing wheel.");

    public static readonly DiagnosticDescriptor ThreadingTimer = Create(
        DiagnosticIds.ThreadingTimer,
        title: "Use CoarseTimer instead of System.Threading.Timer on a hot path",
        messageFormat: "new Timer schedules a BCL timer on a hot path ({0}); use CoarseTimer",
        description: "Each System.Threading.Timer allocates three objects (one finalizable) and takes the timer-queue lock to be " +
            "created, changed and disposed. CoarseTimer has the same constructors and methods over a sharded timing wheel.");

    public static readonly DiagnosticDescriptor SpinUntil = Create(
        DiagnosticIds.SpinUntil,
        title: "Use SpinThenBlock.SpinUntil for waits that take milliseconds",
        messageFormat: "SpinWait.SpinUntil on a long-running wait ({0}) burns CPU and sleeps in whole clock ticks; use SpinThenBlock.SpinUntil",
        description: "SpinWait.SpinUntil spins, yields and then calls Thread.Sleep(1), which takes up to a whole clock tick " +
            "(15.6 ms on Windows): a 2 ms wait becomes 15 ms while a core burns. SpinThenBlock spins for microseconds, then blocks.");

    private static DiagnosticDescriptor Create(string id, string title, string messageFormat, string description) =>
        new(id, title, messageFormat, Category, DiagnosticSeverity.Warning, isEnabledByDefault: true,
            description: description, helpLinkUri: HelpLinkBase + id + ".md");
}
