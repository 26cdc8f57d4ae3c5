using System;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// Argument checks shared by every public entry point, written to throw exactly what the BCL API being replaced
/// throws (type and parameter name), so a rewrite changes no error behaviour.
/// </summary>
internal static class TimeoutArguments
{
    /// <summary>The longest due time the BCL timers accept, in milliseconds (0xFFFFFFFE; 0xFFFFFFFF means infinite).</summary>
    public const long MaxSupportedMilliseconds = 0xFFFFFFFE;

    /// <summary>Checks an <see cref="int"/> timeout: -1 (infinite) or more.</summary>
    public static long Check(int milliseconds, string paramName)
    {
        if (milliseconds < -1)
        {
            throw new ArgumentOutOfRangeException(paramName, milliseconds, "The value must be -1 (infinite) or greater.");
        }

        return milliseconds;
    }

    /// <summary>Checks a <see cref="long"/> timeout: -1 (infinite) to <see cref="MaxSupportedMilliseconds"/>.</summary>
    public static long Check(long milliseconds, string paramName)
    {
        if (milliseconds < -1)
        {
            throw new ArgumentOutOfRangeException(paramName, milliseconds, "The value must be -1 (infinite) or greater.");
        }

        if (milliseconds > MaxSupportedMilliseconds)
        {
            throw new ArgumentOutOfRangeException(paramName, milliseconds, "The value must be at most 4294967294 milliseconds.");
        }

        return milliseconds;
    }

    /// <summary>
    /// Checks a timer's <see cref="long"/> due time and period as <c>System.Threading.Timer</c>'s long overloads do: both
    /// for -1 or more first, then both against the maximum, so when both are invalid the same one is reported (its
    /// <see cref="TimeSpan"/> overloads check the due time fully first, as <see cref="Check(TimeSpan, string)"/> twice). Returns <paramref name="dueTime"/>; the
    /// period is then valid as given.
    /// </summary>
    public static long CheckTimer(long dueTime, long period)
    {
        if (dueTime < -1)
        {
            throw new ArgumentOutOfRangeException(nameof(dueTime), dueTime, "The value must be -1 (infinite) or greater.");
        }

        if (period < -1)
        {
            throw new ArgumentOutOfRangeException(nameof(period), period, "The value must be -1 (infinite) or greater.");
        }

        if (dueTime > MaxSupportedMilliseconds)
        {
            throw new ArgumentOutOfRangeException(nameof(dueTime), dueTime, "The value must be at most 4294967294 milliseconds.");
        }

        if (period > MaxSupportedMilliseconds)
        {
            throw new ArgumentOutOfRangeException(nameof(period), period, "The value must be at most 4294967294 milliseconds.");
        }

        return dueTime;
    }

    /// <summary>
    /// Checks the <see cref="TimeSpan"/> timeout of a wait, as <c>SpinWait.SpinUntil(Func&lt;bool&gt;, TimeSpan)</c> and
    /// <c>WaitHandle.WaitOne(TimeSpan)</c> do: -1 ms (infinite) or 0 to <see cref="int.MaxValue"/> ms, truncated to whole
    /// milliseconds.
    /// </summary>
    public static int CheckWait(TimeSpan timeout, string paramName)
    {
        var milliseconds = (long)timeout.TotalMilliseconds;
        if (milliseconds < -1 || milliseconds > int.MaxValue)
        {
            throw new ArgumentOutOfRangeException(paramName, timeout, "The timeout must be -1 ms (infinite) or between 0 and Int32.MaxValue ms.");
        }

        return (int)milliseconds;
    }

    /// <summary>Checks a <see cref="TimeSpan"/> timeout, truncated to whole milliseconds as the BCL does.</summary>
    public static long Check(TimeSpan timeout, string paramName) => Check((long)timeout.TotalMilliseconds, paramName);

    /// <summary>
    /// Checks the <see cref="TimeSpan"/> delay of <c>Task.Delay</c>, <c>new CancellationTokenSource(TimeSpan)</c> and
    /// <c>CancelAfter(TimeSpan)</c>: up to <see cref="MaxSupportedMilliseconds"/> on .NET Core, but only up to
    /// <see cref="int.MaxValue"/> ms on .NET Framework. The netstandard2.0 build runs on both, so it asks this
    /// runtime's <c>Task.Delay</c> once (with a cancelled token: nothing is scheduled).
    /// </summary>
    public static long CheckDelay(TimeSpan delay, string paramName)
    {
#if !NET
        if ((long)delay.TotalMilliseconds > int.MaxValue && s_delayLimitedToInt32.Value)
        {
            throw new ArgumentOutOfRangeException(paramName, delay, "The value must be at most Int32.MaxValue milliseconds.");
        }
#endif

        return Check(delay, paramName);
    }

    /// <summary>
    /// Checks the <see cref="TimeSpan"/> timeout of a source or token (a constructor, <c>CancelAfter</c>,
    /// <see cref="CoarseTimeout"/>) as <see cref="CheckDelay"/>, but a non-zero delay under a millisecond is 1 ms, not 0:
    /// the BCL cancels a source at once only for <see cref="TimeSpan.Zero"/> and otherwise queues a timer, so truncating
    /// 0.5 ms to 0 would cancel before the time asked, on the caller's thread.
    /// </summary>
    public static long CheckTimeout(TimeSpan delay, string paramName)
    {
        var milliseconds = CheckDelay(delay, paramName);
        return milliseconds == 0 && delay != TimeSpan.Zero ? 1 : milliseconds;
    }

#if !NET
    private static readonly Lazy<bool> s_delayLimitedToInt32 = new(static () =>
    {
        try
        {
            System.Threading.Tasks.Task.Delay(TimeSpan.FromMilliseconds(int.MaxValue + 1L), new CancellationToken(true));
            return false;
        }
        catch (ArgumentOutOfRangeException)
        {
            return true;
        }
    });
#endif

    /// <summary>Maps a <see cref="uint"/> timeout: <see cref="uint.MaxValue"/> means infinite.</summary>
    public static long FromUInt32(uint milliseconds) => milliseconds == uint.MaxValue ? Timeout.Infinite : milliseconds;
}
