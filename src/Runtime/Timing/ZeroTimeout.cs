#if !NET
using System.Threading;
#endif

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
    /// Read once from the runtime's own behaviour, not its name (the netstandard2.0 build also runs on .NET Core, whose
    /// early versions started a timer too). A source the runtime creates cancelled is cancelled every time; a 0 ms
    /// timer's source is found not yet cancelled unless its timer thread runs first, which a busy machine can let
    /// happen once, so a few tries decide.
    /// </summary>
    public static readonly bool CancelsAtOnce = ProbeRuntime();

    private static bool ProbeRuntime()
    {
        for (var attempt = 0; attempt < 4; attempt++)
        {
            using var probe = new CancellationTokenSource(0);
            if (!probe.IsCancellationRequested)
            {
                return false;
            }
        }

        return true;
    }
#endif

    /// <summary>The delay to schedule for a requested zero timeout where the runtime queues a timer: the shortest.</summary>
    public const long ShortestMilliseconds = 1;
}
