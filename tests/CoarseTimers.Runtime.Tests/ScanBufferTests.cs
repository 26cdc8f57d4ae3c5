using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>The driver's scan buffers are reused between ticks, but a burst of expiries does not keep them large.</summary>
public class ScanBufferTests
{
    [Fact]
    public void A_burst_of_expiries_is_dispatched_whole_and_its_buffers_are_not_retained()
    {
        var manual = new ManualEngine();
        var target = new CountingTarget();
        for (var i = 0; i < 5_000; i++)
        {
            manual.Engine.Schedule(target, 20);
        }

        manual.Advance(30);

        Assert.Equal(5_000, target.Fired);
        Assert.Equal(0, manual.Pending);
        Assert.InRange(manual.Engine.RetainedScanCapacity, 0, 1024);
    }

    [Fact]
    public void Ticks_with_a_few_expiries_keep_reusing_the_same_small_buffers()
    {
        var manual = new ManualEngine();
        var target = new CountingTarget();
        for (var tick = 0; tick < 50; tick++)
        {
            for (var i = 0; i < 10; i++)
            {
                manual.Engine.Schedule(target, 10);
            }

            manual.Advance(20);
        }

        Assert.Equal(500, target.Fired);
        Assert.InRange(manual.Engine.RetainedScanCapacity, 1, 1024);
    }

    private sealed class CountingTarget : ITimerTarget
    {
        public int Fired { get; private set; }

        public void OnExpired(TimerTicket ticket) => Fired++;
    }
}
