using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>A clock that moves only when told to, in microseconds, so wheel tests need no sleeps.</summary>
internal sealed class ManualClock : TimerClock
{
    private long _now;

    public ManualClock(long startMicroseconds = 1_000_000) => _now = startMicroseconds;

    public override long Frequency => 1_000_000;

    public override long GetTimestamp() => Interlocked.Read(ref _now);

    public void Advance(TimeSpan by) => Interlocked.Add(ref _now, by.Ticks / 10);

    /// <summary>Moves the clock to <paramref name="timestamp"/> (microseconds), if that is later.</summary>
    public void AdvanceTo(long timestamp)
    {
        var now = Interlocked.Read(ref _now);
        if (timestamp > now)
        {
            Interlocked.Add(ref _now, timestamp - now);
        }
    }

    public void AdvanceMilliseconds(double milliseconds) => Interlocked.Add(ref _now, (long)(milliseconds * 1000));
}
