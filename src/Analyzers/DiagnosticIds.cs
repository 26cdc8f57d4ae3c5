namespace CoarseTimers.Analyzers;

/// <summary>The rule IDs, in one place so analyzers, code fixes, tests and docs agree.</summary>
public static class DiagnosticIds
{
    public const string TaskDelay = "CT0001";
    public const string TimeoutCancellationTokenSource = "CT0002";
    public const string ThreadingTimer = "CT0003";
    public const string SpinUntil = "CT0004";
}
