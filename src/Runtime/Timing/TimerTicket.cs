using System;
using System.Diagnostics;

namespace CoarseTimers.Timing;

/// <summary>
/// A handle on one scheduled expiry: the pooled entry plus the generation it had when scheduled. Entries are reused,
/// so the generation is what keeps a stale handle from cancelling somebody else's timer (the ABA problem).
/// </summary>
internal readonly struct TimerTicket : IEquatable<TimerTicket>
{
    public TimerTicket(TimerEntry entry, int generation)
    {
        Debug.Assert(entry is not null && entry.Generation == generation, "a ticket is issued for the entry's current generation");
        Entry = entry;
        Generation = generation;
    }

    public TimerEntry? Entry { get; }

    public int Generation { get; }

    public bool IsNone => Entry is null;

    public bool Equals(TimerTicket other) => ReferenceEquals(Entry, other.Entry) && Generation == other.Generation;

    public override bool Equals(object? obj) => obj is TimerTicket other && Equals(other);

    public override int GetHashCode() => Entry is null ? 0 : Entry.GetHashCode() ^ Generation;
}
