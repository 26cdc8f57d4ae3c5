using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// A drop-in replacement for <see cref="System.Threading.Timer"/> (and, through the static <c>Delay</c> methods, for
/// <see cref="Task.Delay(int)"/>) that schedules into the sharded coarse-timer engine instead of the BCL timer queues.
/// Same constructors, <c>Change</c>, <c>Dispose</c> and argument checks; the callback runs on the thread pool in the
/// <see cref="ExecutionContext"/> of the creator, as the runtime's own timer runs it (on Mono, whose timer flows no
/// context, in none). It may fire later than asked, by at most the engine's resolution
/// (10 ms by default) plus scheduling latency, never earlier.
/// </summary>
/// <remarks>
/// Dispose semantics follow the BCL timer: <see cref="Dispose()"/> stops future callbacks without waiting;
/// <see cref="Dispose(WaitHandle)"/> and <see cref="DisposeAsync"/> signal or complete only once a callback that is
/// running has returned. A periodic timer that is no longer referenced is collected and stops at its next period, as a
/// BCL timer stops once collected; a one-shot timer fires at most once whether or not it is still referenced (a BCL
/// timer's does too unless a collection comes before its due time), so creating one needs no finalizable object.
/// </remarks>
public sealed partial class CoarseTimer : ITimer
{
#if !NET
    // .NET Framework's Timer.Change throws once the timer is disposed; .NET Core's returns false. The netstandard2.0
    // build runs on both, so it asks this runtime's own timer, once, the first time it matters.
    private static readonly Lazy<bool> s_changeAfterDisposeThrows = new(ProbeChangeAfterDisposeThrows);
#endif

    /// <summary>Creates a timer that is not started, with the timer itself as the callback's state (as <see cref="System.Threading.Timer(TimerCallback)"/>).</summary>
    public CoarseTimer(TimerCallback callback)
        : this(TimerEngine.Default, callback, state: null, Timeout.Infinite, Timeout.Infinite, useSelfAsState: true)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, int, int)"/>).</summary>
    public CoarseTimer(TimerCallback callback, object? state, int dueTime, int period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)), false)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, long, long)"/>).</summary>
    public CoarseTimer(TimerCallback callback, object? state, long dueTime, long period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.CheckTimer(dueTime, period), period, false)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, TimeSpan, TimeSpan)"/>).</summary>
    public CoarseTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.Check(dueTime, RuntimeTimer.IsNetFramework ? "dueTm" : nameof(dueTime)), TimeoutArguments.Check(period, RuntimeTimer.IsNetFramework ? "periodTm" : nameof(period)), false)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, uint, uint)"/>).</summary>
    [CLSCompliant(false)]
    public CoarseTimer(TimerCallback callback, object? state, uint dueTime, uint period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.FromUInt32(dueTime), TimeoutArguments.FromUInt32(period), false)
    {
    }

    /// <summary>
    /// The constructor behind all others. <paramref name="isProviderTimer"/>: a timer handed out by
    /// <see cref="CoarseTimeProvider"/>, whose <c>Change</c> after disposal returns false on every runtime, as the
    /// system provider's timers do.
    /// </summary>
    internal CoarseTimer(TimerEngine engine, TimerCallback callback, object? state, long dueTime, long period, bool useSelfAsState, bool isProviderTimer = false)
        : base(engine.CurrentShard)
    {
        if (callback is null)
        {
            throw new ArgumentNullException(RuntimeTimer.IsNetFramework ? "TimerCallback" : nameof(callback));
        }

        if (isProviderTimer)
        {
            _status = ProviderTimerFlag;
        }

        _callback = callback;
        _state = useSelfAsState ? this : state;
        _executionContext = CaptureExecutionContext(engine);

        // Nothing else can reach the new timer yet, so no flag: the engine stores the ticket under its shard lock before
        // the expiry can be dispatched, and that lock also publishes the fields written before it.
        Schedule(dueTime, period);
    }

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(int, int)"/>); false once disposed.</summary>
    public bool Change(int dueTime, int period) => ChangeCore(TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)));

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(long, long)"/>); false once disposed.</summary>
    public bool Change(long dueTime, long period) => ChangeCore(TimeoutArguments.CheckTimer(dueTime, period), period);

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(TimeSpan, TimeSpan)"/>); false once disposed.</summary>
    public bool Change(TimeSpan dueTime, TimeSpan period) => RuntimeTimer.IsNetFramework
        ? Change((long)dueTime.TotalMilliseconds, (long)period.TotalMilliseconds) // as .NET Framework's, which forwards to the long overload
        : ChangeCore(TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)));

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(uint, uint)"/>); false once disposed.</summary>
    [CLSCompliant(false)]
    public bool Change(uint dueTime, uint period) => ChangeCore(TimeoutArguments.FromUInt32(dueTime), TimeoutArguments.FromUInt32(period));

    private bool ChangeCore(long dueTime, long period)
    {
        if (TryRearm(dueTime, period))
        {
            return true;
        }

#if !NET
        if ((_status & ProviderTimerFlag) == 0 && s_changeAfterDisposeThrows.Value)
        {
            throw new ObjectDisposedException(null, "Cannot access a disposed object.");
        }
#endif

        return false;
    }

