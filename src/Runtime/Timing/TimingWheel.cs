using System;
using System.Collections.Generic;
using System.Diagnostics;

namespace CoarseTimers.Timing;

/// <summary>
/// A hashed timing wheel with an overflow list: <see cref="SlotCount"/> slots, each a doubly-linked list of entries
/// whose due tick maps to it (<c>dueTick % SlotCount</c>), for entries due within about one revolution; and one
/// doubly-linked list, in the order entries arrived, for entries due later (the BCL timer queue's "long" list, Kafka's
/// overflow wheel). A bitmap of non-empty slots lets the driver find the next slot worth waking for without walking
/// the slots.
/// Why the overflow list: most timeouts are far longer than a revolution (30 s against 5.12 s) and are cancelled long
/// before they fire. In a slot they would be walked past at every visit of it, and cancelling them would touch
/// neighbours scattered over the heap (one slot mixes entries created seconds apart); in the overflow list nothing
/// visits them until they come within reach, and neighbours are the entries created just before and after, so a
/// burst of timeouts created and cancelled in order touches memory in order (docs/runtime.md, "Pending timers").
/// The overflow list is scanned once its earliest entry comes within one revolution; the scan moves every entry due
/// within two revolutions into its slot, so it runs at most about once per revolution whatever the load. While the
/// list holds entries whose target may retract (<see cref="IRetractableTarget"/>), it is also scanned once per
/// revolution, so such an entry is dropped within about a revolution wherever it is linked.
/// Cost: schedule and cancel O(1); advancing visits each elapsed slot once (at most one revolution per advance) and
/// every entry in it; a scan of the overflow list is O(its length), at most once per revolution. Not thread-safe:
/// <see cref="TimerShard"/> holds its lock around every call.
/// </summary>
internal sealed class TimingWheel
{
    /// <summary>
    /// Slots per wheel. 1,024 slots of the default 5 ms tick (half the 10 ms resolution: TimerEngine) is a 5.12 s
    /// revolution: the common 1–5 s timeouts are found in one visit, and a 30 s timeout is skipped about 6 times before
    /// it fires or, far more often, is cancelled. 8 KB of slot heads per shard.
    /// </summary>
    public const int SlotCount = 1024;

    /// <summary><see cref="TimerEntry.Slot"/> of an entry in the overflow list.</summary>
    public const int OverflowSlot = -3;

    private const int SlotMask = SlotCount - 1;

    private readonly TimerEntry?[] _heads = new TimerEntry?[SlotCount];
    private readonly ulong[] _occupied = new ulong[SlotCount / 64];

    // Entries due more than a revolution ahead when added, oldest first, and a lower bound of their earliest due tick
    // (exact after each scan; a removal does not raise it, so at worst a scan comes early and finds nothing to move).
    private EntryList _overflow;
    private long _overflowEarliest = long.MaxValue;

    // Overflow entries whose target may retract (IRetractableTarget), and the tick of the last scan: while there are
    // any, the list is also scanned once per revolution, so a retracted entry is dropped within about a revolution, as
    // one in a slot is, not kept until its due time.
    private int _overflowRetractable;
    private long _lastOverflowScan;
    private int _slotted;

    public TimingWheel(long currentTick)
    {
        CurrentTick = currentTick;
        _lastOverflowScan = currentTick;
    }

    /// <summary>The last tick whose slot has been processed. Invariant: every linked entry has DueTick &gt; CurrentTick.</summary>
    public long CurrentTick { get; private set; }

    public int Count { get; private set; }

    /// <summary>
    /// Links <paramref name="entry"/>: into its slot when due within a revolution, else at the end of the overflow list.
    /// A due tick already passed is moved to the next tick (fires at once).
    /// </summary>
    public void Add(TimerEntry entry)
    {
        Debug.Assert(entry.Slot < 0 && entry.Previous is null, "an entry is linked into one slot at a time");
        if (entry.DueTick <= CurrentTick)
        {
            entry.DueTick = CurrentTick + 1;
        }

        if (entry.DueTick - CurrentTick > SlotCount)
        {
            AddToOverflow(entry);
        }
        else
        {
            AddToSlot(entry);
        }

        Count++;
        Debug.Assert(entry.DueTick > CurrentTick, "invariant: every linked entry is due after the current tick");
    }

    /// <summary>Unlinks <paramref name="entry"/>, which must be linked in this wheel.</summary>
    public void Remove(TimerEntry entry)
    {
        Debug.Assert(Count > 0, "removing from an empty wheel");
        if (entry.Slot == OverflowSlot)
        {
            RemoveFromOverflow(entry);
        }
        else
        {
            RemoveFromSlot(entry);
        }

        entry.Previous = null;
        entry.Next = null;
        entry.Slot = -1;
        Count--;
    }

    /// <summary>
    /// Moves the wheel to <paramref name="nowTick"/>, unlinking into <paramref name="expired"/> every entry whose due
    /// tick is at or before it, and every entry of a visited slot whose target is an <see cref="IRetractableTarget"/>
    /// that no longer needs it (those keep their later due tick, so the caller can tell them apart).
    /// </summary>
    public void Advance(long nowTick, List<TimerEntry> expired)
    {
        if (nowTick <= CurrentTick)
        {
            return;
        }

        if (nowTick >= NextOverflowScan())
        {
            ScanOverflow(nowTick, expired);
        }

        // Entries due in (CurrentTick, nowTick] live in the slots of those ticks; past one revolution that is every slot.
        var steps = nowTick - CurrentTick >= SlotCount ? SlotCount : (int)(nowTick - CurrentTick);
        for (var step = 1; step <= steps && _slotted > 0; step++)
        {
            var slot = (int)((CurrentTick + step) & SlotMask);
            for (var entry = _heads[slot]; entry is not null;)
            {
                var next = entry.Next;
                Debug.Assert(entry.DueTick > CurrentTick, "invariant: every linked entry is due after the current tick");
                if (entry.DueTick <= nowTick || IsRetracted(entry))
                {
                    Remove(entry);
                    expired.Add(entry);
                }

                entry = next;
            }
        }

        CurrentTick = nowTick;
    }

