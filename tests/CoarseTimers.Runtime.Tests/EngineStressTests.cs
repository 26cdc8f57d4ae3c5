using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class EngineStressTests
{
    /// <summary>
    /// Many threads schedule, cancel, change and dispose at random while one thread moves a manual clock and runs the
    /// driver's loop body. Every scheduled expiry must end exactly one way (fired once or cancelled), never early.
    /// </summary>
    [Fact]
    public async Task A_million_random_operations_account_for_every_timer()
    {
        const int threads = 4;
        const int operationsPerThread = 250_000;
        var engine = new ManualEngine(resolutionMilliseconds: 1, shardCount: 4);
        var targets = new List<StressTarget>[threads];
        var stop = 0;

        var driver = Task.Run(() =>
        {
            while (Volatile.Read(ref stop) == 0)
            {
                engine.Advance(0.7);
            }
        });

        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, thread =>
        {
            var random = new Random(thread);
            var mine = targets[thread] = new List<StressTarget>();
            var live = new List<(StressTarget Target, TimerTicket Ticket)>();
            for (var i = 0; i < operationsPerThread; i++)
            {
                var action = random.Next(4);
                if (action <= 1 || live.Count == 0)
                {
                    var target = new StressTarget(engine.Clock, random.Next(0, 50));
                    target.Ticket = engine.Engine.Schedule(target, target.DelayMilliseconds);
                    mine.Add(target);
                    live.Add((target, target.Ticket));
                }
                else
                {
                    // Cancel (as Dispose would) or cancel-and-reschedule (as Change would).
                    var index = random.Next(live.Count);
                    var (target, ticket) = live[index];
                    live.RemoveAt(index);
                    if (TimerEngine.Cancel(ticket))
                    {
                        Interlocked.Increment(ref target.Cancelled);
                    }

                    if (action == 3)
                    {
                        var again = new StressTarget(engine.Clock, random.Next(0, 50));
                        again.Ticket = engine.Engine.Schedule(again, again.DelayMilliseconds);
                        mine.Add(again);
                        live.Add((again, again.Ticket));
                    }
                }
            }
        });

        // Let everything left come due.
        Volatile.Write(ref stop, 1);
        await driver;
        engine.Advance(100);
        engine.Advance(100);

        var total = 0;
        foreach (var list in targets)
        {
            foreach (var target in list)
            {
                total++;
                Assert.Equal(1, target.Fired + target.Cancelled);
                Assert.False(target.FiredEarly, "a timer fired before its due time");
            }
        }

        Assert.True(total >= threads * operationsPerThread / 2);
        Assert.Equal(0, engine.Pending);
    }

    private sealed class StressTarget : ITimerTarget
    {
        private readonly TimerClock _clock;
        private readonly long _scheduledAt;
        public int Fired;
        public int Cancelled;
        public bool FiredEarly;
        public TimerTicket Ticket;

        public StressTarget(TimerClock clock, int delayMilliseconds)
        {
            _clock = clock;
            DelayMilliseconds = delayMilliseconds;
            _scheduledAt = clock.GetTimestamp();
        }

        public int DelayMilliseconds { get; }

        public void OnExpired(TimerTicket ticket)
        {
            if (_clock.GetTimestamp() - _scheduledAt < DelayMilliseconds * 1000L)
            {
                FiredEarly = true;
            }

            Interlocked.Increment(ref Fired);
        }
    }
}
