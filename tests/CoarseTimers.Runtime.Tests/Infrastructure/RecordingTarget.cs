using System.Collections.Generic;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers.Tests.Infrastructure;

/// <summary>Counts its expiries and records the clock at each one.</summary>
internal sealed class RecordingTarget : ITimerTarget
{
    private readonly TimerClock? _clock;
    private int _count;

    public RecordingTarget(TimerClock? clock = null) => _clock = clock;

    public int Count => Volatile.Read(ref _count);

    public List<long> FiredAt { get; } = new();

    public void OnExpired(TimerTicket ticket)
    {
        Interlocked.Increment(ref _count);
        if (_clock is not null)
        {
            lock (FiredAt)
            {
                FiredAt.Add(_clock.GetTimestamp());
            }
        }
    }
}
