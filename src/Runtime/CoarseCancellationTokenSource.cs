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
/// <para>
/// Disposing the source, or cancelling it early, removes its pending timeout from the wheel at once, so nothing keeps
/// the source alive until its timeout would have expired.
/// </para>
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
public class CoarseCancellationTokenSource : CancellationTokenSource, ITimerTarget
{
    private readonly TimerEngine _engine;
    private readonly object _gate = new();

    // Guarded by _gate.
    private TimerTicket _ticket;
    private bool _disposed;
    private CancellationTokenRegistration _selfRegistration;
    private CancellationTokenRegistration[]? _linkedRegistrations;

    /// <summary>Creates a source with no timeout.</summary>
    public CoarseCancellationTokenSource()
        : this(TimerEngine.Default)
    {
    }

    /// <summary>Creates a source that cancels itself after <paramref name="delay"/> (as <see cref="CancellationTokenSource(TimeSpan)"/>).</summary>
    public CoarseCancellationTokenSource(TimeSpan delay)
        : this(TimerEngine.Default, TimeoutArguments.CheckDelay(delay, nameof(delay)))
    {
    }

    /// <summary>Creates a source that cancels itself after <paramref name="millisecondsDelay"/> (as <see cref="CancellationTokenSource(int)"/>).</summary>
    public CoarseCancellationTokenSource(int millisecondsDelay)
        : this(TimerEngine.Default, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)))
    {
    }

    internal CoarseCancellationTokenSource(TimerEngine engine, long millisecondsDelay = Timeout.Infinite)
    {
        _engine = engine;
        if (millisecondsDelay == 0)
        {
            // As the BCL: a zero timeout creates the source already cancelled.
            Cancel();
        }
        else if (millisecondsDelay != Timeout.Infinite)
        {
            CancelAfterCore(millisecondsDelay);
        }
    }

    /// <summary>Schedules cancellation after <paramref name="delay"/>, replacing any earlier schedule (as <see cref="CancellationTokenSource.CancelAfter(TimeSpan)"/>).</summary>
    public new void CancelAfter(TimeSpan delay) => CancelAfterCore(TimeoutArguments.CheckDelay(delay, nameof(delay)));

    /// <summary>Schedules cancellation after <paramref name="millisecondsDelay"/>, replacing any earlier schedule (as <see cref="CancellationTokenSource.CancelAfter(int)"/>).</summary>
    public new void CancelAfter(int millisecondsDelay) => CancelAfterCore(TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

#if NET
    /// <summary>
    /// As <see cref="CancellationTokenSource.TryReset"/>: if the source was not cancelled and its timeout is not already
    /// firing, clears the pending timeout (the coarse one too) and every registration, so it can be reused. Throws
    /// <see cref="ObjectDisposedException"/> once disposed.
    /// </summary>
    public new bool TryReset()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                throw new ObjectDisposedException(null, "The CancellationTokenSource has been disposed.");
            }

            // An expiry already taken off the wheel is about to cancel the source: as the BCL's TryReset once its
            // timer has fired, the reset fails rather than let the source be cancelled after reporting success.
            if (IsCancellationRequested || (!_ticket.IsNone && !TimerEngine.Cancel(_ticket)))
            {
                return false;
            }

            _ticket = default;
            if (!base.TryReset())
            {
                return false;
            }

            // The base unregistered every callback, this source's own included: CancelAfter registers it again.
            _selfRegistration = default;
            return true;
        }
    }
#endif

    // The single-token overload exists on CancellationTokenSource only since .NET Core 3.0: on netstandard2.0 nothing is hidden.
#pragma warning disable CS0109
    /// <summary>Creates a source cancelled when <paramref name="token"/> is (as <c>CancellationTokenSource.CreateLinkedTokenSource(CancellationToken)</c>).</summary>
    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(CancellationToken token) => CreateLinked(new[] { token });
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

    void ITimerTarget.OnExpired(TimerTicket ticket)
    {
        lock (_gate)
        {
            if (_disposed || !ticket.Equals(_ticket))
            {
                return;
            }

            // _ticket stays set: its entry is released, so TryReset's cancel of it fails and TryReset reports the
            // source as firing until Cancel below has run.
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
            CancellationTokenRegistration[]? linked;
            lock (_gate)
            {
                _disposed = true;
                TimerEngine.Cancel(_ticket);
                _ticket = default;
                linked = _linkedRegistrations;
                _linkedRegistrations = null;
            }

            _selfRegistration.Dispose();
            if (linked is not null)
            {
                foreach (var registration in linked)
                {
                    registration.Dispose();
                }
            }
        }

        base.Dispose(disposing);
    }

    private static CoarseCancellationTokenSource CreateLinked(CancellationToken[] tokens) => Link(new CoarseCancellationTokenSource(), tokens);

    private static CoarseCancellationTokenSource Link(CoarseCancellationTokenSource source, CancellationToken[] tokens)
    {
        var registrations = new CancellationTokenRegistration[tokens.Length];
        source._linkedRegistrations = registrations;
        for (var i = 0; i < tokens.Length; i++)
        {
            if (tokens[i].CanBeCanceled)
            {
                // An already-cancelled token runs this inline: the new source starts cancelled, as with the BCL.
                registrations[i] = tokens[i].Register(static state => ((CoarseCancellationTokenSource)state!).CancelFromLink(), source);
            }
        }

        return source;
    }

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
        lock (_gate)
        {
            if (_disposed)
            {
                throw new ObjectDisposedException(null, "The CancellationTokenSource has been disposed.");
            }

            if (IsCancellationRequested)
            {
                return;
            }

            TimerEngine.Cancel(_ticket);
            _ticket = default;
            if (milliseconds == Timeout.Infinite)
            {
                return;
            }

            _ticket = _engine.Schedule(this, milliseconds);
            if (_selfRegistration.Equals(default(CancellationTokenRegistration)))
            {
                // Once per source: an early Cancel() takes the pending timeout off the wheel at once.
                _selfRegistration = Token.Register(static state => ((CoarseCancellationTokenSource)state!).OnCancelled(), this);
            }
        }
    }

    private void OnCancelled()
    {
        lock (_gate)
        {
            TimerEngine.Cancel(_ticket);
            _ticket = default;
        }
    }
}