    /// <summary>
    /// The tick of the next non-empty slot after <see cref="CurrentTick"/>, or of the next scan of the overflow list if
    /// that comes first; <see cref="long.MaxValue"/> when the wheel is empty. A lower bound of the next expiry: entries
    /// in that slot may belong to a later revolution.
    /// </summary>
    public long NextOccupiedTick()
    {
        return Math.Min(NextOccupiedSlotTick(), _overflow.IsEmpty ? long.MaxValue : Math.Max(CurrentTick + 1, NextOverflowScan()));
    }

    // When the overflow list must next be scanned: once its earliest entry is within a revolution, or a revolution after
    // the last scan while it holds entries whose target may retract.
    private long NextOverflowScan()
    {
        var next = _overflowEarliest == long.MaxValue ? long.MaxValue : _overflowEarliest - SlotCount;
        return _overflowRetractable > 0 ? Math.Min(next, _lastOverflowScan + SlotCount) : next;
    }

    private static bool IsRetracted(TimerEntry entry) => entry.Target is IRetractableTarget { IsRetracted: true };

    private long NextOccupiedSlotTick()
    {
        if (_slotted == 0)
        {
            return long.MaxValue;
        }

        var start = (int)((CurrentTick + 1) & SlotMask);
        for (var offset = 0; offset < SlotCount;)
        {
            var slot = (start + offset) & SlotMask;
            var word = _occupied[slot >> 6] >> (slot & 63);
            if (word == 0)
            {
                offset += 64 - (slot & 63);
                continue;
            }

            offset += TrailingZeroCount(word);
            if (offset < SlotCount)
            {
                return CurrentTick + 1 + offset;
            }
        }

        return CurrentTick + SlotCount;
    }

    /// <summary>
    /// Moves every overflow entry due within two revolutions of <paramref name="nowTick"/> into its slot (entries of the
    /// second revolution are skipped once there, as before the overflow list existed), and hands a retracted target's
    /// entry to <paramref name="expired"/> with its later due tick (see <see cref="Advance"/>). Runs before the slots are
    /// visited, so an entry already due is found by this same advance.
    /// </summary>
    private void ScanOverflow(long nowTick, List<TimerEntry> expired)
    {
        var earliest = long.MaxValue;
        for (var entry = _overflow.Head; entry is not null;)
        {
            var next = entry.Next;
            if (IsRetracted(entry))
            {
                Remove(entry);
                expired.Add(entry);
            }
            else if (entry.DueTick - nowTick <= 2L * SlotCount)
            {
                RemoveFromOverflow(entry);
                entry.Slot = -1;
                AddToSlot(entry);
            }
            else if (entry.DueTick < earliest)
            {
                earliest = entry.DueTick;
            }

            entry = next;
        }

        _overflowEarliest = earliest;
        _lastOverflowScan = nowTick;
    }

    private void AddToSlot(TimerEntry entry)
    {
        var slot = (int)(entry.DueTick & SlotMask);
        var head = _heads[slot];
        entry.Slot = slot;
        entry.Previous = null;
        entry.Next = head;
        if (head is not null)
        {
            head.Previous = entry;
        }

        _heads[slot] = entry;
        _occupied[slot >> 6] |= 1UL << (slot & 63);
        _slotted++;
    }

    private void RemoveFromSlot(TimerEntry entry)
    {
        var slot = entry.Slot;
        Debug.Assert(slot >= 0 && (entry.Previous is not null || ReferenceEquals(_heads[slot], entry)), "the entry is linked in a slot of this wheel");
        if (entry.Previous is null)
        {
            _heads[slot] = entry.Next;
            if (entry.Next is null)
            {
                _occupied[slot >> 6] &= ~(1UL << (slot & 63));
            }
        }
        else
        {
            entry.Previous.Next = entry.Next;
        }

        if (entry.Next is not null)
        {
            entry.Next.Previous = entry.Previous;
        }

        _slotted--;
    }

    // Appended, so the list keeps the order entries arrived in (memory order for a burst: see the class doc).
    private void AddToOverflow(TimerEntry entry)
    {
        entry.Slot = OverflowSlot;
        _overflow.Append(entry);
        if (entry.Target is IRetractableTarget)
        {
            _overflowRetractable++;
        }

        if (entry.DueTick < _overflowEarliest)
        {
            _overflowEarliest = entry.DueTick;
        }
    }

    private void RemoveFromOverflow(TimerEntry entry)
    {
        _overflow.Remove(entry);
        if (entry.Target is IRetractableTarget)
        {
            _overflowRetractable--;
        }

        if (_overflow.IsEmpty)
        {
            _overflowEarliest = long.MaxValue;
        }
    }

    private static int TrailingZeroCount(ulong value)
    {
#if NET
        return System.Numerics.BitOperations.TrailingZeroCount(value);
#else
        var count = 0;
        while ((value & 1) == 0)
        {
            value >>= 1;
            count++;
        }

        return count;
#endif
    }
}
