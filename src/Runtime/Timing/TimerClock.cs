using System.Diagnostics;

namespace CoarseTimers.Timing;

/// <summary>
/// The monotonic clock the timer engine reads. Time is kept in the clock's own timestamp units (not rounded to
/// milliseconds) so that due times are never rounded down: rounding the start down and the deadline up separately is
/// how <c>Task.Delay</c> ends up completing up to 1 ms early.
/// </summary>
internal abstract class TimerClock
{
    /// <summary>Timestamp units per second.</summary>
    public abstract long Frequency { get; }

    /// <summary>The current monotonic timestamp.</summary>
    public abstract long GetTimestamp();

    /// <summary>Timestamp units covering <paramref name="milliseconds"/>, rounded up.</summary>
    public long FromMilliseconds(long milliseconds) => CeilMulDiv(milliseconds, Frequency, 1000);

    /// <summary>Whole milliseconds covering <paramref name="timestampUnits"/>, rounded up.</summary>
    public long ToMillisecondsCeiling(long timestampUnits) => CeilMulDiv(timestampUnits, 1000, Frequency);

    // a * b / c rounded up, for non-negative a without overflow for every due time the BCL accepts (< 2^32 ms).
    private static long CeilMulDiv(long a, long b, long c)
    {
        var whole = a / c * b;
        var rest = a % c * b;
        return whole + (rest + c - 1) / c;
    }
}

/// <summary>The production clock: <see cref="Stopwatch"/>.</summary>
internal sealed class StopwatchClock : TimerClock
{
    public static readonly StopwatchClock Instance = new();

    public override long Frequency => Stopwatch.Frequency;

    public override long GetTimestamp() => Stopwatch.GetTimestamp();
}
