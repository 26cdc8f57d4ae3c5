using Xunit;

namespace CoarseTimers.AnalyzerHost.Tests;

/// <summary>The scorer's reading of the hot-path reason each rule's message gives (its per-reason table).</summary>
public class CorpusScorerTests
{
    [Theory]
    [InlineData("Task.Delay schedules a BCL timer on a hot path (per-operation timeout); use CoarseTimer.Delay", "per-operation timeout")]
    [InlineData("CancelAfter schedules a BCL timer on a hot path (reused source re-armed per call); use CoarseTimeout or CoarseCancellationTokenSource", "reused source re-armed per call")]
    [InlineData("new CancellationTokenSource(timeout) schedules a BCL timer on a hot path (timeout held by its object, one per instance); use CoarseTimeout", "timeout held by its object, one per instance")]
    [InlineData("SpinWait.SpinUntil on a long-running wait (hot path: inside a loop) burns CPU and sleeps in whole clock ticks; use SpinThenBlock.SpinUntil", "inside a loop")]
    [InlineData("SpinWait.SpinUntil on a long-running wait (configured timeout) burns CPU and sleeps in whole clock ticks; use SpinThenBlock.SpinUntil", "configured timeout")]
    [InlineData("a message with no reason", "a message with no reason")]
    public void Reads_the_reason_from_each_rule_message(string message, string reason) =>
        Assert.Equal(reason, CorpusScorer.HotPathReason(message));
}
