#if !COARSE_NETSTANDARD
using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>BCL APIs that take a TimeProvider (net8.0 and later) running on coarse timers.</summary>
public class TimeProviderIntegrationTests
{
    [Fact]
    public void Task_Delay_and_CancellationTokenSource_run_on_the_provider()
    {
        var engine = new ManualEngine();
        var provider = new CoarseTimeProvider(engine.Engine);
        var delay = Task.Delay(TimeSpan.FromMilliseconds(100), provider);
        using var source = new CancellationTokenSource(TimeSpan.FromMilliseconds(100), provider);
        Assert.Equal(2, engine.Pending);
        engine.Advance(99);
        Assert.False(delay.IsCompleted);
        Assert.False(source.IsCancellationRequested);
        engine.Advance(11);
        Assert.Equal(TaskStatus.RanToCompletion, delay.Status);
        Assert.True(source.IsCancellationRequested);
    }

    [Fact]
    public async Task PeriodicTimer_ticks_on_the_provider()
    {
        var engine = new ManualEngine();
        var provider = new CoarseTimeProvider(engine.Engine);
        using var periodic = new PeriodicTimer(TimeSpan.FromMilliseconds(50), provider);
        var tick = periodic.WaitForNextTickAsync().AsTask();
        engine.Advance(40);
        Assert.False(tick.IsCompleted);
        engine.Advance(20);
        Assert.True(await tick.WaitAsync(TimeSpan.FromSeconds(30)));
        var second = periodic.WaitForNextTickAsync().AsTask();
        engine.Advance(60);
        Assert.True(await second.WaitAsync(TimeSpan.FromSeconds(30)));
    }

    [Fact]
    public async Task PeriodicTimer_on_the_provider_keeps_its_period_on_an_unaligned_clock()
    {
        // 10 ms ticks, a 10 ms period, a clock 3.3 ms off the grid moved 1 ms at a time: 20 ticks in 215 ms, not 10.
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        engine.Advance(3.3);
        var provider = new CoarseTimeProvider(engine.Engine);
        using var periodic = new PeriodicTimer(TimeSpan.FromMilliseconds(10), provider);
        var ticks = 0;
        var tick = periodic.WaitForNextTickAsync().AsTask();
        for (var i = 0; i < 215; i++)
        {
            engine.Advance(1);
            if (tick.IsCompleted)
            {
                Assert.True(await tick);
                ticks++;
                tick = periodic.WaitForNextTickAsync().AsTask();
            }
        }

        Assert.Equal(21, ticks); // due 10 ... 210 ms after the start, each by the next 5 ms wheel tick
    }

    [Fact]
    public async Task Shared_provider_delays_for_real()
    {
        await Task.Delay(TimeSpan.FromMilliseconds(5), CoarseTimeProvider.Shared).WaitAsync(TimeSpan.FromSeconds(30));
    }
}
#endif
