using System;
using System.Diagnostics;
using System.Threading;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

/// <summary>
/// The real driver thread on the real clock. Correctness of the wheel is proven with the manual clock elsewhere; these
/// bound what only the real driver decides: how late an expiry is, and that the thread ends when idle.
/// </summary>
public class DriverTests
{
    /// <summary>
    /// Scheduling and dispatch latency allowed on top of the resolution. Generous on purpose: the tests share two cores
    /// with builds and other suites, and a thread-pool thread may take this long to be handed a work item there. This
    /// bounds lateness (a lost wake-up shows as seconds), it does not measure speed.
    /// </summary>
    private const int MarginMilliseconds = 500;

    [Fact]
    public void Random_timers_from_several_threads_fire_never_early_and_within_due_plus_resolution_plus_margin()
    {
        const int threads = 4;
        const int timersPerThread = 50;
        // Callbacks inline on the driver: this bounds the driver's own lateness. Thread-pool dispatch is left out, as
        // its delay depends on what every other test in the process is doing with the pool at that moment.
        var engine = new TimerEngine(new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(10) }, StopwatchClock.Instance, inlineCallbacks: true);
        var resolutionTicks = StopwatchClock.Instance.FromMilliseconds(10);
        var marginTicks = StopwatchClock.Instance.FromMilliseconds(MarginMilliseconds);
        var targets = new LatenessTarget[threads * timersPerThread];
        using var done = new CountdownEvent(targets.Length);
        var schedulers = new Thread[threads];
        for (var t = 0; t < threads; t++)
        {
            var thread = t;
            schedulers[t] = new Thread(() =>
            {
                var random = new Random(thread * 7919);
                for (var i = 0; i < timersPerThread; i++)
                {
                    var target = targets[thread * timersPerThread + i] = new LatenessTarget(random.Next(1, 51), done);

                    // The engine reads the clock between these two readings.
                    target.ClockBeforeSchedule = Stopwatch.GetTimestamp();
                    engine.Schedule(target, target.DueMilliseconds);
                    target.ClockAfterSchedule = Stopwatch.GetTimestamp();
                    Thread.Sleep(random.Next(0, 3));
                }
            });
            schedulers[t].Start();
        }

        foreach (var scheduler in schedulers)
        {
            scheduler.Join();
        }

        Assert.True(done.Wait(TimeSpan.FromSeconds(60)), $"{done.CurrentCount} timers never fired");
        foreach (var target in targets)
        {
            var due = StopwatchClock.Instance.FromMilliseconds(target.DueMilliseconds);
            Assert.True(target.FiredAt - target.ClockBeforeSchedule >= due, $"a {target.DueMilliseconds} ms timer fired early");
            var late = target.FiredAt - (target.ClockAfterSchedule + due);
            Assert.True(late <= resolutionTicks + marginTicks, $"a {target.DueMilliseconds} ms timer fired {late * 1000.0 / Stopwatch.Frequency:F1} ms after its due time");
        }
    }

    [Fact]
    public void An_idle_engine_ends_its_driver_thread_and_starts_another_on_demand()
    {
        // Callbacks inline, so the target sees the driver thread itself (it may end before this thread looks).
        var engine = new TimerEngine(new CoarseTimerOptions { Resolution = TimeSpan.FromMilliseconds(1) }, StopwatchClock.Instance, inlineCallbacks: true, lingerMilliseconds: 1);
        Thread? previous = null;
        for (var round = 0; round < 3; round++)
        {
            using var done = new CountdownEvent(1);
            var target = new LatenessTarget(2, done);
            engine.Schedule(target, 2);
            Assert.True(done.Wait(TimeSpan.FromSeconds(30)), $"round {round}: the timer never fired");
            var driver = target.FiredOn!;
            Assert.NotSame(previous, driver);

            // Nothing pending: after its linger the thread ends (an engine nobody uses then keeps no thread).
            Assert.True(driver.Join(TimeSpan.FromSeconds(30)), $"round {round}: the idle driver thread did not end");
            previous = driver;
        }
    }

    private sealed class LatenessTarget : ITimerTarget
    {
        private readonly CountdownEvent _done;

        public LatenessTarget(int dueMilliseconds, CountdownEvent done)
        {
            DueMilliseconds = dueMilliseconds;
            _done = done;
        }

        public int DueMilliseconds { get; }

        public long ClockBeforeSchedule { get; set; }

        public long ClockAfterSchedule { get; set; }

        public long FiredAt { get; private set; }

        public Thread? FiredOn { get; private set; }

        public void OnExpired(TimerTicket ticket)
        {
            FiredAt = Stopwatch.GetTimestamp();
            FiredOn = Thread.CurrentThread;
            _done.Signal();
        }
    }
}
