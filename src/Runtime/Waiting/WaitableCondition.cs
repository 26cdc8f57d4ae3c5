using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;
using CoarseTimers.Waiting;

namespace CoarseTimers;

/// <summary>
/// A condition that producers announce: call <see cref="Notify"/> whenever the state a waiter's predicate reads may
/// have changed, and blocked or awaiting waiters re-evaluate their predicate at once, with no polling and no timer
/// per waiter. For code that can say when things change; <see cref="SpinThenBlock"/> serves code that cannot.
/// </summary>
public sealed class WaitableCondition
{
    private readonly TimerEngine _engine;
    private readonly object _monitor = new();
    private List<TaskCompletionSource<bool>>? _asyncWaiters;
    private long _version;
    private int _blocked;

    /// <summary>Creates a condition; asynchronous waits with a timeout schedule it on the process-wide coarse-timer engine.</summary>
    public WaitableCondition()
        : this(TimerEngine.Default)
    {
    }

    /// <summary>A condition whose asynchronous timeouts run on <paramref name="engine"/> (tests).</summary>
    internal WaitableCondition(TimerEngine engine) => _engine = engine;

    /// <summary>Wakes every waiter so it re-evaluates its predicate.</summary>
    public void Notify()
    {
        List<TaskCompletionSource<bool>>? asyncWaiters;
        lock (_monitor)
        {
            _version++;
            asyncWaiters = _asyncWaiters;
            _asyncWaiters = null;
            Monitor.PulseAll(_monitor);
        }

        if (asyncWaiters is not null)
        {
            foreach (var waiter in asyncWaiters)
            {
                waiter.TrySetResult(true);
            }
        }
    }

    /// <summary>Waiters blocked or awaiting right now (diagnostics and tests).</summary>
    internal int WaiterCount
    {
        get
        {
            lock (_monitor)
            {
                return _blocked + (_asyncWaiters?.Count ?? 0);
            }
        }
    }

    /// <summary>Blocks until <paramref name="predicate"/> is true.</summary>
    public void Wait(Func<bool> predicate) => Wait(predicate, Timeout.InfiniteTimeSpan, CancellationToken.None);

    /// <summary>
    /// Blocks until <paramref name="predicate"/> is true (returns true), <paramref name="timeout"/> passes (false), or
    /// <paramref name="cancellationToken"/> is cancelled (<see cref="OperationCanceledException"/>).
    /// </summary>
    public bool Wait(Func<bool> predicate, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var deadline = Deadline(predicate, timeout);
        using var registration = cancellationToken.CanBeCanceled ? cancellationToken.Register(static s => ((WaitableCondition)s!).Notify(), this) : default;
        while (true)
        {
            long version;
            lock (_monitor)
            {
                version = _version;
            }

            if (predicate())
            {
                return true;
            }

            cancellationToken.ThrowIfCancellationRequested();
            var remaining = Remaining(deadline);
            if (remaining == 0)
            {
                return false;
            }

            lock (_monitor)
            {
                // A Notify since the predicate was read means it may be true now: look again instead of sleeping.
                if (version == _version)
                {
                    _blocked++;
                    try
                    {
                        Monitor.Wait(_monitor, remaining);
                    }
                    finally
                    {
                        _blocked--;
                    }
                }
            }
        }
    }

    /// <summary>Waits asynchronously until <paramref name="predicate"/> is true.</summary>
    public ValueTask WaitAsync(Func<bool> predicate, CancellationToken cancellationToken = default)
    {
        if (predicate is null)
        {
            throw new ArgumentNullException(nameof(predicate));
        }

        return predicate() ? default : new ValueTask(WaitAsync(predicate, Timeout.InfiniteTimeSpan, cancellationToken).AsTask());
    }

    /// <summary>
    /// Waits asynchronously until <paramref name="predicate"/> is true (true), <paramref name="timeout"/> passes (false),
    /// or <paramref name="cancellationToken"/> is cancelled (the task is cancelled).
    /// </summary>
    /// <remarks>
    /// The predicate runs outside the condition's lock, so it may take a lock that a producer holds while it calls
    /// <see cref="Notify"/>. However many times the waiter is woken, the wait holds one timeout entry and one token
    /// registration, both removed when it ends.
    /// </remarks>
    public async ValueTask<bool> WaitAsync(Func<bool> predicate, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var milliseconds = CheckTimeout(predicate, timeout);
        AsyncWaitStop? stop = null;
        try
        {
            while (true)
            {
                // Enlisted before the predicate is read: a Notify after the read completes this signal, so none is lost.
                var signal = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
                lock (_monitor)
                {
                    (_asyncWaiters ??= new List<TaskCompletionSource<bool>>()).Add(signal);
                }

                try
                {
                    if (predicate())
                    {
                        return true;
                    }

                    if (stop is null)
                    {
                        cancellationToken.ThrowIfCancellationRequested();
                        if (milliseconds == 0)
                        {
                            return false;
                        }

                        if (milliseconds != Timeout.Infinite || cancellationToken.CanBeCanceled)
                        {
                            stop = new AsyncWaitStop(_engine, milliseconds, cancellationToken);
                        }
                    }

                    stop?.Watch(signal);
                    await signal.Task.ConfigureAwait(false);
                }
                finally
                {
                    lock (_monitor)
                    {
                        _asyncWaiters?.Remove(signal);
                    }
                }

                if (stop is { HasFired: true })
                {
                    cancellationToken.ThrowIfCancellationRequested();

                    // Timed out: one last look, as the blocking wait takes.
                    return predicate();
                }
            }
        }
        finally
        {
            stop?.Dispose();
        }
    }

    private static int CheckTimeout(Func<bool> predicate, TimeSpan timeout)
    {
        if (predicate is null)
        {
            throw new ArgumentNullException(nameof(predicate));
        }

        return TimeoutArguments.CheckWait(timeout, nameof(timeout));
    }

    private static long Deadline(Func<bool> predicate, TimeSpan timeout)
    {
        var milliseconds = CheckTimeout(predicate, timeout);
        return milliseconds == Timeout.Infinite ? long.MaxValue : Stopwatch.GetTimestamp() + StopwatchClock.Instance.FromMilliseconds(milliseconds);
    }

    private static int Remaining(long deadline) => deadline == long.MaxValue
        ? Timeout.Infinite
        : (int)Math.Max(0, Math.Min(int.MaxValue, StopwatchClock.Instance.ToMillisecondsCeiling(deadline - Stopwatch.GetTimestamp())));
}
