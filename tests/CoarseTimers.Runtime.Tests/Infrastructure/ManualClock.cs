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

    /// <summary>Runs before each read: lets a test act between two steps of the driver (each step reads the clock).</summary>
    public Action? OnRead { get; set; }

    public override long GetTimestamp()
    {
        OnRead?.Invoke();
        return Interlocked.Read(ref _now);
    }

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
