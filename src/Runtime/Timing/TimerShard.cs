using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// One stripe of the timer engine: its own lock, its own <see cref="TimingWheel"/> and its own pool of entries.
/// Threads schedule into "their" shard (see <see cref="TimerEngine"/>); cancelling goes to the entry's own shard. No
/// operation takes more than one shard's lock, and none takes a process-wide lock.
/// </summary>
internal sealed class TimerShard
{
    /// <summary>
    /// Free entries kept per shard. Steady-state schedule+cancel reuses them, so it allocates nothing; past this many,
    /// released entries are left to the GC, so a burst of a million timers does not pin a million entries forever.
    /// </summary>
    private const int MaxPooledEntries = 1024;

    /// <summary>
    /// Timeout buckets remembered per shard, indexed by a hash of (epoch, timeout) modulo this size (a power of two).
    /// Callers with the same timeout in the same epoch land on the same slot, so one slot serves them all, and the next
    /// epoch's bucket takes the next slot, so callers that still read the previous epoch find theirs too. Distinct
    /// timeouts whose slots collide replace each other's bucket and allocate one more per epoch. 64 slots cost 512
    /// bytes per shard.
    /// </summary>
    private const int BucketSlots = 64;

    private readonly TimeoutBucket?[] _buckets = new TimeoutBucket?[BucketSlots];

    // The shard's lock: a compare-exchange flag, not a Monitor. It is held for a few dozen instructions (link, unlink,
    // pool), where an uncontended Monitor enter+exit costs twice a compare-exchange (~22 ns against ~11 ns on .NET 10,
    // ~35 ns against ~9 ns on Mono: docs/runtime.md, "Where the time and bytes go"). Contended, it spins, then yields.
    private int _lock;
    private readonly TimingWheel _wheel;

    // Timeout buckets in half ticks (TimerEngine, "Timeout tokens"): linked when sealed, never cancelled.
    private readonly TimingWheel _tokenWheel;

    // Buckets created since the driver last sealed this shard; guarded by _lock.
    private readonly List<TimeoutBucket> _unsealed = new();
    private TimerEntry? _pool;
    private int _pooled;

    // Lifetime counts for the metrics (TimerMetrics): plain increments under _lock, read racily without it.
    private long _scheduled;
    private long _fired;
    private long _cancelled;

    public TimerShard(long currentTick, long currentHalfTick)
    {
        _wheel = new TimingWheel(currentTick);
        _tokenWheel = new TimingWheel(currentHalfTick);
    }

    /// <summary>Entries linked in this shard's wheels, and timeout buckets not sealed yet (racy outside the lock; exact under it).</summary>
    public int PendingCount => _wheel.Count + _tokenWheel.Count + _unsealed.Count;

    /// <summary>Entries linked since creation (racy read).</summary>
    public long ScheduledCount => Volatile.Read(ref _scheduled);

    /// <summary>Entries expired and dispatched since creation (racy read).</summary>
    public long FiredCount => Volatile.Read(ref _fired);

    /// <summary>Entries unlinked before expiry, by a cancel or a retraction, since creation (racy read).</summary>
    public long CancelledCount => Volatile.Read(ref _cancelled);

