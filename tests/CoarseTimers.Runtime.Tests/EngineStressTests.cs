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
    [Theory]
    [InlineData(50)]
    [InlineData(1_500)] // mostly longer than the 512 ms revolution of a 1 ms resolution: the shard's list of long delays
    public async Task A_million_random_operations_account_for_every_timer(int maxDelayMilliseconds)
    {
        const int threads = 4;
        const int operationsPerThread = 250_000;
        var engine = new ManualEngine(resolutionMilliseconds: 1, shardCount: 4);
        var targets = new List<StressTarget>[threads];

        await WhileDriven(engine, threads, thread =>
        {
            var random = new Random(thread);
            var mine = targets[thread] = new List<StressTarget>();
            var live = new List<(StressTarget Target, TimerTicket Ticket)>();
            for (var i = 0; i < operationsPerThread; i++)
            {
                var action = random.Next(4);
                if (action <= 1 || live.Count == 0)
                {
                    var target = new StressTarget(engine.Clock, random.Next(0, maxDelayMilliseconds));
                    target.Schedule(engine.Engine);
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
                        var again = new StressTarget(engine.Clock, random.Next(0, maxDelayMilliseconds));
                        again.Schedule(engine.Engine);
                        mine.Add(again);
                        live.Add((again, again.Ticket));
                    }
                }
            }
        });

        // Let everything left come due.
        engine.Advance(maxDelayMilliseconds + 100);
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

    /// <summary>
    /// Threads re-arm (one-shot and periodic), stop and replace timers at random while one thread moves a manual clock
    /// and fires them: the one-shot timer is its own wheel entry and a periodic one uses a pooled entry, so this races
    /// re-arming against expiries of both kinds. Afterwards every timer left must fire exactly once when armed one-shot,
    /// never early, and nothing may stay pending once all are disposed.
    /// </summary>
    [Fact]
    public async Task Timers_changed_and_replaced_at_random_while_firing_stay_consistent()
    {
        const int threads = 4;
        const int timersPerThread = 8;
        const int operationsPerThread = 40_000;
        var engine = new ManualEngine(resolutionMilliseconds: 1, shardCount: 4);
        var timers = new CoarseTimer[threads * timersPerThread];
        var fired = new int[timers.Length];
        var firedAt = new long[timers.Length];
        CoarseTimer Create(int index) => new(engine.Engine, _ =>
        {
            Interlocked.Increment(ref fired[index]);
            Volatile.Write(ref firedAt[index], engine.Clock.GetTimestamp());
        }, null, Timeout.Infinite, Timeout.Infinite, false);

        for (var i = 0; i < timers.Length; i++)
        {
            timers[i] = Create(i);
        }

        await WhileDriven(engine, threads, thread =>
        {
            var random = new Random(thread);
            for (var i = 0; i < operationsPerThread; i++)
            {
                var index = (thread * timersPerThread) + random.Next(timersPerThread);
                var timer = timers[index];
                switch (random.Next(5))
                {
                    case 0:
                    case 1:
                        Assert.True(timer.Change(random.Next(0, 30), Timeout.Infinite));
                        break;
                    case 2:
                        Assert.True(timer.Change(random.Next(0, 30), random.Next(1, 20)));
                        break;
                    case 3:
                        Assert.True(timer.Change(Timeout.Infinite, Timeout.Infinite));
                        break;
                    default:
                        timer.Dispose();
                        timers[index] = Create(index);
                        break;
                }
            }
        });

        // Quiet now: stop every timer, then arm each one-shot once and let it come due.
        foreach (var timer in timers)
        {
            Assert.True(timer.Change(Timeout.Infinite, Timeout.Infinite));
        }

        Assert.Equal(0, engine.Pending);
        var before = (int[])fired.Clone();
        var armedAt = engine.Clock.GetTimestamp();
        foreach (var timer in timers)
        {
            Assert.True(timer.Change(20, Timeout.Infinite));
        }

        engine.Advance(100);
        engine.Advance(100);
        for (var i = 0; i < timers.Length; i++)
        {
            Assert.Equal(before[i] + 1, fired[i]);
            Assert.True(firedAt[i] >= armedAt + 20_000, $"timer {i} fired {(firedAt[i] - armedAt) / 1000.0} ms after it was armed for 20 ms");
        }

        foreach (var timer in timers)
        {
            Assert.True(timer.Change(10, 10));
            timer.Dispose();
        }

        Assert.Equal(0, engine.Pending);
        var afterDispose = (int[])fired.Clone();
        engine.Advance(200);
        Assert.Equal(afterDispose, fired);
    }

    /// <summary>
    /// Threads re-arm, disarm, reset, dispose and replace timeout sources at random while a manual clock fires them: a
    /// source keeps its expiry's state under its shard's lock, so this races CancelAfter, TryReset and Dispose against
    /// expiries taken off the wheel. Each thread owns its sources (the never-early check needs to know the latest arms);
    /// a few shared sources take every operation from every thread at once. A source may only cancel at or after the due
    /// time of one of its last arms (an expiry checked just before a re-arm may still cancel the source as the BCL's
    /// would), a reset must never report success for a source that then cancels, and nothing may stay pending once every
    /// source is disposed.
    /// </summary>
    [Fact]
    public async Task Timeout_sources_rearmed_reset_and_disposed_at_random_while_firing_stay_consistent()
    {
        const int threads = 4;
        const int sourcesPerThread = 8;
        const int operationsPerThread = 40_000;
        const int sharedCount = 4;
        var engine = new ManualEngine(resolutionMilliseconds: 1, shardCount: 4);
        var owned = new OwnedSource[threads * sourcesPerThread];
        var shared = new CoarseCancellationTokenSource[sharedCount];
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        for (var i = 0; i < owned.Length; i++)
        {
            owned[i] = new OwnedSource(engine, failures);
        }

        for (var i = 0; i < shared.Length; i++)
        {
            shared[i] = new CoarseCancellationTokenSource(engine.Engine);
        }

        await WhileDriven(engine, threads, thread =>
        {
            var random = new Random(thread);
            for (var i = 0; i < operationsPerThread; i++)
            {
                if (random.Next(8) == 0)
                {
                    SharedOperation(shared[random.Next(sharedCount)], random);
                    continue;
                }

                var index = (thread * sourcesPerThread) + random.Next(sourcesPerThread);
                var source = owned[index];
                switch (random.Next(6))
                {
                    case 0:
                    case 1:
                    case 2:
                        source.Arm(random.Next(1, 30));
                        break;
                    case 3:
                        source.Arm(Timeout.Infinite);
                        break;
                    case 4:
                        source.TryReset();
                        break;
                    default:
                        source.Dispose();
                        owned[index] = new OwnedSource(engine, failures);
                        break;
                }
            }
        });

        Assert.Empty(failures);

        // Quiet now: every source left is armed once for 20 ms and must cancel then, not before.
        foreach (var source in shared)
        {
            source.Dispose();
        }

        foreach (var source in owned)
        {
            source.Replace();
            source.Arm(20);
        }

        engine.Advance(19);
        Assert.All(owned, source => Assert.False(source.IsCancellationRequested));
        engine.Advance(100);
        Assert.All(owned, source => Assert.True(source.IsCancellationRequested));
        Assert.Empty(failures);

        foreach (var source in owned)
        {
            source.Replace();
            source.Arm(10);
            source.Dispose();
        }

        Assert.Equal(0, engine.Pending);
        engine.Advance(200);
        Assert.All(owned, source => Assert.False(source.IsCancellationRequested));
    }

    // Any thread, any shared source: only exceptions the BCL would throw (a disposed source) are allowed.
    private static void SharedOperation(CoarseCancellationTokenSource source, Random random)
    {
        try
        {
            switch (random.Next(3))
            {
                case 0:
                    source.CancelAfter(random.Next(1, 30));
                    break;
                case 1:
                    source.CancelAfter(Timeout.Infinite);
                    break;
                default:
#if NET
                    source.TryReset();
#else
                    source.CancelAfter(random.Next(1, 30));
#endif
                    break;
            }
        }
        catch (ObjectDisposedException)
        {
        }
    }

    /// <summary>
    /// A timeout source used by one thread, which records the due time of its last arms (clock units, measured from just
    /// before the call) so that its cancellation can be checked against them. Each source has its own record: a source
    /// replaced while an expiry is cancelling it (as a BCL timer may race Dispose) is checked against its own arms.
    /// </summary>
    private sealed class OwnedSource
    {
        private readonly ManualEngine _engine;
        private readonly System.Collections.Concurrent.ConcurrentQueue<string> _failures;
        private Armed _current = null!;

        public OwnedSource(ManualEngine engine, System.Collections.Concurrent.ConcurrentQueue<string> failures)
        {
            _engine = engine;
            _failures = failures;
            Replace();
        }

        public bool IsCancellationRequested => _current.Source.IsCancellationRequested;

        /// <summary>Disposes the current source and starts a new one with no arms.</summary>
        public void Replace()
        {
            _current?.Source.Dispose();
            var armed = new Armed(new CoarseCancellationTokenSource(_engine.Engine));
            armed.Source.Token.Register(() => armed.Check(_engine.Clock.GetTimestamp(), _failures));
            _current = armed;
        }

        public void Arm(int milliseconds)
        {
            if (_current.Source.IsCancellationRequested)
            {
                Replace();
            }

            _current.Record(milliseconds == Timeout.Infinite ? long.MaxValue : _engine.Clock.GetTimestamp() + (milliseconds * 1000L));
            _current.Source.CancelAfter(milliseconds);
        }

        public void TryReset()
        {
#if NET
            if (_current.Source.TryReset())
            {
                // Reset: nothing armed any more, and the source must not cancel from an earlier arm.
                _current.Forget();
            }
#endif
        }

        public void Dispose() => _current.Source.Dispose();
    }

    /// <summary>One source and the due times of its last <see cref="Remembered"/> arms (written by its owner, read when it cancels).</summary>
    private sealed class Armed
    {
        private const int Remembered = 4;
        private readonly long[] _dues = new long[Remembered];
        private int _arms;

        public Armed(CoarseCancellationTokenSource source) => Source = source;

        public CoarseCancellationTokenSource Source { get; }

        public void Record(long due)
        {
            Volatile.Write(ref _dues[_arms % Remembered], due);
            Volatile.Write(ref _arms, _arms + 1);
        }

        public void Forget()
        {
            for (var i = 0; i < Remembered; i++)
            {
                Volatile.Write(ref _dues[i], long.MaxValue);
            }
        }

        // Runs on the driver's thread when the source cancels: some recent arm must be due by now.
        public void Check(long now, System.Collections.Concurrent.ConcurrentQueue<string> failures)
        {
            var earliest = long.MaxValue;
            for (var i = 0; i < Math.Min(Volatile.Read(ref _arms), Remembered); i++)
            {
                earliest = Math.Min(earliest, Volatile.Read(ref _dues[i]));
            }

            if (now < earliest)
            {
                failures.Enqueue(earliest == long.MaxValue
                    ? $"a source cancelled at {now} with nothing armed"
                    : $"a source cancelled at {now}, {(earliest - now) / 1000.0} ms before the earliest of its last arms was due");
            }
        }
    }

    /// <summary>
    /// Runs <paramref name="work"/> on <paramref name="threads"/> threads while one more moves the manual clock and runs
    /// the driver's loop body, as the driver thread would; returns once both are done.
    /// </summary>
    private static async Task WhileDriven(ManualEngine engine, int threads, Action<int> work)
    {
        var stop = 0;
        var driver = Task.Run(() =>
        {
            while (Volatile.Read(ref stop) == 0)
            {
                engine.Advance(0.7);
            }
        });

        try
        {
            Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, work);
        }
        finally
        {
            Volatile.Write(ref stop, 1);
            await driver;
        }
    }

    private sealed class StressTarget : ITimerTarget
    {
        private readonly TimerClock _clock;
        public int Fired;
        public int Cancelled;
        public TimerTicket Ticket;
        private long _scheduledAt;
        private long _firedAt;

        public StressTarget(TimerClock clock, int delayMilliseconds)
        {
            _clock = clock;
            DelayMilliseconds = delayMilliseconds;
        }

        /// <summary>
        /// Records the clock just before scheduling: the call's start, which never-early is measured from. Scheduling by a
        /// delay reads no clock (the driver seals the entry later, due its delay after a reading under the shard lock:
        /// TimerEngine, "Sealing"), so there is no engine reading to compare with, and a thread-static "last read" would
        /// be another test's clock.
        /// </summary>
        public void Schedule(TimerEngine engine)
        {
            _scheduledAt = _clock.GetTimestamp();
            Ticket = engine.Schedule(this, DelayMilliseconds);
        }

        public int DelayMilliseconds { get; }

        public void OnExpired(TimerTicket ticket)
        {
            // Compared once everything is done: the expiry may run before Schedule has returned and recorded its time.
            Volatile.Write(ref _firedAt, _clock.GetTimestamp());
            Interlocked.Increment(ref Fired);
        }

        public bool FiredEarly => Fired > 0 && Volatile.Read(ref _firedAt) - _scheduledAt < DelayMilliseconds * 1000L;
    }
}
