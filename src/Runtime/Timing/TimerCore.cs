using System.Threading;
using System.Threading.Tasks;

namespace CoarseTimers.Timing;

/// <summary>
/// The scheduled state of a <see cref="CoarseTimer"/>: what the engine holds while the timer is armed. The public timer
/// wraps it and closes it from a finalizer, so, as with the BCL's Timer/TimerHolder pair, a started timer that nobody
/// references any more is collected and stops instead of firing (and rooting its callback's captures) forever.
/// The core counts its own running callbacks under its lock, so disposing waits for them without scanning shards
/// (the del_timer_sync lesson: remember where the work runs).
/// </summary>
internal sealed class TimerCore : ITimerTarget
{
    private readonly TimerEngine _engine;
    private readonly TimerCallback _callback;
    private readonly object? _state;
    private readonly ExecutionContext? _executionContext;

    // Guarded by lock (this): the core is internal, so nothing else can take that lock, and no extra object is allocated.
    private TimerTicket _ticket;
    private long _periodMilliseconds = Timeout.Infinite;
    private bool _disposed;
    private int _runningCallbacks;
    private WaitHandle? _disposeNotification;
    private TaskCompletionSource<bool>? _disposeCompletion;

    public TimerCore(TimerEngine engine, TimerCallback callback, object? state, long dueTime, long period)
    {
        _engine = engine;
        _callback = callback;
        _state = state;
        _executionContext = ExecutionContext.IsFlowSuppressed() ? null : ExecutionContext.Capture();
        lock (this)
        {
            Arm(dueTime, period);
        }
    }

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        lock (this)
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
                ExecutionContext.Run(_executionContext, static self => ((TimerCore)self!)._callback(((TimerCore)self!)._state), this);
            }
        }
        finally
        {
            WaitHandle? notification = null;
            TaskCompletionSource<bool>? completion = null;
            lock (this)
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

    /// <summary>Re-arms the timer; false when it is disposed (arguments are validated by the caller).</summary>
    public bool Change(long dueTime, long period)
    {
        lock (this)
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

    /// <summary>Stops the timer; signals <paramref name="notification"/> / completes <paramref name="completion"/> once no callback runs. False if already disposed.</summary>
    public bool Dispose(WaitHandle? notification, TaskCompletionSource<bool>? completion)
    {
        bool signalNow;
        lock (this)
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