    /// <summary>Links a new entry for <paramref name="target"/> due at <paramref name="dueTick"/>.</summary>
    public TimerTicket Schedule(ITimerTarget target, long dueTick)
    {
        Enter();
        try
        {
            return ScheduleLocked(_wheel, target, dueTick);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>As <see cref="Schedule(ITimerTarget, long)"/>, writing the ticket to <paramref name="ticket"/> before the lock is released.</summary>
    public void Schedule(ITimerTarget target, long dueTick, ref TimerTicket ticket)
    {
        Enter();
        try
        {
            ticket = ScheduleLocked(_wheel, target, dueTick);
        }
        finally
        {
            Exit();
        }
    }

    // Caller holds _lock.
    private TimerTicket ScheduleLocked(TimingWheel wheel, ITimerTarget target, long dueTick)
    {
        var entry = _pool;
        if (entry is null)
        {
            entry = new TimerEntry(this);
        }
        else
        {
            _pool = entry.Next;
            entry.Next = null;
            _pooled--;
        }

        entry.Target = target;
        entry.DueTick = dueTick;
        wheel.Add(entry);
        _scheduled++;
        return new TimerTicket(entry, entry.Generation);
    }

    /// <summary>The cached bucket of <paramref name="epoch"/> and <paramref name="milliseconds"/>, or null; lock-free (a bucket's key never changes).</summary>
    public TimeoutBucket? FindBucket(long epoch, long milliseconds)
    {
        var bucket = Volatile.Read(ref _buckets[BucketSlot(epoch, milliseconds)]);
        return bucket is not null && bucket.Epoch == epoch && bucket.Milliseconds == milliseconds ? bucket : null;
    }

    /// <summary>
    /// The bucket of <paramref name="epoch"/> and <paramref name="milliseconds"/>, created and left for the driver to
    /// seal if it is not cached yet (<paramref name="created"/>).
    /// </summary>
    public TimeoutBucket AddBucket(long epoch, long milliseconds, out bool created)
    {
        Enter();
        try
        {
            ref var slot = ref _buckets[BucketSlot(epoch, milliseconds)];
            var bucket = slot;
            if (bucket is not null && bucket.Epoch == epoch && bucket.Milliseconds == milliseconds)
            {
                created = false;
                return bucket;
            }

            bucket = new TimeoutBucket(epoch, milliseconds);
            _unsealed.Add(bucket);
            Volatile.Write(ref slot, bucket);
            created = true;
            return bucket;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Schedules every bucket created since the last seal, each due its timeout after <paramref name="sealedAt"/> (a
    /// timestamp read after the epoch its callers read was replaced), rounded up to a half tick of
    /// <paramref name="halfTickUnits"/> clock units.
    /// </summary>
    public void Seal(long sealedAt, long halfTickUnits, TimerEngine engine)
    {
        Enter();
        try
        {
            foreach (var bucket in _unsealed)
            {
                var dueAt = sealedAt + engine.FromMilliseconds(bucket.Milliseconds);
                ScheduleLocked(_tokenWheel, bucket, (dueAt + halfTickUnits - 1) / halfTickUnits);
            }

            _unsealed.Clear();
        }
        finally
        {
            Exit();
        }
    }

    // Fibonacci hashing of the timeout spreads distinct timeouts over the slots; the epoch is added after it, so the
    // buckets of one timeout in consecutive epochs sit in consecutive slots.
    private static int BucketSlot(long epoch, long milliseconds) =>
        (int)(((ulong)milliseconds * 0x9E3779B97F4A7C15UL >> 58) + (ulong)epoch) & (BucketSlots - 1);

    /// <summary>
    /// Unlinks the ticket's entry if it is still pending. Returns false when it already expired or was cancelled: the
    /// shard lock decides the race between cancel and expiry, so exactly one of them wins.
    /// </summary>
    public bool Cancel(TimerTicket ticket)
    {
        var entry = ticket.Entry!;
        Debug.Assert(ReferenceEquals(entry.Shard, this), "a ticket is cancelled on its entry's own shard");
        Enter();
        try
        {
            if (entry.Generation != ticket.Generation || entry.Slot < 0)
            {
                return false;
            }

            _wheel.Remove(entry);
            Release(entry);
            _cancelled++;
            return true;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Advances the wheel to <paramref name="nowTick"/> and the token wheel to <paramref name="nowHalfTick"/>, appends
    /// (target, ticket) of every expired entry and releases the entries; returns the tick of the wheel's next non-empty
    /// slot and, in <paramref name="nextHalfTick"/>, the token wheel's. <paramref name="dueTimes"/>, when given,
    /// receives the due time of each expired entry in clock units (a tick is <paramref name="tickUnits"/>, a half tick
    /// <paramref name="halfTickUnits"/>), for the lateness metric.
    /// </summary>
    public long Advance(long nowTick, long nowHalfTick, List<TimerEntry> scratch, List<KeyValuePair<ITimerTarget, TimerTicket>> expired, out long nextHalfTick, List<long>? dueTimes, long tickUnits, long halfTickUnits)
    {
        Enter();
        try
        {
            Expire(_wheel, nowTick, scratch, expired, dueTimes, tickUnits);
            Expire(_tokenWheel, nowHalfTick, scratch, expired, dueTimes, halfTickUnits);
            nextHalfTick = _tokenWheel.NextOccupiedTick();
            return _wheel.NextOccupiedTick();
        }
        finally
        {
            Exit();
        }
    }

    // Caller holds _lock.
    private void Expire(TimingWheel wheel, long nowTick, List<TimerEntry> scratch, List<KeyValuePair<ITimerTarget, TimerTicket>> expired, List<long>? dueTimes, long unitsPerTick)
    {
        scratch.Clear();
        wheel.Advance(nowTick, scratch);
        foreach (var entry in scratch)
        {
            if (entry.DueTick > nowTick)
            {
                // Retracted (see TimingWheel.Advance): its target is done with it, so nothing is dispatched.
                Release(entry);
                _cancelled++;
                continue;
            }

            expired.Add(new KeyValuePair<ITimerTarget, TimerTicket>(entry.Target!, new TimerTicket(entry, entry.Generation)));
            dueTimes?.Add(entry.DueTick * unitsPerTick);
            Release(entry);
            _fired++;
        }

        scratch.Clear();
    }

    private void Enter() => SpinFlag.Enter(ref _lock);

    private void Exit() => SpinFlag.Exit(ref _lock);

    private void Release(TimerEntry entry)
    {
        Debug.Assert(Volatile.Read(ref _lock) != 0, "entries are released under the shard lock");
        Debug.Assert(entry.Slot < 0 && entry.Previous is null && entry.Next is null, "only an unlinked entry is pooled");
        entry.Generation++;
        entry.Target = null;
        if (_pooled < MaxPooledEntries)
        {
            entry.Next = _pool;
            _pool = entry;
            _pooled++;
        }
    }
}
