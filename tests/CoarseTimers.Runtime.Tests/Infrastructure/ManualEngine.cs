using System;
using CoarseTimers.Timing;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>An engine on a <see cref="ManualClock"/> with no driver thread: expiries run inline in <see cref="Advance"/>.</summary>
internal sealed class ManualEngine
{
    private readonly double _halfTickMilliseconds;

    public ManualEngine(int resolutionMilliseconds = 10, int shardCount = 4)
    {
        _halfTickMilliseconds = resolutionMilliseconds / 2.0;
        Clock = new ManualClock();
        Engine = new TimerEngine(
            new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(resolutionMilliseconds), ShardCount = shardCount },
            Clock,
            runDriver: false,
            inlineCallbacks: true);
    }

    public ManualClock Clock { get; }

    public TimerEngine Engine { get; }

    public int Pending => Engine.PendingCount;

    /// <summary>Moves time forward in one jump and runs whatever is due, as a driver that wakes only then would.</summary>
    public void Advance(double milliseconds)
    {
        Clock.AdvanceMilliseconds(milliseconds);
        Engine.ProcessDue();
    }

    /// <summary>
    /// Moves time forward as a timely driver sees it: in steps of at most a half tick, running whatever is due at each
    /// (the driver wakes every half tick while timeout buckets wait to be sealed: TimerEngine, "Timeout tokens").
    /// </summary>
    public void Run(double milliseconds)
    {
        while (milliseconds > _halfTickMilliseconds)
        {
            Clock.AdvanceMilliseconds(_halfTickMilliseconds);
            Engine.ProcessDue();
            milliseconds -= _halfTickMilliseconds;
        }

        Clock.AdvanceMilliseconds(milliseconds);
        Engine.ProcessDue();
    }
}
