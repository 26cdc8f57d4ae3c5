using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// A <see cref="CancellationTokenSource"/> whose timeout runs on the coarse-timer engine. Replacement for
/// <c>new CancellationTokenSource(TimeSpan|int)</c>, <c>CancelAfter</c>, and
/// <c>CancellationTokenSource.CreateLinkedTokenSource(...)</c> followed by <c>CancelAfter</c>: same argument checks,
/// same semantics (a second <see cref="CancelAfter(TimeSpan)"/> restarts the countdown; <c>CancelAfter</c> on a
/// cancelled source does nothing; on a disposed one it throws <see cref="ObjectDisposedException"/>), but the timeout
/// may fire later than asked, by at most the engine's resolution, never earlier.
/// </summary>
/// <remarks>
/// Disposing the source removes its pending timeout from the wheel at once. Cancelling it early (<c>Cancel()</c>, which
/// is not virtual) leaves the entry until the driver next visits its slot, at most one wheel revolution (5.12 s at the
/// default resolution), never until the timeout: the source has no registration on its own token, which would cost a
/// callback node per source (docs/runtime.md, "Where the time and bytes go").
/// <para>
/// <b>Call <c>CancelAfter</c> and <c>TryReset</c> through a <see cref="CoarseCancellationTokenSource"/>-typed
/// reference.</b> The base methods are not virtual, so these hide them: a call made through a
/// <see cref="CancellationTokenSource"/>-typed reference (a field, parameter, pool or explicitly typed local) binds to
/// the BCL's method, and this class cannot see it. Such a <c>CancelAfter</c> arms a BCL timer while any coarse timeout
/// stays armed, so the source cancels at whichever comes first (possibly earlier than the later call asked); such a
/// <c>TryReset</c> clears the BCL's state but leaves the coarse timeout armed. The code fix therefore never rewrites a
/// source that can reach a <see cref="CancellationTokenSource"/>-typed location: it writes
/// <see cref="CoarseCancellationTokenSource"/> or <c>var</c>, so every call it leaves binds to these methods
/// (docs/runtime.md, "No silent BCL fallback").
/// </para>
/// </remarks>
public class CoarseCancellationTokenSource : CancellationTokenSource, ITimerTarget, IRetractableTarget
{
    // The shard every expiry of this source is scheduled on: the one of the thread that created it. Its lock also guards
    // the two fields below, so re-arming or disposing takes one lock (no flag or lock object of the source's own; the
    // only contention is an expiry, a CancelAfter and a Dispose racing, which is rare and short).
    private readonly TimerShard _shard;
    private TimerTicket _ticket;
    private bool _disposed;

    // Written once, before the source is returned.
    private CancellationTokenRegistration _link;
    private CancellationTokenRegistration[]? _links;

    /// <summary>Creates a source with no timeout.</summary>
    public CoarseCancellationTokenSource()
        : this(TimerEngine.Default)
    {
    }

    /// <summary>Creates a source that cancels itself after <paramref name="delay"/> (as <see cref="CancellationTokenSource(TimeSpan)"/>).</summary>
    public CoarseCancellationTokenSource(TimeSpan delay)
        : this(TimerEngine.Default, TimeoutArguments.CheckTimeout(delay, nameof(delay)))
    {
    }

    /// <summary>Creates a source that cancels itself after <paramref name="millisecondsDelay"/> (as <see cref="CancellationTokenSource(int)"/>).</summary>
    public CoarseCancellationTokenSource(int millisecondsDelay)
        : this(TimerEngine.Default, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)))
    {
    }

    internal CoarseCancellationTokenSource(TimerEngine engine, long millisecondsDelay = Timeout.Infinite)
    {
        _shard = engine.CurrentShard;
        if (millisecondsDelay == 0 && ZeroTimeout.CancelsAtOnce)
        {
            // As the BCL on .NET (Core): a zero timeout creates the source already cancelled.
            Cancel();
        }
        else if (millisecondsDelay != Timeout.Infinite)
        {
            // The shard stores the ticket under its lock, before the expiry can be dispatched. A zero timeout gets here
            // where the runtime's own source starts a 0 ms timer (.NET Framework, Mono): the shortest one.
            engine.Schedule(_shard, this, millisecondsDelay == 0 ? ZeroTimeout.ShortestMilliseconds : millisecondsDelay, ref _ticket);
        }
    }

    /// <summary>Schedules cancellation after <paramref name="delay"/>, replacing any earlier schedule (as <see cref="CancellationTokenSource.CancelAfter(TimeSpan)"/>).</summary>
    public new void CancelAfter(TimeSpan delay) => CancelAfterCore(TimeoutArguments.CheckTimeout(delay, nameof(delay)));

    /// <summary>Schedules cancellation after <paramref name="millisecondsDelay"/>, replacing any earlier schedule (as <see cref="CancellationTokenSource.CancelAfter(int)"/>).</summary>
    public new void CancelAfter(int millisecondsDelay)
    {
        // .NET Framework and Mono check for disposal first, .NET Core the argument first (a racy read, as theirs).
        if (RuntimeTimer.HasReferenceSourceTimers && Volatile.Read(ref _disposed))
        {
            ThrowDisposed();
        }

        CancelAfterCore(TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));
    }

