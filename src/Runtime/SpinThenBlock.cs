using System;
using System.Diagnostics;
using System.Threading;
using CoarseTimers.Timing;
using CoarseTimers.Waiting;

namespace CoarseTimers;

/// <summary>
/// Drop-in replacement for <see cref="SpinWait.SpinUntil(Func{bool})"/> and its overloads: same arguments, checks,
/// return values and meaning of the timeout. It spins for a bounded time (<see cref="SpinBudget"/>, microseconds: the
/// cost of a context switch), then blocks without burning CPU: first for about as long as recent waits took (at most
/// <c>MaxFirstBlockMilliseconds</c>), then re-evaluating the condition on a shared wake-up every poll interval (1 ms by default). It never calls <c>Thread.Sleep(1)</c>, which sleeps a whole clock tick (15.6 ms on
/// Windows) and turns a 2 ms wait into 15 ms.
/// </summary>
public static class SpinThenBlock
{
    /// <summary>
    /// How long a wait spins before it blocks: 10 µs, about five futex wake-ups or a few context switches on the
    /// machines we measured (docs/benchmarks.md); on a VM a blocked wait's wake-up costs tens of microseconds of CPU. A condition that comes true within it is served with no blocking at
    /// all, as SpinWait would; anything longer is cheaper to block for.
    /// </summary>
    public static readonly TimeSpan SpinBudget = TimeSpan.FromTicks(100);

    /// <summary>
    /// The longest first block, in milliseconds. A wait that goes on past the spin phase first blocks for about as long
    /// as recent blocked waits lasted (a process-wide estimate, see <c>s_typicalBlockedTimestamps</c>), capped here, then polls every
    /// <c>WaiterTicker.Interval</c> (1 ms). Waits of regular length (the 2 ms of field report 5 in docs/field-reports.md) then cost one wake-up instead of
    /// two or three; a wait that ends sooner than usual overshoots by at most this much.
    /// </summary>
    internal const int MaxFirstBlockMilliseconds = 4;

    // How long the first block should last, in Stopwatch units: set to how long a wait that needed the poll lasted,
    // shortened by 1/8 ms after each wait the first block was long enough for, so it tracks the usual wait from above
    // and below. Racy updates are harmless.
    private static long s_typicalBlockedTimestamps;

    [ThreadStatic]
    private static object? s_threadGate;

    private static readonly long s_spinBudgetTimestamps = Math.Max(1, Stopwatch.Frequency * SpinBudget.Ticks / TimeSpan.TicksPerSecond);

    private static int FirstBlockMilliseconds(long deadline, long now)
    {
        var typical = Volatile.Read(ref s_typicalBlockedTimestamps);
        var milliseconds = (int)Math.Min(MaxFirstBlockMilliseconds, typical * 1000 / Stopwatch.Frequency);
        return deadline == long.MaxValue ? milliseconds : (int)Math.Min(milliseconds, StopwatchClock.Instance.ToMillisecondsCeiling(Math.Max(0, deadline - now)));
    }

    private static void Learn(long blockedAt) => Volatile.Write(ref s_typicalBlockedTimestamps, Stopwatch.GetTimestamp() - blockedAt);

    private static void Shorten() => Volatile.Write(ref s_typicalBlockedTimestamps, Math.Max(0, Volatile.Read(ref s_typicalBlockedTimestamps) - (Stopwatch.Frequency / 8000)));

    /// <summary>Spins, then blocks, until <paramref name="condition"/> is true.</summary>
    public static void SpinUntil(Func<bool> condition) => SpinUntil(condition, Timeout.Infinite);

    /// <summary>Waits until <paramref name="condition"/> is true or <paramref name="timeout"/> passes; false on timeout.</summary>
    public static bool SpinUntil(Func<bool> condition, TimeSpan timeout)
    {
        return SpinUntil(condition, TimeoutArguments.CheckWait(timeout, nameof(timeout)));
    }

    /// <summary>Waits until <paramref name="condition"/> is true or <paramref name="millisecondsTimeout"/> passes; false on timeout.</summary>
    public static bool SpinUntil(Func<bool> condition, int millisecondsTimeout)
    {
        TimeoutArguments.Check(millisecondsTimeout, nameof(millisecondsTimeout));
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

            SpinOnceWithoutSleep.Step(ref spinner);
        }

        // First block: about as long as recent blocked waits lasted, so that a wait of the usual length wakes once.
        var blockedAt = Stopwatch.GetTimestamp();
        var firstBlock = FirstBlockMilliseconds(deadline, blockedAt);
        if (firstBlock > 0)
        {
            var gate = s_threadGate ??= new object();
            lock (gate)
            {
                // Nobody pulses this thread's gate: a timed block without Thread.Sleep.
                Monitor.Wait(gate, firstBlock);
            }

            if (condition())
            {
                // Long enough, maybe too long: try a little shorter next time.
                Shorten();
                return true;
            }
        }

        // Then wait for the shared pulse (or the deadline), and look again.
        var ticker = WaiterTicker.Shared;
        while (true)
        {
            var remaining = deadline == long.MaxValue ? Timeout.Infinite : (int)Math.Min(int.MaxValue, StopwatchClock.Instance.ToMillisecondsCeiling(deadline - Stopwatch.GetTimestamp()));
            ticker.WaitForPulse(Math.Max(remaining, deadline == long.MaxValue ? Timeout.Infinite : 0));
            if (condition())
            {
                Learn(blockedAt);
                return true;
            }

            if (Stopwatch.GetTimestamp() >= deadline)
            {
                return false;
            }
        }
    }
}
