using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// One stripe of the timer engine: its own lock, its own <see cref="TimingWheel"/>, its own list of entries waiting to
/// be sealed and its own pool of entries. Threads schedule into "their" shard (see <see cref="TimerEngine"/>);
/// cancelling goes to the entry's own shard. No operation takes more than one shard's lock, and none takes a
/// process-wide lock.
/// </summary>
/// <remarks>
/// An entry scheduled by a delay (<see cref="ScheduleDeferred(ITimerTarget, long)"/>) is <em>unsealed</em>: it waits in
/// a doubly-linked list with its delay, reading no clock, until the driver seals the shard (<see cref="Seal"/>: due its
/// delay after a clock reading taken under this lock, so after the entry was linked; TimerEngine, "Sealing"). A delay
/// longer than a wheel revolution waits in a second list instead, which a seal does not walk: it only records its
/// reading for them, and they are placed into the wheel half a revolution later (the fields under "Long delays"). An
/// entry scheduled at a time (<see cref="Schedule(ITimerTarget, long)"/>: periodic timers) goes into the wheel at once.
/// </remarks>
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

    // TimerEntry.Slot of an entry in the unsealed list (-1: not linked anywhere; 0 and up: a wheel slot;
    // TimingWheel.OverflowSlot: the wheel's overflow list; LongUnsealedSlot: the list of long delays, below).
    private const int UnsealedSlot = -2;
    private const int LongUnsealedSlot = -4;

    /// <summary>
    /// Seal readings remembered per shard for long delays (a power of two). An entry in the long list refers to its seal
    /// by number until it is placed; the list is placed half a revolution (512 ticks) after its oldest reading at the
    /// latest, and a shard seals at most once per tick, so 1,024 readings are never overwritten while still referred to.
    /// 8 KB per shard.
    /// </summary>
    private const int SealReadings = 1024;

    private readonly TimeoutBucket?[] _buckets = new TimeoutBucket?[BucketSlots];

    // The shard's lock: a compare-exchange flag, not a Monitor. It is held for a few dozen instructions (link, unlink,
    // pool), where an uncontended Monitor enter+exit costs twice a compare-exchange (~22 ns against ~11 ns on .NET 10,
    // ~35 ns against ~9 ns on Mono: docs/runtime.md, "Where the time and bytes go"). Contended, it spins, then yields.
    private int _lock;
    private readonly TimingWheel _wheel;

    // Entries scheduled by a delay since the last seal, oldest first (sealed in that order, so a wheel slot holds them as
    // if they had been scheduled there directly); their DueTick holds the delay in milliseconds.
    private EntryList _unsealed;
    private PooledEntry? _pool;
    private int _pooled;

    // Long delays (more than a wheel revolution: most timeouts, 30 s against 5.12 s) are sealed without being touched:
    // linked here with their delay and the number of the seal that covers them (DueTick: seal number in the high 32
    // bits, milliseconds in the low 32), the seal only records its clock reading under that number, and the list is
    // placed into the wheel (due its delay after its seal's reading) half a revolution after its oldest reading. A
    // timeout cancelled before that, as most are, is never touched by the driver at all. Null engine: no long list.
    private readonly TimerEngine? _engine;
    private readonly long _tickUnits;
    private readonly long _longDelayMilliseconds = long.MaxValue;
    private readonly long _placeAfterUnits;
    private readonly long[]? _sealReadings;
    private EntryList _long;
    private int _sealNumber;
    private bool _longAwaitsSeal;
    private int _oldestUnplacedSeal;
    private long _placeLongAt = long.MaxValue;

    // Lifetime counts for the metrics (TimerMetrics): plain increments under _lock, read racily without it.
    private long _scheduled;
    private long _fired;
    private long _cancelled;

    /// <summary>A shard without a long list (tests of the wheel alone).</summary>
    public TimerShard(long currentTick)
        : this(currentTick, engine: null, tickUnits: 1)
    {
    }

    /// <summary>A shard of <paramref name="engine"/>, whose wheel ticks every <paramref name="tickUnits"/> clock units.</summary>
    public TimerShard(long currentTick, TimerEngine? engine, long tickUnits)
    {
        _wheel = new TimingWheel(currentTick);
        _engine = engine;
        _tickUnits = tickUnits;
        if (engine is not null)
        {
            var revolutionUnits = tickUnits * TimingWheel.SlotCount;
            _longDelayMilliseconds = engine.Clock.ToMillisecondsCeiling(revolutionUnits);
            _placeAfterUnits = revolutionUnits / 2;
            _sealReadings = new long[SealReadings];
        }
    }

    /// <summary>The engine this shard belongs to; null for a shard made alone (tests of the wheel).</summary>
    public TimerEngine? Engine => _engine;

    /// <summary>Entries linked in the wheel or waiting to be sealed (a racy read outside the lock; exact under it).</summary>
    public int PendingCount => _wheel.Count + _unsealed.Count + _long.Count;

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
            return ScheduleLocked(target, dueTick);
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
            ticket = ScheduleLocked(target, dueTick);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>Links a new unsealed entry for <paramref name="target"/>, due <paramref name="milliseconds"/> after its seal.</summary>
    public TimerTicket ScheduleDeferred(ITimerTarget target, long milliseconds)
    {
        Enter();
        try
        {
            return ScheduleDeferredLocked(target, milliseconds);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// As <see cref="ScheduleDeferred(ITimerTarget, long)"/>, writing the ticket to <paramref name="ticket"/> before the
    /// lock is released (so before the entry can be sealed, let alone expire).
    /// </summary>
    public void ScheduleDeferred(ITimerTarget target, long milliseconds, ref TimerTicket ticket)
    {
        Enter();
        try
        {
            ticket = ScheduleDeferredLocked(target, milliseconds);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Links <paramref name="entry"/>, an entry of this shard that is its own target (a one-shot <see cref="CoarseTimer"/>)
    /// and is not linked, as <see cref="ScheduleDeferred(ITimerTarget, long)"/> links a rented one; writes the generation
    /// that identifies this expiry to <paramref name="generation"/> before the lock is released, so before it can expire.
    /// </summary>
    public void ScheduleDeferred(TimerEntry entry, long milliseconds, ref int generation)
    {
        Debug.Assert(ReferenceEquals(entry.Shard, this) && entry is not PooledEntry, "only an entry that is its own target is linked by itself");
        Enter();
        try
        {
            Debug.Assert(entry.Slot == -1, "an entry is linked once at a time");
            _scheduled++;
            LinkDeferred(entry, milliseconds);
            generation = entry.Generation;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>The cached bucket of <paramref name="epoch"/> and <paramref name="milliseconds"/>, or null; lock-free (a bucket's key never changes).</summary>
    public TimeoutBucket? FindBucket(long epoch, long milliseconds)
    {
        var bucket = Volatile.Read(ref _buckets[BucketSlot(epoch, milliseconds)]);
        return bucket is not null && bucket.Epoch == epoch && bucket.Milliseconds == milliseconds ? bucket : null;
    }

    /// <summary>
    /// The bucket of <paramref name="epoch"/> and <paramref name="milliseconds"/>, created, cached and scheduled
    /// unsealed if it is not cached yet (<paramref name="created"/>).
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

            bucket = new TimeoutBucket(Engine!, epoch, milliseconds);

            // Always unsealed, whatever the timeout: Seal decides by the bucket's epoch which reading may seal it, and
            // the long-delay list (sealed by the reading under its seal number) cannot tell (few buckets exist anyway).
            ScheduleUnsealedLocked(bucket, milliseconds);
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
    /// Moves every unsealed entry into the wheel, due its delay after a clock reading taken now, under the lock (so after
    /// every entry it moves was linked), rounded up to a tick of <paramref name="tickUnits"/> clock units. A retracted
    /// target's entry is released instead. The timeout bucket of an epoch not older than <paramref name="epoch"/> (the
    /// one the driver published just before this seal) stays unsealed for the next seal: its callers may read that epoch
    /// until the next is published, after this reading, and a caller after it would be early (TimerEngine, "Timeout
    /// tokens"). Returns whether any entry stays unsealed so (the driver must seal again).
    /// </summary>
    public bool Seal(TimerEngine engine, long tickUnits, long epoch)
    {
        Enter();
        try
        {
            if (_unsealed.IsEmpty && !_longAwaitsSeal)
            {
                return false;
            }

            var sealedAt = engine.Now();
            var stay = default(EntryList);
            for (var entry = _unsealed.Head; entry is not null;)
            {
                var next = entry.Next;
                var milliseconds = entry.DueTick;
                entry.Previous = null;
                entry.Next = null;
                if (entry.Target is TimeoutBucket bucket && bucket.Epoch >= epoch)
                {
                    stay.Append(entry);
                    entry = next;
                    continue;
                }

                entry.Slot = -1;
                if (entry.Target is IRetractableTarget { IsRetracted: true })
                {
                    Release(entry);
                    _cancelled++;
                }
                else
                {
                    entry.DueTick = (sealedAt + engine.FromMilliseconds(milliseconds) + tickUnits - 1) / tickUnits;
                    _wheel.Add(entry);
                }

                entry = next;
            }

            _unsealed = stay;

            if (_longAwaitsSeal)
            {
                // The long entries linked since the last reading are sealed by this one: record it under their number.
                if (_placeLongAt == long.MaxValue)
                {
                    _oldestUnplacedSeal = _sealNumber;
                    _placeLongAt = sealedAt + _placeAfterUnits;
                }

                _sealReadings![_sealNumber & (SealReadings - 1)] = sealedAt;
                _sealNumber++;
                _longAwaitsSeal = false;
                if (_sealNumber - _oldestUnplacedSeal >= SealReadings / 2)
                {
                    // Seals came faster than the half revolution placement waits for (a long delay every tick gets here about a tick
                    // early; faster seals, sooner): place now, so every reading referred to is still in the ring.
                    PlaceLong();
                }
            }

            return !_unsealed.IsEmpty;
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Unlinks the ticket's entry if it is still pending (sealed or not). Returns false when it already expired or was
    /// cancelled: the shard lock decides the race between cancel and expiry, so exactly one of them wins.
    /// </summary>
    public bool Cancel(TimerTicket ticket) => Cancel(ticket.Entry!, ticket.Generation);

    /// <summary>As <see cref="Cancel(TimerTicket)"/>, for the expiry of <paramref name="entry"/> numbered <paramref name="generation"/>.</summary>
    public bool Cancel(TimerEntry entry, int generation)
    {
        Enter();
        try
        {
            return CancelLocked(entry, generation);
        }
        finally
        {
            Exit();
        }
    }

    /// <summary>
    /// Takes the shard's lock for a target that keeps the state of its expiry under it instead of a lock of its own
    /// (<see cref="CoarseCancellationTokenSource"/>: its ticket and disposed flag), so that re-arming or disposing it
    /// takes one lock, not two. Pair with <see cref="ExitLock"/>; take nothing else while it is held.
    /// </summary>
    public void EnterLock() => Enter();

    /// <summary>Releases the lock taken by <see cref="EnterLock"/>.</summary>
    public void ExitLock() => Exit();

    /// <summary>
    /// Caller holds the lock (<see cref="EnterLock"/>). Replaces the expiry <paramref name="ticket"/> names (none, or one
    /// scheduled on this shard) by a new one due <paramref name="milliseconds"/> after its seal, or by none for
    /// <see cref="Timeout.Infinite"/>. The caller then tells the engine an entry awaits sealing
    /// (<see cref="TimerEngine.NoteUnsealed"/>) once the lock is released.
    /// </summary>
    public void RearmLocked(ITimerTarget target, ref TimerTicket ticket, long milliseconds)
    {
        CancelLocked(ticket);
        ticket = milliseconds == Timeout.Infinite ? default : ScheduleDeferredLocked(target, milliseconds);
    }

    /// <summary>
    /// Caller holds the lock (<see cref="EnterLock"/>). Unlinks the expiry <paramref name="ticket"/> names (none, or one
    /// scheduled on this shard) if it is still pending; returns false when there was none or it already expired.
    /// </summary>
    public bool CancelLocked(TimerTicket ticket) => !ticket.IsNone && CancelLocked(ticket.Entry!, ticket.Generation);

    // Caller holds _lock.
    private bool CancelLocked(TimerEntry entry, int generation)
    {
        Debug.Assert(ReferenceEquals(entry.Shard, this), "a ticket is cancelled on its entry's own shard");
        if (entry.Generation != generation || entry.Slot == -1)
        {
            return false;
        }

        if (entry.Slot == UnsealedSlot)
        {
            UnlinkUnsealed(entry);
        }
        else if (entry.Slot == LongUnsealedSlot)
        {
            UnlinkLong(entry);
        }
        else
        {
            _wheel.Remove(entry);
        }

        Release(entry);
        _cancelled++;
        return true;
    }

    /// <summary>
    /// Advances the wheel to <paramref name="nowTick"/>, appends (target, ticket) of every expired entry and releases
    /// the entries; returns the tick of the next non-empty slot. <paramref name="dueTicks"/>, when given, receives the
    /// due tick of each expired entry (for the lateness metric).
    /// </summary>
    public long Advance(long nowTick, List<TimerEntry> scratch, List<KeyValuePair<ITimerTarget, TimerTicket>> expired, List<long>? dueTicks = null)
    {
        Enter();
        try
        {
            scratch.Clear();
            if (_placeLongAt != long.MaxValue && nowTick * _tickUnits >= _placeLongAt)
            {
                PlaceLong();
            }

            _wheel.Advance(nowTick, scratch);
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
                dueTicks?.Add(entry.DueTick);
                Release(entry);
                _fired++;
            }

            scratch.Clear();
            var next = _wheel.NextOccupiedTick();
            return _placeLongAt == long.MaxValue ? next : System.Math.Min(next, (_placeLongAt + _tickUnits - 1) / _tickUnits);
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

    // Caller holds _lock.
    private TimerTicket ScheduleLocked(ITimerTarget target, long dueTick)
    {
        var entry = Rent(target);
        entry.DueTick = dueTick;
        _wheel.Add(entry);
        return new TimerTicket(entry, entry.Generation);
    }

    // Caller holds _lock.
    private TimerTicket ScheduleDeferredLocked(ITimerTarget target, long milliseconds)
    {
        var entry = Rent(target);
        LinkDeferred(entry, milliseconds);
        return new TimerTicket(entry, entry.Generation);
    }

    // Caller holds _lock.
    private TimerTicket ScheduleUnsealedLocked(ITimerTarget target, long milliseconds)
    {
        var entry = Rent(target);
        LinkUnsealed(entry, milliseconds);
        return new TimerTicket(entry, entry.Generation);
    }

    // Caller holds _lock.
    private void LinkDeferred(TimerEntry entry, long milliseconds)
    {
        if (milliseconds > _longDelayMilliseconds)
        {
            LinkLong(entry, milliseconds);
        }
        else
        {
            LinkUnsealed(entry, milliseconds);
        }
    }

    // Caller holds _lock. Links an entry into the unsealed list with its delay, for the next seal to place.
    private void LinkUnsealed(TimerEntry entry, long milliseconds)
    {
        entry.DueTick = milliseconds;
        entry.Slot = UnsealedSlot;
        _unsealed.Append(entry);
    }

    // Caller holds _lock. Links a long delay at the end of the long list, sealed by the next seal (class comment above
    // the fields: "Long delays").
    private void LinkLong(TimerEntry entry, long milliseconds)
    {
        entry.DueTick = ((long)_sealNumber << 32) | milliseconds;
        entry.Slot = LongUnsealedSlot;
        _long.Append(entry);
        _longAwaitsSeal = true;
    }

    // Caller holds _lock. Moves every long entry whose seal has a reading into the wheel, due its delay after that
    // reading (never early: the reading was taken under this lock after the entry was linked), rounded up to a tick; a
    // retracted target's entry is released. Entries linked since the last reading wait for the next seal.
    private void PlaceLong()
    {
        for (var entry = _long.Head; entry is not null;)
        {
            var next = entry.Next;
            var seal = (int)(entry.DueTick >> 32);
            if (seal != _sealNumber)
            {
                var milliseconds = entry.DueTick & uint.MaxValue;
                UnlinkLong(entry);
                if (entry.Target is IRetractableTarget { IsRetracted: true })
                {
                    Release(entry);
                    _cancelled++;
                }
                else
                {
                    var sealedAt = _sealReadings![seal & (SealReadings - 1)];
                    entry.DueTick = (sealedAt + _engine!.FromMilliseconds(milliseconds) + _tickUnits - 1) / _tickUnits;
                    _wheel.Add(entry);
                }
            }

            entry = next;
        }

        _placeLongAt = long.MaxValue;
        _oldestUnplacedSeal = _sealNumber;
    }

    // Caller holds _lock.
    private void UnlinkLong(TimerEntry entry)
    {
        _long.Remove(entry);
        entry.Slot = -1;
    }

    // Caller holds _lock: a free entry for target, counted as scheduled.
    private PooledEntry Rent(ITimerTarget target)
    {
        var entry = _pool;
        if (entry is null)
        {
            entry = new PooledEntry(this);
        }
        else
        {
            _pool = (PooledEntry?)entry.Next;
            entry.Next = null;
            _pooled--;
        }

        entry.AssignedTarget = target;
        _scheduled++;
        return entry;
    }

    // Caller holds _lock.
    private void UnlinkUnsealed(TimerEntry entry)
    {
        _unsealed.Remove(entry);
        entry.Slot = -1;
    }

    private void Enter() => SpinFlag.Enter(ref _lock);

    private void Exit() => SpinFlag.Exit(ref _lock);

    private void Release(TimerEntry entry)
    {
        Debug.Assert(Volatile.Read(ref _lock) != 0, "entries are released under the shard lock");
        Debug.Assert(entry.Slot == -1 && entry.Previous is null && entry.Next is null, "only an unlinked entry is released");
        entry.Generation++;
        if (entry is PooledEntry pooled)
        {
            pooled.AssignedTarget = null;
            if (_pooled < MaxPooledEntries)
            {
                pooled.Next = _pool;
                _pool = pooled;
                _pooled++;
            }
        }
    }
}