#if NET
    /// <summary>
    /// As <see cref="CancellationTokenSource.TryReset"/>: if the source was not cancelled and its timeout is not already
    /// firing, clears the pending timeout (the coarse one too) and every registration, so it can be reused. Throws
    /// <see cref="ObjectDisposedException"/> once disposed.
    /// </summary>
    public new bool TryReset()
    {
        _shard.EnterLock();
        try
        {
            ThrowIfDisposed();

            // An expiry already taken off the wheel is about to cancel the source: as the BCL's TryReset once its
            // timer has fired, the reset fails rather than let the source be cancelled after reporting success.
            if (IsCancellationRequested || (!_ticket.IsNone && !_shard.CancelLocked(_ticket)))
            {
                return false;
            }

            _ticket = default;
        }
        finally
        {
            _shard.ExitLock();
        }

        // Outside the shard's lock, as the BCL's TryReset clears its registrations without one.
        return base.TryReset();
    }
#endif

    // The single-token overload exists on CancellationTokenSource only since .NET Core 3.0: on netstandard2.0 nothing is hidden.
#pragma warning disable CS0109
    /// <summary>Creates a source cancelled when <paramref name="token"/> is (as <c>CancellationTokenSource.CreateLinkedTokenSource(CancellationToken)</c>).</summary>
    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(CancellationToken token) => Link(new CoarseCancellationTokenSource(), token);
#pragma warning restore CS0109

    /// <summary>Creates a source cancelled when either token is (as <see cref="CancellationTokenSource.CreateLinkedTokenSource(CancellationToken, CancellationToken)"/>).</summary>
    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(CancellationToken token1, CancellationToken token2) => CreateLinked(new[] { token1, token2 });

    /// <summary>Creates a source cancelled when any of <paramref name="tokens"/> is (as <see cref="CancellationTokenSource.CreateLinkedTokenSource(CancellationToken[])"/>).</summary>
    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(params CancellationToken[] tokens)
    {
        if (tokens is null)
        {
            throw new ArgumentNullException(nameof(tokens));
        }

        if (tokens.Length == 0)
        {
            throw new ArgumentException("No tokens were supplied.");
        }

        return CreateLinked((CancellationToken[])tokens.Clone());
    }

    /// <summary>Linked sources over an explicit engine (tests).</summary>
    internal static CoarseCancellationTokenSource CreateLinked(TimerEngine engine, params CancellationToken[] tokens) => Link(new CoarseCancellationTokenSource(engine), tokens);

    bool IRetractableTarget.IsRetracted => IsCancellationRequested;

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        bool current;
        _shard.EnterLock();
        try
        {
            // _ticket stays set when current: its entry is released, so TryReset's cancel of it fails and TryReset
            // reports the source as firing until Cancel below has run.
            current = !_disposed && ticket.Equals(_ticket);
        }
        finally
        {
            _shard.ExitLock();
        }

        if (!current)
        {
            return;
        }

        // As the BCL's timer callback: cancel, unless disposed meanwhile. Exceptions from token callbacks surface as
        // unhandled on the thread pool, as they do on the BCL timer thread.
        try
        {
            Cancel();
        }
        catch (ObjectDisposedException)
        {
        }
    }

    /// <summary>Removes the pending timeout and the link registrations, then disposes the source.</summary>
    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            bool first;
            _shard.EnterLock();
            try
            {
                first = !_disposed;
                _disposed = true;
                _shard.CancelLocked(_ticket);
                _ticket = default;
            }
            finally
            {
                _shard.ExitLock();
            }

            if (first)
            {
                _link.Dispose();
                if (_links is not null)
                {
                    foreach (var registration in _links)
                    {
                        registration.Dispose();
                    }
                }
            }
        }

        base.Dispose(disposing);
    }

    private static CoarseCancellationTokenSource CreateLinked(CancellationToken[] tokens) => Link(new CoarseCancellationTokenSource(), tokens);

    // One token: one registration field, no array.
    private static CoarseCancellationTokenSource Link(CoarseCancellationTokenSource source, CancellationToken token)
    {
        if (token.CanBeCanceled)
        {
            // An already-cancelled token runs this inline: the new source starts cancelled, as with the BCL.
            source._link = RegisterLink(token, source);
        }

        return source;
    }

    private static CoarseCancellationTokenSource Link(CoarseCancellationTokenSource source, CancellationToken[] tokens)
    {
        var registrations = new CancellationTokenRegistration[tokens.Length];
        source._links = registrations;
        for (var i = 0; i < tokens.Length; i++)
        {
            if (tokens[i].CanBeCanceled)
            {
                // An already-cancelled token runs this inline: the new source starts cancelled, as with the BCL.
                registrations[i] = RegisterLink(tokens[i], source);
            }
        }

        return source;
    }

    // The link cancels the source and nothing else, so it needs no ExecutionContext: the callbacks registered on the
    // source run in their own. The BCL's linked sources register theirs without one too.
    private static CancellationTokenRegistration RegisterLink(CancellationToken token, CoarseCancellationTokenSource source) =>
        ContextFreeRegistration.Register(token, static state => ((CoarseCancellationTokenSource)state!).CancelFromLink(), source);

    private void CancelFromLink()
    {
        try
        {
            Cancel();
        }
        catch (ObjectDisposedException)
        {
        }
    }

    internal void CancelAfterCore(long milliseconds)
    {
        _shard.EnterLock();
        try
        {
            ThrowIfDisposed();
            if (IsCancellationRequested)
            {
                return;
            }

            _shard.RearmLocked(this, ref _ticket, milliseconds);
        }
        finally
        {
            _shard.ExitLock();
        }

        if (milliseconds != Timeout.Infinite)
        {
            _shard.Engine!.NoteUnsealed();
        }
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowDisposed();
        }
    }

    private static void ThrowDisposed() => throw new ObjectDisposedException(null, "The CancellationTokenSource has been disposed.");
}
