using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// A <see cref="TimeProvider"/> whose timers are coarse timers, so that APIs taking a provider —
/// <c>Task.Delay(TimeSpan, TimeProvider)</c>, <c>new CancellationTokenSource(TimeSpan, TimeProvider)</c>,
/// <c>Task.WaitAsync(TimeSpan, TimeProvider)</c>, <c>PeriodicTimer</c> — schedule into the sharded engine.
/// Time stamps and the local time zone are the system's.
/// </summary>
/// <remarks>
/// As with any provider other than <see cref="TimeProvider.System"/>, <c>CancellationTokenSource.TryReset</c>
/// on a source created with this provider returns false, and <c>CancelAfter</c> on a source created without it uses
/// the BCL timer; <see cref="CoarseCancellationTokenSource"/> depends on neither.
/// </remarks>
public sealed class CoarseTimeProvider : TimeProvider
{
    private readonly TimerEngine _engine;

    /// <summary>Creates a provider with its own engine (own shards and driver thread), configured by <paramref name="options"/>.</summary>
    public CoarseTimeProvider(CoarseTimerOptions options)
        : this(new TimerEngine((options ?? throw new ArgumentNullException(nameof(options))).Clone(), StopwatchClock.Instance))
    {
    }

    internal CoarseTimeProvider(TimerEngine engine) => _engine = engine;

    /// <summary>The provider over the process-wide engine that <see cref="CoarseTimer"/> and <see cref="CoarseCancellationTokenSource"/> use.</summary>
    public static CoarseTimeProvider Shared { get; } = new(TimerEngine.Default);

    /// <summary>The resolution of this provider's timers: they fire at most this much later than asked, never earlier.</summary>
    public TimeSpan Resolution => _engine.Resolution;

    /// <summary>
    /// Creates a coarse timer; the callback runs in the creator's <see cref="ExecutionContext"/> where the runtime's own
    /// timer flows it (everywhere but Mono: <see cref="CoarseTimer"/>).
    /// </summary>
    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        if (callback is null)
        {
            throw new ArgumentNullException(nameof(callback));
        }

        return new CoarseTimer(_engine, callback, state, TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)), useSelfAsState: false, isProviderTimer: true);
    }
}
