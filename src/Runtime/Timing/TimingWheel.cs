using System.Collections.Generic;
using System.Diagnostics;

namespace CoarseTimers.Timing;

/// <summary>
/// A hashed timing wheel: <see cref="SlotCount"/> slots, each a doubly-linked list of entries whose due tick maps to
/// it (<c>dueTick % SlotCount</c>). An entry due more than one revolution ahead sits in its slot with a due tick that
/// is simply larger: each visit of the slot skips it until its revolution comes (Netty's "remaining rounds", kept as
/// an absolute tick). A bitmap of non-empty slots lets the driver find the next slot worth waking for without walking
/// the slots.
/// Cost: schedule and cancel O(1); advancing visits each elapsed slot once (at most one revolution per advance) and
/// every entry in it. Not thread-safe: <see cref="TimerShard"/> holds its lock around every call.
/// </summary>
internal sealed class TimingWheel
{
    /// <summary>
    /// Slots per wheel. 1,024 slots of the default 5 ms tick (half the 10 ms resolution: TimerEngine) is a 5.12 s
    /// revolution: the common 1–5 s timeouts are found in one visit, and a 30 s timeout is skipped about 6 times before
    /// it fires or, far more often, is cancelled. 8 KB of slot heads per shard.
    /// </summary>
    public const int SlotCount = 1024;
    private const int SlotMask = SlotCount - 1;

    private readonly TimerEntry?[] _heads = new TimerEntry?[SlotCount];
    private readonly ulong[] _occupied = new ulong[SlotCount / 64];

    public TimingWheel(long currentTick) => CurrentTick = currentTick;

    /// <summary>The last tick whose slot has been processed. Invariant: every linked entry has DueTick &gt; CurrentTick.</summary>
    public long CurrentTick { get; private set; }

    public int Count { get; private set; }

    /// <summary>Links <paramref name="entry"/>; a due tick already passed is moved to the next tick (fires at once).</summary>
    public void Add(TimerEntry entry)
    {
        Debug.Assert(entry.Slot < 0 && entry.Previous is null, "an entry is linked into one slot at a time");
        if (entry.DueTick <= CurrentTick)
        {
            entry.DueTick = CurrentTick + 1;
        }

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
        Count++;
        Debug.Assert(entry.DueTick > CurrentTick, "invariant: every linked entry is due after the current tick");
    }

    /// <summary>Unlinks <paramref name="entry"/>, which must be linked in this wheel.</summary>
    public void Remove(TimerEntry entry)
    {
        var slot = entry.Slot;
        Debug.Assert(slot >= 0 && (entry.Previous is not null || ReferenceEquals(_heads[slot], entry)), "the entry is linked in this wheel");
        Debug.Assert(Count > 0, "removing from an empty wheel");
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

        // Entries due in (CurrentTick, nowTick] live in the slots of those ticks; past one revolution that is every slot.
        var steps = nowTick - CurrentTick >= SlotCount ? SlotCount : (int)(nowTick - CurrentTick);
        for (var step = 1; step <= steps && Count > 0; step++)
        {
            var slot = (int)((CurrentTick + step) & SlotMask);
            for (var entry = _heads[slot]; entry is not null;)
            {
                var next = entry.Next;
                Debug.Assert(entry.DueTick > CurrentTick, "invariant: every linked entry is due after the current tick");
                if (entry.DueTick <= nowTick || entry.Target is IRetractableTarget { IsRetracted: true })
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
    /// The tick of the next non-empty slot after <see cref="CurrentTick"/>, or <see cref="long.MaxValue"/> when the
    /// wheel is empty. A lower bound of the next expiry: entries in that slot may belong to a later revolution.
    /// </summary>
    public long NextOccupiedTick()
    {
        if (Count == 0)
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
