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
    public void Options_constructor_validates()
    {
        Assert.Throws<ArgumentNullException>("options", () => new CoarseTimeProvider((CoarseTimerOptions)null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => new CoarseTimerOptions { Resolution = TimeSpan.Zero });
        Assert.Throws<ArgumentOutOfRangeException>(() => new CoarseTimerOptions { ShardCount = 65 });
        var provider = new CoarseTimeProvider(new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(5) });
        Assert.Equal(TimeSpan.FromMilliseconds(5), provider.Resolution);
    }
}
