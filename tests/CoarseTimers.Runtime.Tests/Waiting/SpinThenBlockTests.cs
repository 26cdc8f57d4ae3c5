using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using Xunit;

namespace CoarseTimers.Tests.Waiting;

public class SpinThenBlockTests
{
    public static TheoryData<int> IntTimeouts => new() { int.MinValue, -2, -1, 0, 1 };

    public static TheoryData<double> TimeSpanTimeouts => new() { -2, -1, 0, 1, int.MaxValue, int.MaxValue + 1d, 1e12 };

    [Theory]
    [MemberData(nameof(IntTimeouts))]
    public void Validates_int_timeouts_as_SpinWait(int timeout)
    {
        Same.Outcome(() => SpinWait.SpinUntil(() => true, timeout), () => SpinThenBlock.SpinUntil(() => true, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!, timeout), () => SpinThenBlock.SpinUntil(null!, timeout));
    }

    [Theory]
    [MemberData(nameof(TimeSpanTimeouts))]
    public void Validates_TimeSpan_timeouts_as_SpinWait(double milliseconds)
    {
        var timeout = TimeSpan.FromMilliseconds(milliseconds);
        Same.Outcome(() => SpinWait.SpinUntil(() => true, timeout), () => SpinThenBlock.SpinUntil(() => true, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!, timeout), () => SpinThenBlock.SpinUntil(null!, timeout));
        Same.Outcome(() => SpinWait.SpinUntil(null!), () => SpinThenBlock.SpinUntil(null!));
    }

    [Fact]
    public void Returns_true_at_once_for_a_true_condition_and_false_for_a_zero_timeout()
    {
        Assert.True(SpinThenBlock.SpinUntil(() => true, 0));
        Assert.False(SpinThenBlock.SpinUntil(() => false, 0));
        Assert.Equal(SpinWait.SpinUntil(() => false, 0), SpinThenBlock.SpinUntil(() => false, 0));
    }

    [Fact]
    public void Times_out_with_false_at_or_after_the_deadline()
    {
        var watch = Stopwatch.StartNew();
        Assert.False(SpinThenBlock.SpinUntil(() => false, TimeSpan.FromMilliseconds(5)));
        Assert.True(watch.Elapsed >= TimeSpan.FromMilliseconds(5), $"returned after {watch.Elapsed.TotalMilliseconds} ms");
    }

    [Fact]
    public async Task Sees_a_condition_set_by_another_thread_after_the_spin_phase()
    {
        var flag = 0;
        var setter = Task.Run(async () =>
        {
            await Task.Delay(3);
            Volatile.Write(ref flag, 1);
        });
        Assert.True(SpinThenBlock.SpinUntil(() => Volatile.Read(ref flag) == 1, TimeSpan.FromSeconds(30)));
        await setter;
    }

    [Fact]
    public async Task Polls_past_the_longest_first_block_until_the_condition_is_true()
    {
        // True well after the first block (at most MaxFirstBlockMilliseconds) ends: only the polling phase can see it.
        var flag = 0;
        var setter = Task.Run(async () =>
        {
            await Task.Delay(3 * SpinThenBlock.MaxFirstBlockMilliseconds);
            Volatile.Write(ref flag, 1);
        });
        Assert.True(SpinThenBlock.SpinUntil(() => Volatile.Read(ref flag) == 1, Timeout.Infinite));
        await setter;
    }

    [Theory]
    [InlineData(2.09, 0.01, 2)] // a learnt 2 ms wait, blocked after the spin: one wake-up just after it comes true
    [InlineData(2.49, 0.01, 2)] // rounded to nearest, not up: at most half a millisecond early, then it polls
    [InlineData(2.60, 0.01, 3)]
    [InlineData(1.40, 0.01, 1)]
    [InlineData(0.40, 0.01, 0)] // shorter than half a millisecond: straight to polling
    [InlineData(1.00, 2.00, 0)] // already past the typical wait
    [InlineData(50.0, 0.01, SpinThenBlock.MaxFirstBlockMilliseconds)] // capped
    public void The_first_block_lasts_until_about_when_recent_waits_came_true(double typicalMs, double elapsedMs, int expected)
    {
        const long frequency = 10_000_000;
        Assert.Equal(expected, SpinThenBlock.FirstBlockMilliseconds((long)(typicalMs * 10_000), (long)(elapsedMs * 10_000), frequency));
    }

    [Theory]
    [InlineData(SpinThenBlock.SpinScoreMax, 1, 100)] // spinning paid off lately: the full budget
    [InlineData(1, 7, 100)]
    [InlineData(0, 7, 1)] // the last SpinScoreMax waits all blocked anyway: a few checks only
    [InlineData(0, SpinThenBlock.ProbeEvery, 100)] // but one in ProbeEvery spins in full, to notice short waits again
    [InlineData(0, 2 * SpinThenBlock.ProbeEvery, 100)]
    [InlineData(0, (2 * SpinThenBlock.ProbeEvery) + 1, 1)]
    public void Spins_in_full_only_while_spinning_pays_off_or_to_probe(int spinScore, int futileWaitNumber, long expected)
    {
        Assert.Equal(expected, SpinThenBlock.SpinBudgetTimestamps(spinScore, futileWaitNumber, fullBudget: 100, futileBudget: 1));
    }

    [Fact]
    public void The_spin_is_cut_after_SpinScoreMax_blocked_waits_and_restored_by_one_served_by_spinning()
    {
        var score = SpinThenBlock.SpinScoreMax;
        for (var i = 0; i < SpinThenBlock.SpinScoreMax - 1; i++)
        {
            score = SpinThenBlock.NextSpinScore(score, servedBySpinning: false);
            Assert.True(score > 0, $"cut after {i + 1} blocked waits");
        }

        score = SpinThenBlock.NextSpinScore(score, servedBySpinning: false);
        Assert.Equal(0, score);
        Assert.Equal(0, SpinThenBlock.NextSpinScore(score, servedBySpinning: false));
        Assert.Equal(SpinThenBlock.SpinScoreMax, SpinThenBlock.NextSpinScore(score, servedBySpinning: true));
    }

    [Fact]
    public void A_throwing_predicate_propagates()
    {
        var calls = 0;
        var exception = Assert.Throws<InvalidOperationException>(() => SpinThenBlock.SpinUntil(() => ++calls > 50 ? throw new InvalidOperationException("boom") : false));
        Assert.Equal("boom", exception.Message);
    }
}
