using System;
using System.Diagnostics;
using System.Threading;
using CoarseTimers.Timing;
using CoarseTimers.Waiting;

namespace CoarseTimers;

/// <summary>
/// Drop-in replacement for <see cref="SpinWait.SpinUntil(Func{bool})"/> and its overloads: same arguments, checks,
/// return values and meaning of the timeout. It spins for a bounded time (<see cref="SpinBudget"/>, microseconds: the
/// cost of a context switch), then blocks without burning CPU and re-evaluates the condition on a shared wake-up every
/// poll interval (1 ms by default). It never calls <c>Thread.Sleep(1)</c>, which sleeps a whole clock tick (15.6 ms on
/// Windows) and turns a 2 ms wait into 15 ms.
/// </summary>
public static class SpinThenBlock
{
    /// <summary>
    /// How long a wait spins before it blocks: 20 µs, about ten futex wake-ups or a few context switches on the
    /// machines we measured (docs/benchmarks.md). A condition that comes true within it is served with no blocking at
    /// all, as SpinWait would; anything longer is cheaper to block for.
    /// </summary>
    public static readonly TimeSpan SpinBudget = TimeSpan.FromTicks(200);

    private static readonly long s_spinBudgetTimestamps = Math.Max(1, Stopwatch.Frequency * SpinBudget.Ticks / TimeSpan.TicksPerSecond);

    /// <summary>Spins, then blocks, until <paramref name="condition"/> is true.</summary>
    public static void SpinUntil(Func<bool> condition) => SpinUntil(condition, Timeout.Infinite);

    /// <summary>Waits until <paramref name="condition"/> is true or <paramref name="timeout"/> passes; false on timeout.</summary>
    public static bool SpinUntil(Func<bool> condition, TimeSpan timeout)
    {
        var milliseconds = (long)timeout.TotalMilliseconds;
        if (milliseconds < -1 || milliseconds > int.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(timeout), timeout, "The timeout must be -1 ms (infinite) or between 0 and Int32.MaxValue ms.");
        }

        return SpinUntil(condition, (int)milliseconds);
    }

    /// <summary>Waits until <paramref name="condition"/> is true or <paramref name="millisecondsTimeout"/> passes; false on timeout.</summary>
    public static bool SpinUntil(Func<bool> condition, int millisecondsTimeout)
    {
        if (millisecondsTimeout < Timeout.Infinite)
        {
            throw new ArgumentOutOfRangeException(nameof(millisecondsTimeout), millisecondsTimeout, "The timeout must be -1 (infinite) or greater.");
        }

        if (condition is null)
        {
            throw new ArgumentNullException(nameof(condition), "The condition argument is null.");
        }

        var start = Stopwatch.GetTimestamp();
        var deadline = millisecondsTimeout == Timeout.Infinite ? long.MaxValue : start + StopwatchClock.Instance.FromMilliseconds(millisecondsTimeout);

        // Spin phase: processor-friendly pauses, never a sleep.
        var spinner = default(SpinWait);
        while (true)
        {
            if (condition())
            {
                return true;
            }

            var now = Stopwatch.GetTimestamp();
            if (now >= deadline)
            {
                return false;
            }

            if (now - start >= s_spinBudgetTimestamps)
            {
                break;
            }

#if NET
            spinner.SpinOnce(sleep1Threshold: -1);
#else
            if (spinner.NextSpinWillYield)
            {
                Thread.Yield();
            }
            else
            {
                spinner.SpinOnce();
            }
#endif
        }

        // Block phase: wait for the shared pulse (or the deadline), then look again.
        var ticker = WaiterTicker.Shared;
        while (true)
        {
            var remaining = deadline == long.MaxValue ? Timeout.Infinite : (int)Math.Min(int.MaxValue, StopwatchClock.Instance.ToMillisecondsCeiling(deadline - Stopwatch.GetTimestamp()));
            ticker.WaitForPulse(Math.Max(remaining, deadline == long.MaxValue ? Timeout.Infinite : 0));
            if (condition())
            {
                return true;
            }

            if (Stopwatch.GetTimestamp() >= deadline)
            {
                return false;
            }
        }
    }
}
