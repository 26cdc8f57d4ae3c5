using System.Diagnostics;

namespace CoarseTimers.Timing;

/// <summary>
/// A doubly-linked list of entries through their <see cref="TimerEntry.Previous"/> and <see cref="TimerEntry.Next"/>,
/// oldest first: a shard's unsealed entries and its long delays, a wheel's overflow list. A mutable struct, held in a
/// field of its owner and always used in place (never copied), so it costs what three fields cost; the owner's shard
/// lock guards it. It links and unlinks; what an entry's <see cref="TimerEntry.Slot"/> says is the owner's business.
/// </summary>
internal struct EntryList
{
    public TimerEntry? Head;
    public TimerEntry? Tail;
    public int Count;

    public readonly bool IsEmpty => Head is null;

    /// <summary>Links <paramref name="entry"/> at the end (the order entries arrive in: memory order for a burst).</summary>
    public void Append(TimerEntry entry)
    {
        Debug.Assert(entry.Previous is null && entry.Next is null, "an entry is linked into one list at a time");
        entry.Previous = Tail;
        if (Tail is null)
        {
            Head = entry;
        }
        else
        {
            Tail.Next = entry;
        }

        Tail = entry;
        Count++;
    }

    /// <summary>Unlinks <paramref name="entry"/>, which must be linked in this list, and clears its links.</summary>
    public void Remove(TimerEntry entry)
    {
        Debug.Assert(entry.Previous is not null || ReferenceEquals(Head, entry), "the entry is linked in this list");
        if (entry.Previous is null)
        {
            Head = entry.Next;
        }
        else
        {
            entry.Previous.Next = entry.Next;
        }

        if (entry.Next is null)
        {
            Tail = entry.Previous;
        }
        else
        {
            entry.Next.Previous = entry.Previous;
        }

        entry.Previous = null;
        entry.Next = null;
        Count--;
    }

    /// <summary>Forgets every entry at once (the caller has unlinked or re-linked each of them itself).</summary>
    public void Clear()
    {
        Head = null;
        Tail = null;
        Count = 0;
    }
}
