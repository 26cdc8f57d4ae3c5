using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// The shared source behind <see cref="CoarseTimeout.After(int)"/>: one per shard and due tick, cancelled by the
/// driver when its tick comes. Every caller whose deadline rounds up to <see cref="DueTick"/> on the same shard gets
/// its token, so a timeout token costs a clock read and a cache look-up, with nothing to allocate or dispose. Nobody
/// outside holds the source, so nobody can cancel it early or dispose it; it is never disposed (its token's
/// <c>WaitHandle</c> stays valid) and is collected once the shard's cache and the callers have let go of it.
/// </summary>
internal sealed class TimeoutBucket : CancellationTokenSource, ITimerTarget
{
    public TimeoutBucket(long dueTick) => DueTick = dueTick;

    /// <summary>The engine tick at which the source is cancelled.</summary>
    public long DueTick { get; }

    // Exceptions thrown by registered callbacks surface as unhandled on the thread pool, as they do when a BCL timer
    // cancels a CancellationTokenSource(TimeSpan).
    public void OnExpired(TimerTicket ticket) => Cancel();
}
