using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// A drop-in replacement for <see cref="System.Threading.Timer"/> (and, through the static <c>Delay</c> methods, for
/// <see cref="Task.Delay(int)"/>) that schedules into the sharded coarse-timer engine instead of the BCL timer queues.
/// Same constructors, <c>Change</c>, <c>Dispose</c> and argument checks; the callback runs on the thread pool in the
/// <see cref="ExecutionContext"/> of the creator. It may fire later than asked, by at most the engine's resolution
/// (10 ms by default) plus scheduling latency, never earlier.
/// </summary>
/// <remarks>
/// Dispose semantics follow the BCL timer: <see cref="Dispose()"/> stops future callbacks without waiting;
/// <see cref="Dispose(WaitHandle)"/> and <see cref="DisposeAsync"/> signal or complete only once a callback that is
/// running has returned. The timer itself counts its running callbacks, so disposing never searches the shards (the
/// del_timer_sync lesson: remember where the work runs instead of scanning every CPU's timer base).
/// </remarks>
public sealed class CoarseTimer : ITimer, ITimerTarget
{
    private readonly TimerEngine _engine;
    private readonly TimerCallback _callback;
    private readonly object? _state;
    private readonly ExecutionContext? _executionContext;
    private readonly object _gate = new();

    // Guarded by _gate.
    private TimerTicket _ticket;
    private long _periodMilliseconds = Timeout.Infinite;
    private bool _disposed;
    private int _runningCallbacks;
    private WaitHandle? _disposeNotification;
    private TaskCompletionSource<bool>? _disposeCompletion;

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
        : this(TimerEngine.Default, callback, state, TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)), false)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, TimeSpan, TimeSpan)"/>).</summary>
    public CoarseTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)), false)
    {
    }

    /// <summary>Creates a timer (as <see cref="System.Threading.Timer(TimerCallback, object?, uint, uint)"/>).</summary>
    [CLSCompliant(false)]
    public CoarseTimer(TimerCallback callback, object? state, uint dueTime, uint period)
        : this(TimerEngine.Default, callback, state, TimeoutArguments.FromUInt32(dueTime), TimeoutArguments.FromUInt32(period), false)
    {
    }

    internal CoarseTimer(TimerEngine engine, TimerCallback callback, object? state, long dueTime, long period, bool useSelfAsState)
    {
        if (callback is null)
        {
            throw new ArgumentNullException(nameof(callback));
        }

        _engine = engine;
        _callback = callback;
        _state = useSelfAsState ? this : state;
        _executionContext = ExecutionContext.IsFlowSuppressed() ? null : ExecutionContext.Capture();
        lock (_gate)
        {
            Arm(dueTime, period);
        }
    }

    /// <summary>Pending expiries in the process-wide engine (diagnostics and tests).</summary>
    internal static int PendingInDefaultEngine => TimerEngine.Default.PendingCount;

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(int, int)"/>).</summary>
    public bool Change(int dueTime, int period) => ChangeCore(TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)));

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(long, long)"/>).</summary>
    public bool Change(long dueTime, long period) => ChangeCore(TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)));

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(TimeSpan, TimeSpan)"/>).</summary>
    public bool Change(TimeSpan dueTime, TimeSpan period) => ChangeCore(TimeoutArguments.Check(dueTime, nameof(dueTime)), TimeoutArguments.Check(period, nameof(period)));

    /// <summary>Changes the due time and period (as <see cref="System.Threading.Timer.Change(uint, uint)"/>).</summary>
    [CLSCompliant(false)]
    public bool Change(uint dueTime, uint period) => ChangeCore(TimeoutArguments.FromUInt32(dueTime), TimeoutArguments.FromUInt32(period));

    /// <summary>Stops the timer; a callback already running is not waited for. Calling it again does nothing.</summary>
    public void Dispose() => DisposeCore(notification: null, completion: null);

    /// <summary>
    /// Stops the timer and signals <paramref name="notifyObject"/> once no callback is running. Returns false if the
    /// timer was already disposed (and then signals nothing), as <see cref="System.Threading.Timer.Dispose(WaitHandle)"/>.
    /// </summary>
    public bool Dispose(WaitHandle notifyObject)
    {
        if (notifyObject is null)
        {
            throw new ArgumentNullException(nameof(notifyObject));
        }

        if (notifyObject is not EventWaitHandle and not Semaphore)
        {
            // Checked here, not when signalling: a throw on the callback's thread would take the process down.
            throw new NotSupportedException("Dispose(WaitHandle) signals an EventWaitHandle or a Semaphore.");
        }

        return DisposeCore(notifyObject, completion: null);
    }

    /// <summary>Stops the timer; the returned task completes once no callback is running.</summary>
    public ValueTask DisposeAsync()
    {
        var completion = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        DisposeCore(notification: null, completion);
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
        DelayPromise.Start(TimerEngine.Default, TimeoutArguments.Check(delay, nameof(delay)), cancellationToken);

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        lock (_gate)
        {
            // A stale expiry: the timer was changed or disposed after this entry was taken off the wheel.
            if (_disposed || !ticket.Equals(_ticket))
            {
                return;
            }

            _ticket = default;
            if (_periodMilliseconds > 0)
            {
                // Rescheduled before the callback runs, as the BCL timer does: a slow callback may overlap the next one.
                _ticket = _engine.Schedule(this, _periodMilliseconds);
            }

            _runningCallbacks++;
        }

        try
        {
            if (_executionContext is null)
            {
                _callback(_state);
            }
            else
            {
                ExecutionContext.Run(_executionContext, static self => ((CoarseTimer)self!)._callback(((CoarseTimer)self!)._state), this);
            }
        }
        finally
        {
            WaitHandle? notification = null;
            TaskCompletionSource<bool>? completion = null;
            lock (_gate)
            {
                if (--_runningCallbacks == 0 && _disposed)
                {
                    notification = _disposeNotification;
                    completion = _disposeCompletion;
                    _disposeNotification = null;
                    _disposeCompletion = null;
                }
            }

            Signal(notification, completion);
        }
    }

    private bool ChangeCore(long dueTime, long period)
    {
        lock (_gate)
        {
            if (_disposed)
            {
                // As the BCL timer on .NET Core: changing a disposed timer reports failure, it does not throw.
                return false;
            }

            TimerEngine.Cancel(_ticket);
            _ticket = default;
            Arm(dueTime, period);
            return true;
        }
    }

    // Caller holds _gate.
    private void Arm(long dueTime, long period)
    {
        _periodMilliseconds = period;
        if (dueTime != Timeout.Infinite)
        {
            _ticket = _engine.Schedule(this, dueTime);
        }
    }

    private bool DisposeCore(WaitHandle? notification, TaskCompletionSource<bool>? completion)
    {
        bool signalNow;
        lock (_gate)
        {
            if (_disposed)
            {
                if (completion is not null)
                {
                    // A later DisposeAsync still waits for a callback that is running.
                    if (_runningCallbacks == 0)
                    {
                        completion.TrySetResult(true);
                    }
                    else
                    {
                        var previous = _disposeCompletion;
                        _disposeCompletion = completion;
                        if (previous is not null)
                        {
                            completion.Task.ContinueWith(static (_, p) => ((TaskCompletionSource<bool>)p!).TrySetResult(true), previous, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
                        }
                    }
                }

                return false;
            }

            _disposed = true;
            TimerEngine.Cancel(_ticket);
            _ticket = default;
            signalNow = _runningCallbacks == 0;
            if (!signalNow)
            {
                _disposeNotification = notification;
                _disposeCompletion = completion;
            }
        }

        if (signalNow)
        {
            Signal(notification, completion);
        }

        return true;
    }

    private static void Signal(WaitHandle? notification, TaskCompletionSource<bool>? completion)
    {
        if (notification is EventWaitHandle eventHandle)
        {
            eventHandle.Set();
        }
        else if (notification is Semaphore semaphore)
        {
            semaphore.Release();
        }

        completion?.TrySetResult(true);
    }
}
