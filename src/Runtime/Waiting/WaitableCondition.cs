using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// A condition that producers announce: call <see cref="Notify"/> whenever the state a waiter's predicate reads may
/// have changed, and blocked or awaiting waiters re-evaluate their predicate at once, with no polling and no timer
/// per waiter. For code that can say when things change; <see cref="SpinThenBlock"/> serves code that cannot.
/// </summary>
public sealed class WaitableCondition
{
    private readonly object _monitor = new();
    private List<TaskCompletionSource<bool>>? _asyncWaiters;
    private long _version;
    private int _blocked;

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
    public async ValueTask<bool> WaitAsync(Func<bool> predicate, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var deadline = Deadline(predicate, timeout);
        while (true)
        {
            TaskCompletionSource<bool> signal;
            lock (_monitor)
            {
                if (predicate())
                {
                    return true;
                }

                signal = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
                (_asyncWaiters ??= new List<TaskCompletionSource<bool>>()).Add(signal);
            }

            try
            {
                cancellationToken.ThrowIfCancellationRequested();
                var remaining = Remaining(deadline);
                if (remaining == 0)
                {
                    return false;
                }

                if (remaining == Timeout.Infinite && !cancellationToken.CanBeCanceled)
                {
                    await signal.Task.ConfigureAwait(false);
                }
                else
                {
                    var delay = CoarseTimer.Delay(remaining, cancellationToken);
                    if (await Task.WhenAny(signal.Task, delay).ConfigureAwait(false) == delay)
                    {
                        await delay.ConfigureAwait(false); // throws when cancelled
                        if (predicate())
                        {
                            return true;
                        }

                        return false;
                    }
                }
            }
            finally
            {
                lock (_monitor)
                {
                    _asyncWaiters?.Remove(signal);
                }
            }
        }
    }

    private static long Deadline(Func<bool> predicate, TimeSpan timeout)
    {
        if (predicate is null)
        {
            throw new ArgumentNullException(nameof(predicate));
        }

        var milliseconds = (long)timeout.TotalMilliseconds;
        if (milliseconds < -1 || milliseconds > int.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, "The timeout must be -1 ms (infinite) or between 0 and Int32.MaxValue ms.");
        }

        return milliseconds == -1 ? long.MaxValue : Stopwatch.GetTimestamp() + StopwatchClock.Instance.FromMilliseconds(milliseconds);
    }

    private static int Remaining(long deadline) => deadline == long.MaxValue
        ? Timeout.Infinite
        : (int)Math.Max(0, Math.Min(int.MaxValue, StopwatchClock.Instance.ToMillisecondsCeiling(deadline - Stopwatch.GetTimestamp())));
}
