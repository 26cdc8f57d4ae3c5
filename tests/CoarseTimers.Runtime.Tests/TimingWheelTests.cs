using CoarseTimers.Tests.Infrastructure;
using CoarseTimers.Timing;
using Xunit;

namespace CoarseTimers.Tests;

public class TimingWheelTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(9)]
    [InlineData(10)]
    [InlineData(11)]
    [InlineData(5_000)]
    [InlineData(5_130)]
    [InlineData(60_000)]
    public void Fires_never_early_and_within_one_resolution(int delayMilliseconds)
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var target = new RecordingTarget();
        var start = engine.Clock.GetTimestamp();
        engine.Engine.Schedule(target, delayMilliseconds);

        // Step 1 ms at a time; record the first moment it has fired.
        long firedAfterMicroseconds = -1;
        for (var step = 0; step < delayMilliseconds + 30 && firedAfterMicroseconds < 0; step++)
        {
            engine.Advance(1);
            if (target.Count > 0)
            {
                firedAfterMicroseconds = engine.Clock.GetTimestamp() - start;
            }
        }

        Assert.Equal(1, target.Count);
        Assert.True(firedAfterMicroseconds >= delayMilliseconds * 1000L, $"fired early: {firedAfterMicroseconds} us");
        Assert.True(firedAfterMicroseconds <= (delayMilliseconds + 10) * 1000L, $"fired late: {firedAfterMicroseconds} us");
        Assert.Equal(0, engine.Pending);
    }

    [Fact]
    public void Start_between_ticks_never_rounds_the_due_time_down()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        engine.Clock.AdvanceMilliseconds(9.999);
        var target = new RecordingTarget();
        engine.Engine.Schedule(target, 1);
        engine.Advance(0.0009);
        Assert.Equal(0, target.Count);
        engine.Advance(0.9991);
        Assert.Equal(0, target.Count);
        engine.Advance(10);
        Assert.Equal(1, target.Count);
    }

    [Fact]
    public void Longest_bcl_due_time_is_accepted_and_fires_only_at_the_end()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 1000);
        var target = new RecordingTarget();
        engine.Engine.Schedule(target, TimeoutArguments.MaxSupportedMilliseconds);
        engine.Advance(TimeoutArguments.MaxSupportedMilliseconds - 1);
        Assert.Equal(0, target.Count);
        engine.Advance(1001);
        Assert.Equal(1, target.Count);
    }

    [Fact]
    public void Entries_a_revolution_apart_in_one_slot_fire_each_at_their_own_time()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10);
        var soon = new RecordingTarget();
        var later = new RecordingTarget();
        engine.Engine.Schedule(soon, 100);
        engine.Engine.Schedule(later, 100 + TimingWheel.SlotCount * 5); // one revolution of 5 ms ticks later: the same slot

        engine.Advance(110);
        Assert.Equal((1, 0), (soon.Count, later.Count));
        engine.Advance(TimingWheel.SlotCount * 5);
        Assert.Equal((1, 1), (soon.Count, later.Count));
    }

    [Fact]
    public void Cancel_unlinks_at_once_and_a_stale_ticket_cannot_cancel_a_reused_entry()
    {
        var engine = new ManualEngine(shardCount: 1);
        var first = new RecordingTarget();
        var ticket = engine.Engine.Schedule(first, 1_000);
        Assert.Equal(1, engine.Pending);

        Assert.True(TimerEngine.Cancel(ticket));
        Assert.Equal(0, engine.Pending);
        Assert.False(TimerEngine.Cancel(ticket));

        // The pooled entry is reused for the next schedule; the old ticket must not touch it.
        var second = new RecordingTarget();
        var reused = engine.Engine.Schedule(second, 1_000);
        Assert.Same(ticket.Entry, reused.Entry);
        Assert.False(TimerEngine.Cancel(ticket));
        engine.Advance(1_010);
        Assert.Equal((0, 1), (first.Count, second.Count));
    }

    [Fact]
    public void Next_occupied_tick_is_tickless_when_empty_and_finds_the_earliest_slot()
    {
        var wheel = new TimingWheel(currentTick: 100);
        Assert.Equal(long.MaxValue, wheel.NextOccupiedTick());

        var shard = new TimerShard(100);
        var early = new PooledEntry(shard) { DueTick = 170 };
        var late = new PooledEntry(shard) { DueTick = 400 + TimingWheel.SlotCount }; // beyond one revolution
        wheel.Add(late);
        wheel.Add(early);
        Assert.Equal(170, wheel.NextOccupiedTick());
        wheel.Remove(early);
        Assert.Equal(400, wheel.NextOccupiedTick()); // its slot's next visit: a lower bound, a revolution early
        wheel.Remove(late);
        Assert.Equal(long.MaxValue, wheel.NextOccupiedTick());
    }

    [Fact]
    public void An_entry_due_beyond_a_revolution_waits_in_the_overflow_list_then_fires_at_its_tick()
    {
        var wheel = new TimingWheel(currentTick: 100);
        var shard = new TimerShard(100);
        var due = 100 + (3 * TimingWheel.SlotCount) + 7;
        var entry = new PooledEntry(shard) { DueTick = due, AssignedTarget = new RecordingTarget() };
        wheel.Add(entry);
        Assert.Equal(TimingWheel.OverflowSlot, entry.Slot);
        Assert.Equal(due - TimingWheel.SlotCount, wheel.NextOccupiedTick()); // woken once, to move it into its slot

        var expired = new System.Collections.Generic.List<TimerEntry>();
        for (var tick = 101L; tick < due; tick += 97)
        {
            wheel.Advance(tick, expired);
        }

        wheel.Advance(due - 1, expired);
        Assert.Empty(expired);
        Assert.True(entry.Slot >= 0, "moved into its slot before it is due");
        wheel.Advance(due, expired);
        Assert.Same(entry, Assert.Single(expired));
        Assert.Equal(0, wheel.Count);
    }

    [Theory]
    [InlineData(20)] // sealed by a reading, still in the shard's list of long delays
    [InlineData(3_000)] // placed half a revolution after that reading: in the wheel's overflow list
    [InlineData(57_000)] // within a revolution of its due time: in its slot
    public void Timeouts_longer_than_a_revolution_cancel_wherever_they_wait_and_the_rest_fire_on_time(int cancelAfterMilliseconds)
    {
        var engine = new ManualEngine(shardCount: 1);
        var targets = new RecordingTarget[1_000];
        var tickets = new TimerTicket[targets.Length];
        var start = engine.Clock.GetTimestamp();
        for (var i = 0; i < targets.Length; i++)
        {
            targets[i] = new RecordingTarget(engine.Clock);
            tickets[i] = engine.Engine.Schedule(targets[i], 60_000 + i);
        }

        engine.Advance(cancelAfterMilliseconds);
        Assert.Equal(targets.Length, engine.Pending);
        for (var i = 0; i < targets.Length; i += 2)
        {
            Assert.True(TimerEngine.Cancel(tickets[i]));
        }

        Assert.Equal(targets.Length / 2, engine.Pending);
        engine.Advance(61_100 - cancelAfterMilliseconds);
        Assert.Equal(0, engine.Pending);
        for (var i = 0; i < targets.Length; i++)
        {
            Assert.Equal(i % 2, targets[i].Count);
            if (i % 2 == 1)
            {
                var firedAfterMicroseconds = targets[i].FiredAt[0] - start;
                Assert.InRange(firedAfterMicroseconds, (60_000 + i) * 1000L, (60_000 + i + 10) * 1000L);
            }
        }
    }

    [Fact]
    public void A_seal_of_many_entries_moves_each_once_also_when_some_were_cancelled_before_it()
    {
        var engine = new ManualEngine(resolutionMilliseconds: 10, shardCount: 1);
        var targets = new RecordingTarget[1_000];
        var tickets = new TimerTicket[targets.Length];
        for (var i = 0; i < targets.Length; i++)
        {
            targets[i] = new RecordingTarget();
            tickets[i] = engine.Engine.Schedule(targets[i], 1 + (i % 50));
        }

        for (var i = 0; i < targets.Length; i += 3)
        {
            Assert.True(TimerEngine.Cancel(tickets[i]));
        }

        engine.Advance(100);
        Assert.Equal(0, engine.Pending);
        for (var i = 0; i < targets.Length; i++)
        {
            Assert.Equal(i % 3 == 0 ? 0 : 1, targets[i].Count);
        }
    }
}
