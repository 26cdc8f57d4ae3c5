namespace CoarseTimers.Timing;

/// <summary>
/// What a zero timeout does on the runtime the library runs on, so <c>new CoarseCancellationTokenSource(0)</c> and
/// <c>CoarseTimeout.After(0)</c> do the same: .NET Core creates <c>new CancellationTokenSource(0)</c> already cancelled,
/// while .NET Framework and Mono start a 0 ms timer, so their source is cancelled a moment later on a timer thread and a
/// callback registered right after the constructor runs there, not inline on the caller's thread (under whatever lock
/// it holds). Where the runtime queues a timer, a zero timeout takes the shortest one of ours.
/// </summary>
internal static class ZeroTimeout
{
#if NET
    /// <summary>True: every runtime the net8.0 build runs on (.NET 8 and later) creates the source cancelled.</summary>
    public const bool CancelsAtOnce = true;
#else
    /// <summary>
    /// False where the timer APIs come from the .NET Framework reference source (.NET Framework and Mono:
    /// <see cref="RuntimeTimer.HasReferenceSourceTimers"/>), whose source starts a timer for every delay, 0 included. Read
    /// from the runtime's identity, not by creating a source and looking: on Mono a 0 ms timer is often cancelled by its
    /// timer thread before the next statement runs (a probe that looked answered wrongly in about one test run in five).
    /// </summary>
    public static readonly bool CancelsAtOnce = !RuntimeTimer.HasReferenceSourceTimers;
#endif

    /// <summary>
    /// The delay to schedule for a zero timeout where the BCL queues a timer for it (here, and <c>CancelAfter(0)</c> on a
    /// linked timeout everywhere): the shortest.
    /// </summary>
    public const long ShortestMilliseconds = 1;
}
