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
/// Disposing the source, or cancelling it early, removes its pending timeout from the wheel at once, so nothing keeps
/// the source alive until its timeout would have expired. <c>CancelAfter</c> hides the base method: call it through a
/// variable typed <see cref="CoarseCancellationTokenSource"/> (or <c>var</c>), which is what the code fix writes.
/// Called through a <see cref="CancellationTokenSource"/> reference it is the BCL's and uses a BCL timer.
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
        : this(TimerEngine.Default, TimeoutArguments.Check(delay, nameof(delay)))
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
    public new void CancelAfter(TimeSpan delay) => CancelAfterCore(TimeoutArguments.Check(delay, nameof(delay)));

    /// <summary>Schedules cancellation after <paramref name="millisecondsDelay"/>, replacing any earlier schedule (as <see cref="CancellationTokenSource.CancelAfter(int)"/>).</summary>
    public new void CancelAfter(int millisecondsDelay) => CancelAfterCore(TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

#if NET
    /// <summary>
    /// As <see cref="CancellationTokenSource.TryReset"/>: if the source was not cancelled, clears its pending timeout
    /// (the coarse one too) so it can be reused.
    /// </summary>
    public new bool TryReset()
    {
        lock (_gate)
        {
            if (_disposed || !base.TryReset())
            {
                return false;
            }

            TimerEngine.Cancel(_ticket);
            _ticket = default;
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

            _ticket = default;
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
