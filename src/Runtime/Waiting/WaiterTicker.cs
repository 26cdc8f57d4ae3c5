using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers.Waiting;

/// <summary>
/// The one shared wake-up of every blocked <see cref="SpinThenBlock"/> waiter: while at least one waiter is blocked,
/// a single periodic coarse timer pulses them all every <see cref="Interval"/>, and each re-evaluates its condition.
/// With no waiter blocked the timer is stopped, so an idle process has no wake-ups. Waiters share one monitor, so a
/// blocked waiter costs no timer, no event and no allocation of its own.
/// </summary>
internal sealed class WaiterTicker
{
    /// <summary>
    /// The default re-evaluation interval, 1 ms: the waits SpinUntil serves take milliseconds (seed 004's case is 2 ms),
    /// so a coarser poll would add more latency than the wait itself; 1 ms is also what Thread.Sleep(1) takes on Linux,
    /// so blocked waiters are never slower to notice than SpinWait there, while on Windows they avoid its 15.6 ms tick.
    /// Override with the environment variable COARSETIMERS_SPIN_POLL_MS (1–1000).
    /// </summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(1);

    private static WaiterTicker? s_shared;

    private readonly object _monitor = new();
    private readonly CoarseTimer _timer;
    private readonly long _intervalMilliseconds;
    private int _blocked;

    private WaiterTicker(TimeSpan interval)
    {
        Interval = interval;
        _intervalMilliseconds = (long)interval.TotalMilliseconds;

        // Its own engine, ticking at the poll interval, so the poll is not rounded up to the timers' 10 ms resolution.
        // The pulse runs on the driver thread itself (it only takes a lock and pulses), saving a thread-pool hop per tick.
        var engine = new TimerEngine(new CoarseTimerOptions { Resolution = interval, ShardCount = 1 }, StopwatchClock.Instance, runDriver: true, inlineCallbacks: true);
        _timer = new CoarseTimer(engine, static state => ((WaiterTicker)state!).Pulse(), this, Timeout.Infinite, Timeout.Infinite, useSelfAsState: false);
    }

    public static WaiterTicker Shared =>
        Volatile.Read(ref s_shared) ?? Interlocked.CompareExchange(ref s_shared, new WaiterTicker(ReadInterval()), null) ?? s_shared!;

    public TimeSpan Interval { get; }

    /// <summary>Waiters blocked right now (tests assert that none is left behind).</summary>
    internal int BlockedCount => Volatile.Read(ref _blocked);

    /// <summary>
    /// Blocks the calling thread until the next pulse or until <paramref name="maxWaitMilliseconds"/> passes
    /// (-1: no limit). The caller re-evaluates its condition afterwards.
    /// </summary>
    public void WaitForPulse(int maxWaitMilliseconds)
    {
        lock (_monitor)
        {
            if (++_blocked == 1)
            {
                _timer.Change(_intervalMilliseconds, _intervalMilliseconds);
            }

            try
            {
                Monitor.Wait(_monitor, maxWaitMilliseconds);
            }
            finally
            {
                if (--_blocked == 0)
                {
                    _timer.Change(Timeout.Infinite, Timeout.Infinite);
                }
            }
        }
    }

    private void Pulse()
    {
        lock (_monitor)
        {
            Monitor.PulseAll(_monitor);
        }
    }

    private static TimeSpan ReadInterval() =>
        int.TryParse(Environment.GetEnvironmentVariable("COARSETIMERS_SPIN_POLL_MS"), out var ms) && ms is >= 1 and <= 1000
            ? TimeSpan.FromMilliseconds(ms)
            : DefaultInterval;
}
