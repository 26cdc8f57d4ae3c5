using System;
using CoarseTimers.Timing;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>An engine on a <see cref="ManualClock"/> with no driver thread: expiries run inline in <see cref="Advance"/>.</summary>
internal sealed class ManualEngine
{
    /// <param name="inlineCallbacks">False: expiries run as thread-pool work items, as under the real driver.</param>
    public ManualEngine(int resolutionMilliseconds = 10, int shardCount = 4, bool inlineCallbacks = true)
    {
        Clock = new ManualClock();
        Engine = new TimerEngine(
            new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(resolutionMilliseconds), ShardCount = shardCount },
            Clock,
            runDriver: false,
            inlineCallbacks: inlineCallbacks);
    }

    public ManualClock Clock { get; }

    public TimerEngine Engine { get; }

    public int Pending => Engine.PendingCount;

    /// <summary>
    /// Moves time forward as a timely driver sees it: it runs whatever is due now, then wakes exactly when the engine
    /// asks (the next due tick, or the next seal while entries wait unsealed: TimerEngine, "Sealing"), up to the end.
    /// </summary>
    public void Advance(double milliseconds)
    {
        var end = Clock.GetTimestamp() + (long)(milliseconds * 1000);
        for (var next = Engine.ProcessDue(); next <= end; next = Engine.ProcessDue())
        {
            Clock.AdvanceTo(Math.Max(next, Clock.GetTimestamp() + 1));
        }

        Clock.AdvanceTo(end);
        Engine.ProcessDue();
    }

    /// <summary>Moves time forward in one jump and runs whatever is due then, as a driver that woke only now (descheduled, or late).</summary>
    public void Jump(double milliseconds)
    {
        Clock.AdvanceMilliseconds(milliseconds);
        Engine.ProcessDue();
    }
}
