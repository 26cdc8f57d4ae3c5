using System;
using System.Diagnostics;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// Drop-in replacement for <see cref="SpinWait.SpinUntil(Func{bool})"/> and its overloads: same arguments, checks,
/// return values and meaning of the timeout. It spins for a bounded time (<see cref="SpinBudget"/>, microseconds: the
/// cost of a context switch; only about a microsecond while recent waits all outlasted the spin, see
/// <c>SpinBudgetTimestamps</c>), then blocks without burning CPU in timed waits of its own thread: the first until about
/// when recent waits came true (at most <c>MaxFirstBlockMilliseconds</c>), so a wait of the usual length wakes once,
/// then every <c>PollMilliseconds</c> (1 ms) until the condition is true. No timer and no allocation per wait (one
/// event per thread, created on its first blocked wait and reused). It never calls <c>Thread.Sleep(1)</c>, which sleeps a whole clock tick (15.6 ms
/// on Windows) and turns a 2 ms wait into 15 ms.
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
    /// How long a wait spins while spinning has stopped paying off (the last <see cref="SpinScoreMax"/> waits all
    /// outlasted <see cref="SpinBudget"/> and had to block anyway): 1 µs, a few checks of the condition. A wait the code
    /// fix rewrites takes milliseconds (CT0004 flags long-running predicates), so the full spin would be spent for
    /// nothing on every call; in this VM it is a quarter of such a wait's CPU (docs/benchmarks.md, section 4).
    /// </summary>
    internal static readonly TimeSpan FutileSpinBudget = TimeSpan.FromTicks(10);

    /// <summary>
    /// How many waits in a row must outlast the spin before spinning is cut to <see cref="FutileSpinBudget"/>: one wait
    /// served by spinning restores the full budget for this many more. 16, so a process whose waits are short one time in
    /// sixteen or more keeps spinning in full.
    /// </summary>
    internal const int SpinScoreMax = 16;

    /// <summary>
    /// While spinning is cut, one wait in this many spins the full <see cref="SpinBudget"/> anyway, so that waits
    /// becoming short again are noticed (a win restores the full budget) at a cost of ~0.6 µs per wait averaged.
    /// </summary>
    internal const int ProbeEvery = 16;

    /// <summary>
    /// The longest first block, in milliseconds. A wait that goes on past the spin phase first blocks until about when
    /// recent waits came true (a process-wide estimate, see <c>s_typicalWaitTimestamps</c>), capped here, then polls every
    /// <see cref="PollMilliseconds"/>. Waits of regular length (the 2 ms of field report 5 in docs/field-reports.md) then
    /// cost one wake-up; a wait that ends sooner than usual overshoots by at most this much.
    /// </summary>
    internal const int MaxFirstBlockMilliseconds = 4;

    /// <summary>
    /// How often a wait the first block was too short for re-evaluates its condition: 1 ms, the finest timed wait the
    /// platform offers and what Thread.Sleep(1) takes on Linux, so a blocked waiter notices no later than SpinWait would.
    /// On Windows a timed wait is rounded up to the system clock tick (docs/runtime.md, "SpinThenBlock on Windows").
    /// </summary>
    internal const int PollMilliseconds = 1;

    // How long a wait usually takes from its call until its condition is true, in Stopwatch units: set to how long a
    // wait that needed polling lasted, and shortened by s_shortenStepTimestamps after each wait the first block was long
    // enough for, so it tracks the usual wait from above and below. Racy updates are harmless.
    private static long s_typicalWaitTimestamps;

    // 1/32 ms: the first block is whole milliseconds rounded to nearest, so from a learnt estimate a regular wait is
    // served with one wake-up about 16 times before the estimate drops half a millisecond and one wait polls again (two
    // wake-ups). Waits that become shorter are tracked down at 1 ms per 32 waits, overshooting meanwhile by at most
    // MaxFirstBlockMilliseconds.
    private static readonly long s_shortenStepTimestamps = Math.Max(1, Stopwatch.Frequency / 32_000);

    // A per-thread event nobody sets: a timed block without Thread.Sleep. An event, not Monitor.Wait on a private
    // object: on Mono a timed Monitor.Wait creates and destroys a wait event each time (~85-115 µs of CPU per 2 ms wait
    // measured, against ~35-60 µs for an event's timed wait); on .NET 10 both cost the same (~30 µs).
    [ThreadStatic]
    private static AutoResetEvent? s_threadGate;

    private static readonly long s_spinBudgetTimestamps = Math.Max(1, Stopwatch.Frequency * SpinBudget.Ticks / TimeSpan.TicksPerSecond);

    private static readonly long s_futileSpinBudgetTimestamps = Math.Max(1, Stopwatch.Frequency * FutileSpinBudget.Ticks / TimeSpan.TicksPerSecond);

    // SpinScoreMax after a wait that spinning served, one less after each wait that had to block (not below 0): while it
    // is 0, waits spin FutileSpinBudget. Process-wide and racy, as s_typicalWaitTimestamps: a lost update costs one
    // wait's spin length, never correctness.
    private static int s_spinScore = SpinScoreMax;

    // Counts waits that found the score at 0, to pick the probes.
    private static int s_futileWaits;

    /// <summary>
    /// How long a wait spins, in Stopwatch units: the full budget while <paramref name="spinScore"/> is above 0 or the
    /// wait is a probe (<paramref name="futileWaitNumber"/> a multiple of <see cref="ProbeEvery"/>), else the futile one.
    /// </summary>
    internal static long SpinBudgetTimestamps(int spinScore, int futileWaitNumber, long fullBudget, long futileBudget) =>
        spinScore > 0 || futileWaitNumber % ProbeEvery == 0 ? fullBudget : futileBudget;

    /// <summary>The score after a wait: <see cref="SpinScoreMax"/> if spinning served it, else one less, not below 0.</summary>
    internal static int NextSpinScore(int spinScore, bool servedBySpinning) =>
        servedBySpinning ? SpinScoreMax : Math.Max(0, spinScore - 1);

    /// <summary>
    /// The first block: whole milliseconds, rounded to nearest, from <paramref name="elapsedTimestamps"/> into the wait
    /// until the typical wait's end, between 0 and <see cref="MaxFirstBlockMilliseconds"/>. A timed wait takes whole
    /// milliseconds, and rounding up would add most of a millisecond to every wait.
    /// </summary>
    internal static int FirstBlockMilliseconds(long typicalTimestamps, long elapsedTimestamps, long frequency)
    {
        var left = Math.Max(0, typicalTimestamps - elapsedTimestamps);
        var milliseconds = ((left * 1000) + (frequency / 2)) / frequency;
        return (int)Math.Min(MaxFirstBlockMilliseconds, milliseconds);
    }

    private static void Learn(long waitedTimestamps) => Volatile.Write(ref s_typicalWaitTimestamps, waitedTimestamps);

    private static void Shorten() => Volatile.Write(ref s_typicalWaitTimestamps, Math.Max(0, Volatile.Read(ref s_typicalWaitTimestamps) - s_shortenStepTimestamps));

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

        // Spin phase: processor-friendly pauses, never a sleep; cut short while recent waits all had to block anyway.
        var spinScore = Volatile.Read(ref s_spinScore);
        var spinBudget = spinScore > 0
            ? s_spinBudgetTimestamps
            : SpinBudgetTimestamps(spinScore, Interlocked.Increment(ref s_futileWaits), s_spinBudgetTimestamps, s_futileSpinBudgetTimestamps);
        var spinner = default(SpinWait);
        while (true)
        {
            if (condition())
            {
                if (spinner.Count > 0 && spinScore != SpinScoreMax)
                {
                    Volatile.Write(ref s_spinScore, NextSpinScore(spinScore, servedBySpinning: true));
                }

                return true;
            }

            var now = Stopwatch.GetTimestamp();
            if (now >= deadline)
            {
                return false;
            }

            if (now - start >= spinBudget)
            {
                break;
            }

            SpinOnceWithoutSleep.Step(ref spinner);
        }

        if (spinScore > 0)
        {
            Volatile.Write(ref s_spinScore, NextSpinScore(spinScore, servedBySpinning: false));
        }

        // Blocked phase: a timed wait of this thread's own (no timer, no Thread.Sleep). The first lasts until about when
        // recent waits came true, so a wait of the usual length wakes once; later ones poll every PollMilliseconds.
        var gate = s_threadGate ??= new AutoResetEvent(initialState: false);
        var firstBlock = true;
        while (true)
        {
            var now = Stopwatch.GetTimestamp();
            var milliseconds = firstBlock ? FirstBlockMilliseconds(Volatile.Read(ref s_typicalWaitTimestamps), now - start, Stopwatch.Frequency) : PollMilliseconds;
            if (deadline != long.MaxValue)
            {
                milliseconds = (int)Math.Min(milliseconds, StopwatchClock.Instance.ToMillisecondsCeiling(Math.Max(0, deadline - now)));
            }

            if (milliseconds > 0)
            {
                gate.WaitOne(milliseconds);
            }

            if (condition())
            {
                if (firstBlock)
                {
                    Shorten();
                }
                else
                {
                    Learn(Stopwatch.GetTimestamp() - start);
                }

                return true;
            }

            if (Stopwatch.GetTimestamp() >= deadline)
            {
                return false;
            }

            firstBlock = false;
        }
    }
}
