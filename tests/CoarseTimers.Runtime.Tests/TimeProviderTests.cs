using System;
using System.Threading;

using CoarseTimers.Tests.Infrastructure;
using Xunit;

namespace CoarseTimers.Tests;

public class TimeProviderTests
{
    [Fact]
    public void CreateTimer_validates_as_the_system_provider()
    {
        TimerCallback noop = _ => { };
        Same.Outcome(() => TimeProvider.System.CreateTimer(null!, null, TimeSpan.Zero, TimeSpan.Zero), () => CoarseTimeProvider.Shared.CreateTimer(null!, null, TimeSpan.Zero, TimeSpan.Zero));
        Same.Outcome(() => TimeProvider.System.CreateTimer(noop, null, TimeSpan.FromMilliseconds(-2), TimeSpan.Zero).Dispose(), () => CoarseTimeProvider.Shared.CreateTimer(noop, null, TimeSpan.FromMilliseconds(-2), TimeSpan.Zero).Dispose());
        Same.Outcome(() => TimeProvider.System.CreateTimer(noop, null, TimeSpan.Zero, TimeSpan.FromMilliseconds(-2)).Dispose(), () => CoarseTimeProvider.Shared.CreateTimer(noop, null, TimeSpan.Zero, TimeSpan.FromMilliseconds(-2)).Dispose());
    }

    [Fact]
    public void Change_on_a_disposed_provider_timer_returns_false_as_the_system_provider()
    {
        TimerCallback noop = _ => { };
        var bcl = TimeProvider.System.CreateTimer(noop, null, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        var ours = CoarseTimeProvider.Shared.CreateTimer(noop, null, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        bcl.Dispose();
        ours.Dispose();
        Assert.Equal(bcl.Change(TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan), ours.Change(TimeSpan.FromSeconds(1), Timeout.InfiniteTimeSpan));
    }

    [Fact]
    public void An_unreferenced_periodic_provider_timer_keeps_ticking_after_collections_as_the_system_providers()
    {
        // TimeProvider.System's timers are rooted by their queue while armed; a dropped ITimer keeps ticking there.
        var engine = new ManualEngine();
        var fired = 0;
        StartAndForget(new CoarseTimeProvider(engine.Engine), () => Interlocked.Increment(ref fired));
        for (var round = 1; round <= 3; round++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            engine.Advance(100);
            Assert.Equal(round, fired);
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void StartAndForget(TimeProvider provider, Action onTick) =>
        _ = provider.CreateTimer(_ => onTick(), null, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(100));

#if NET
    [Fact]
    public async System.Threading.Tasks.Task A_PeriodicTimer_loop_on_the_provider_keeps_running_when_nothing_else_references_it()
    {
        var engine = new ManualEngine();
        var ticks = 0;

        // No token: one would root the loop through its registration. The loop ends with the test's manual engine.
        StartLoop(new CoarseTimeProvider(engine.Engine), () => Interlocked.Increment(ref ticks));
        for (var round = 1; round <= 3; round++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            engine.Advance(100);

            // The loop resumes on the thread pool after each tick.
            var deadline = DateTime.UtcNow.AddSeconds(30);
            while (Volatile.Read(ref ticks) < round && DateTime.UtcNow < deadline)
            {
                await System.Threading.Tasks.Task.Delay(1);
            }

            Assert.Equal(round, Volatile.Read(ref ticks));
        }
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    private static void StartLoop(TimeProvider provider, Action onTick) => _ = Loop(provider, onTick);

    private static async System.Threading.Tasks.Task Loop(TimeProvider provider, Action onTick)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(100), provider);
        while (await timer.WaitForNextTickAsync())
        {
            onTick();
        }
    }
#endif

    [Fact]
    public void Options_constructor_validates()
    {
        Assert.Throws<ArgumentNullException>("options", () => new CoarseTimeProvider((CoarseTimerOptions)null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CoarseTimerOptions { Resolution = TimeSpan.Zero });
        Assert.Throws<ArgumentOutOfRangeException>(() => new CoarseTimerOptions { ShardCount = 65 });
        var provider = new CoarseTimeProvider(new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(5) });
        Assert.Equal(TimeSpan.FromMilliseconds(5), provider.Resolution);
    }

    [Theory]
    [InlineData(0, 1, 4)]
    [InlineData(0, 2, 8)]
    [InlineData(0, 3, 16)]
    [InlineData(0, 16, 64)]
    [InlineData(0, 64, 64)]
    [InlineData(3, 2, 4)]
    [InlineData(1, 64, 1)]
    public void The_shard_count_is_four_per_processor_by_default_rounded_up_to_a_power_of_two_and_at_most_64(int configured, int processors, int expected) =>
        Assert.Equal(expected, new CoarseTimerOptions { ShardCount = configured }.EffectiveShardCountFor(processors));
}
