using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// The shared source behind <see cref="CoarseTimeout.After(int)"/>: one per shard, token epoch and timeout. Every caller
/// that read the same <see cref="Epoch"/> and asked for the same <see cref="Milliseconds"/> on the same shard gets its
/// token, so a timeout token costs a read of the published epoch and a cache look-up: no clock read, nothing to
/// allocate or dispose. The driver schedules the bucket when it publishes the next epoch (it is <em>sealed</em> then,
/// <see cref="TimerEngine"/>, "Timeout tokens"), due <see cref="Milliseconds"/> after that publication, and cancels it
/// when it is due. Nobody outside holds the source, so nobody can cancel it early or dispose it; it is never disposed
/// (its token's <c>WaitHandle</c> stays valid) and is collected once the shard's cache and the callers let go of it.
/// </summary>
internal sealed class TimeoutBucket : CancellationTokenSource, ITimerTarget
{
    public TimeoutBucket(TimerEngine engine, long epoch, long milliseconds)
    {
        Engine = engine;
        Epoch = epoch;
        Milliseconds = milliseconds;
    }

    /// <summary>The engine whose driver seals and cancels it (a thread's cached bucket must be of the engine asked).</summary>
    public TimerEngine Engine { get; }

    /// <summary>The token epoch its callers read (<see cref="TimerEngine"/>).</summary>
    public long Epoch { get; }

    /// <summary>The timeout its callers asked for.</summary>
    public long Milliseconds { get; }

    // Exceptions thrown by registered callbacks surface as unhandled on the thread pool, as they do when a BCL timer
    // cancels a CancellationTokenSource(TimeSpan).
    public void OnExpired(TimerTicket ticket) => Cancel();
}