#if !NET
    private static bool ProbeChangeAfterDisposeThrows()
    {
        var probe = new Timer(static _ => { });
        probe.Dispose();
        try
        {
            probe.Change(Timeout.Infinite, Timeout.Infinite);
            return false;
        }
        catch (ObjectDisposedException)
        {
            return true;
        }
    }
#endif

    /// <summary>Stops the timer; a callback already running is not waited for. Calling it again does nothing.</summary>
    public void Dispose()
    {
        Close(notification: null, completion: null);
    }

    /// <summary>
    /// Stops the timer and signals <paramref name="notifyObject"/> once no callback is running. Returns false if the
    /// timer was already disposed (and then signals nothing), as <see cref="System.Threading.Timer.Dispose(WaitHandle)"/>,
    /// which sets the handle as an event: an <see cref="EventWaitHandle"/> is set; any other kind of handle (a
    /// <see cref="Semaphore"/>, a <see cref="Mutex"/>) is accepted and left unsignalled, as the BCL leaves it.
    /// </summary>
    public bool Dispose(WaitHandle notifyObject)
    {
        if (notifyObject is null)
        {
            throw new ArgumentNullException(nameof(notifyObject));
        }

        return Close(notifyObject, completion: null);
    }

    /// <summary>Stops the timer; the returned task completes once no callback is running.</summary>
    public ValueTask DisposeAsync()
    {
        var completion = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        Close(notification: null, completion);
        return new ValueTask(completion.Task);
    }

    /// <summary>Creates a task that completes after <paramref name="millisecondsDelay"/> (as <see cref="Task.Delay(int)"/>).</summary>
    public static Task Delay(int millisecondsDelay) => Delay(millisecondsDelay, CancellationToken.None);

    /// <summary>Creates a task that completes after <paramref name="delay"/> (as <see cref="Task.Delay(TimeSpan)"/>).</summary>
    public static Task Delay(TimeSpan delay) => Delay(delay, CancellationToken.None);

    /// <summary>Creates a cancellable delay task (as <see cref="Task.Delay(int, CancellationToken)"/>).</summary>
    public static Task Delay(int millisecondsDelay, CancellationToken cancellationToken) =>
        DelayPromise.Start(TimerEngine.Default, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)), cancellationToken);

    /// <summary>Creates a cancellable delay task (as <see cref="Task.Delay(TimeSpan, CancellationToken)"/>).</summary>
    public static Task Delay(TimeSpan delay, CancellationToken cancellationToken) =>
        DelayPromise.Start(TimerEngine.Default, TimeoutArguments.CheckDelay(delay, nameof(delay)), cancellationToken);
}
