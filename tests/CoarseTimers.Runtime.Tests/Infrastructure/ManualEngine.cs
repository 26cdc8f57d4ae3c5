using System;
using CoarseTimers.Timing;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>An engine on a <see cref="ManualClock"/> with no driver thread: expiries run inline in <see cref="Advance"/>.</summary>
internal sealed class ManualEngine
{
    public ManualEngine(int resolutionMilliseconds = 10, int shardCount = 4)
    {
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

    /// <summary>Moves time forward and runs whatever is due, as the driver would.</summary>
    public void Advance(double milliseconds)
    {
        Clock.AdvanceMilliseconds(milliseconds);
        Engine.ProcessDue();
    }
}
