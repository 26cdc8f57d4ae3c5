using System;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class DelayTests
{
    public static TheoryData<long> Milliseconds => new() { -2, -1, 0, 1, int.MaxValue, int.MinValue };

    public static TheoryData<double> TimeSpanMilliseconds => new()
    {
        -2, -1.5, -1, -0.5, 0, 1, int.MaxValue, 4294967294, 4294967295, 4294967296, TimeSpan.MaxValue.TotalMilliseconds,
    };

    [Theory]
    [MemberData(nameof(Milliseconds))]
    public void Int_overloads_validate_as_Task_Delay(long value)
    {
        var ms = (int)value;
        using var cts = new CancellationTokenSource();
        cts.Cancel();
        Same.Outcome(() => Task.Delay(ms, cts.Token), () => CoarseTimer.Delay(ms, cts.Token));
        Same.Outcome(() => Task.Delay(ms, cts.Token), () => CoarseTimer.Delay(ms, cts.Token));
    }

    [Theory]
    [MemberData(nameof(TimeSpanMilliseconds))]
    public void TimeSpan_overloads_validate_as_Task_Delay(double milliseconds)
    {
        var delay = milliseconds >= TimeSpan.MaxValue.TotalMilliseconds ? TimeSpan.MaxValue : TimeSpan.FromMilliseconds(milliseconds);
        using var cts = new CancellationTokenSource();
        cts.Cancel();
        Same.Outcome(() => Task.Delay(delay, cts.Token), () => CoarseTimer.Delay(delay, cts.Token));
    }

    [Fact]
    public void Zero_delay_completes_at_once()
    {
        Assert.Equal(TaskStatus.RanToCompletion, CoarseTimer.Delay(0).Status);
        Assert.Equal(TaskStatus.RanToCompletion, CoarseTimer.Delay(TimeSpan.Zero).Status);
    }

    [Fact]
    public async Task Precancelled_token_gives_a_cancelled_task_carrying_the_token()
    {
        using var cts = new CancellationTokenSource();
        cts.Cancel();
        var task = CoarseTimer.Delay(1000, cts.Token);
        Assert.True(task.IsCanceled);
        var exception = await Assert.ThrowsAsync<TaskCanceledException>(() => task);
        Assert.Equal(cts.Token, exception.CancellationToken);
    }

    [Fact]
    public void Completes_when_the_clock_reaches_the_due_time_and_not_before()
    {
        var engine = new ManualEngine();
        var task = DelayPromise.Start(engine.Engine, 50, CancellationToken.None);
        engine.Advance(49);
        Assert.False(task.IsCompleted);
        engine.Advance(11);
        Assert.Equal(TaskStatus.RanToCompletion, task.Status);
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Cancellation_completes_the_task_at_once_but_never_runs_its_continuations_inside_Cancel()
    {
        var engine = new ManualEngine();
        using var cts = new CancellationTokenSource();
        var task = DelayPromise.Start(engine.Engine, 30_000, cts.Token);
        var cancelling = Thread.CurrentThread;
        using var ran = new ManualResetEventSlim();
        var ranInsideCancel = false;
        task.ContinueWith(
            _ =>
            {
                ranInsideCancel = Thread.CurrentThread == cancelling && !ran.IsSet;
                ran.Set();
            },
            CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);

        cts.Cancel();

        // As Task.Delay (.NET 8 on): the task is cancelled when Cancel returns; the continuation is queued, not run by it.
        Assert.True(task.IsCanceled);
        Assert.True(ran.Wait(TimeSpan.FromSeconds(30)));
        Assert.False(ranInsideCancel);
    }

    [Fact]
    public async Task Cancellation_gives_TaskCanceledException_with_the_token_and_leaves_nothing_pending()
    {
        var engine = new ManualEngine();
        using var cts = new CancellationTokenSource();
        var task = DelayPromise.Start(engine.Engine, 30_000, cts.Token);
        Assert.Equal(1, engine.Pending);
        cts.Cancel();
        var exception = await Assert.ThrowsAsync<TaskCanceledException>(() => task);
        Assert.Equal(cts.Token, exception.CancellationToken);
        Assert.Equal(0, engine.Pending);
        engine.Advance(40_000);
        Assert.True(task.IsCanceled);
    }

    [Fact]
    public async Task Infinite_delay_never_completes_but_can_be_cancelled()
    {
        var engine = new ManualEngine();
        using var cts = new CancellationTokenSource();
        var task = DelayPromise.Start(engine.Engine, Timeout.Infinite, cts.Token);
        Assert.Equal(0, engine.Pending);
        engine.Advance(100_000);
        Assert.False(task.IsCompleted);
        cts.Cancel();
        await Assert.ThrowsAsync<TaskCanceledException>(() => task);
    }

    [Fact]
    public async Task Real_engine_delay_completes()
    {
        await CoarseTimer.Delay(TimeSpan.FromMilliseconds(5)).WaitAsync(TimeSpan.FromSeconds(30));
    }
}
