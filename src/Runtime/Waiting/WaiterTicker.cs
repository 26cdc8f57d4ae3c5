using System;
using System.Diagnostics;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers.Waiting;

/// <summary>
/// The one shared wake-up of every blocked <see cref="SpinThenBlock"/> waiter: while at least one waiter is blocked,
/// a single wheel entry pulses them all every poll interval, and each re-evaluates its condition. Once no waiter has
/// been blocked for <see cref="IdlePulsesBeforeStop"/> pulses the entry is not renewed, so an idle process has no
/// wake-ups. Waiters share one monitor, so a blocked waiter costs no timer, no event and no allocation of its own.
/// The ticker is its own timer target on its own engine, whose driver thread runs the pulse inline: no user callback
/// runs, so no <see cref="ExecutionContext"/> or <see cref="SynchronizationContext"/> of any caller is captured or
/// kept alive (as with the BCL's internal timers), and there is no per-pulse thread-pool hop.
/// </summary>
internal sealed class WaiterTicker : ITimerTarget
{
    /// <summary>
    /// The default re-evaluation interval, 1 ms: the waits SpinUntil serves take milliseconds (the case in field report 5, docs/field-reports.md, is 2 ms),
    /// so a coarser poll would add more latency than the wait itself; 1 ms is also what Thread.Sleep(1) takes on Linux,
    /// so blocked waiters are never slower to notice than SpinWait there. On Windows the driver's timed wait is itself
    /// rounded to the system clock tick (15.6 ms unless a process raised the timer resolution), so there a blocked
    /// waiter notices at that tick, no later than SpinWait's Sleep(1) would (docs/runtime.md, "SpinThenBlock").
    /// Override with the environment variable COARSETIMERS_SPIN_POLL_MS (1–1000).
    /// </summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromMilliseconds(1);

    /// <summary>
    /// Pulses with no waiter blocked before the pulse stops. Stopping as soon as the last waiter leaves made every wait
    /// of a single waiter restart the pulse (a schedule, a driver signal and a cancel per pulse): most of its CPU per
    /// 2 ms wait. A few idle pulses cost a few microseconds each and cover the next wait of a waiter that waits often.
    /// </summary>
    internal const int IdlePulsesBeforeStop = 8;

    private static WaiterTicker? s_shared;

    private readonly object _monitor = new();
    private readonly TimerEngine _engine;
    private readonly long _intervalUnits;

    // Guarded by _monitor.
    private TimerTicket _ticket;
    private long _dueTimestamp;
    private int _blocked;
    private int _idlePulses;

    /// <summary>A ticker pulsing every <paramref name="interval"/> from <paramref name="engine"/> (tests pass a manual one).</summary>
    internal WaiterTicker(TimerEngine engine, TimeSpan interval)
    {
        _engine = engine;
        _intervalUnits = Math.Max(1, engine.Clock.FromMilliseconds((long)interval.TotalMilliseconds));
    }

    private WaiterTicker(TimeSpan interval)
        : this(new TimerEngine(new CoarseTimerOptions { Resolution = interval, ShardCount = 1 }, StopwatchClock.Instance, runDriver: true, inlineCallbacks: true), interval)
    {
        // Its own engine, ticking at the poll interval, so the poll is not rounded up to the timers' 10 ms resolution.
    }

    public static WaiterTicker Shared =>
        Volatile.Read(ref s_shared) ?? Interlocked.CompareExchange(ref s_shared, new WaiterTicker(ReadInterval()), null) ?? s_shared!;

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
            _blocked++;
            _idlePulses = 0;
            if (_ticket.IsNone)
            {
                _dueTimestamp = _engine.Clock.GetTimestamp() + _intervalUnits;
                _ticket = _engine.ScheduleAt(this, _dueTimestamp);
            }

            try
            {
                Monitor.Wait(_monitor, maxWaitMilliseconds);
            }
            finally
            {
                _blocked--;
                Debug.Assert(_blocked >= 0, "every blocked waiter leaves once");
            }
        }
    }

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        lock (_monitor)
        {
            Debug.Assert(ticket.Equals(_ticket), "the pulse entry is only ever replaced here, after it expired");
            if (_blocked == 0 && ++_idlePulses >= IdlePulsesBeforeStop)
            {
                _ticket = default;
                return;
            }

            // The next pulse counts from this one's due time, so pulses do not drift later by the driver's latency.
            var now = _engine.Clock.GetTimestamp();
            _dueTimestamp = Math.Max(_dueTimestamp + _intervalUnits, now);
            _ticket = _engine.ScheduleAt(this, _dueTimestamp);
            Monitor.PulseAll(_monitor);
        }
    }

    private static TimeSpan ReadInterval() =>
        int.TryParse(Environment.GetEnvironmentVariable("COARSETIMERS_SPIN_POLL_MS"), out var ms) && ms is >= 1 and <= 1000
            ? TimeSpan.FromMilliseconds(ms)
            : DefaultInterval;
}
