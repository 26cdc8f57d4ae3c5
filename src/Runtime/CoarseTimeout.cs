using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// Timeout tokens with nothing to allocate or dispose. <see cref="After(TimeSpan)"/> returns a token cancelled at or
/// after now + delay (never earlier, at most the engine's resolution later); <see cref="CreateLinkedTokenSource(CancellationToken, TimeSpan)"/>
/// replaces <c>CancellationTokenSource.CreateLinkedTokenSource(token)</c> followed by <c>CancelAfter(delay)</c>.
/// </summary>
/// <remarks>
/// <para>
/// <b>How</b>: the token belongs to a source shared by every caller on the same shard (each thread uses its own) that
/// asked for the same timeout while the driver's token epoch was the same (a <em>bucket</em>; the driver moves to the
/// next epoch every half resolution while buckets are being created). The driver starts the bucket's timeout when it
/// leaves that epoch, counted from a clock reading taken after every caller of it, and cancels the source when it is
/// due. A call reads no clock: it reads the epoch and takes the bucket its thread used last, or looks it up in its shard's
/// cache; only the first caller
/// of a bucket allocates it (once per epoch, shard and timeout). docs/runtime.md, "Data structure", has the proof
/// that it is never early and at most one resolution late.
/// </para>
/// <para>
/// <b>What differs from a private <c>new CancellationTokenSource(delay)</c></b> (docs/runtime.md, "Shared timeout
/// tokens", states the same for the code fix to cite):
/// </para>
/// <list type="bullet">
/// <item>Nobody can cancel the token early, and there is no source to dispose: use it where the caller only ever
/// waits for the timeout, never cancels or re-arms it.</item>
/// <item>The token is shared: <c>OperationCanceledException.CancellationToken</c> carries the bucket's token, which
/// equals the token <see cref="After(TimeSpan)"/> returned (so <c>ex.CancellationToken == token</c> still identifies the
/// timeout), and equally the token of every other caller in the bucket.</item>
/// <item>Its <c>WaitHandle</c> is valid and shared; never dispose or reset it. The source is never disposed.</item>
/// <item>A registration on the token that is never disposed stays in the bucket until the bucket is cancelled (at most
/// the delay plus the resolution), then its callback runs, as on a private source whose timer fires; dispose
/// registrations as usual. Registrations on one bucket reuse the source's callback nodes on .NET Core (field report 4, docs/field-reports.md), and
/// buckets are per shard, so registrations from different threads do not meet on one lock.</item>
/// <item>Callbacks of every caller in a bucket run one after another on the thread that cancels it (a thread-pool
/// thread), as a private source's callbacks run on its timer's thread; but where each private source's timer fires as
/// a work item of its own, a slow synchronous callback here (a blocking clean-up in <c>Register</c>, a continuation run
/// inline) delays the other callers of the bucket by its duration. Keep callbacks on these tokens short. The sources of
/// <see cref="CreateLinkedTokenSource(CancellationToken, TimeSpan)"/> are not coupled so: each is cancelled on a work
/// item of its own.</item>
/// <item>A delay of 0 returns an already-cancelled token, as <c>new CancellationTokenSource(0).Token</c> does on .NET (on
/// .NET Framework and Mono, whose source starts a 0 ms timer, the token of the shortest bucket); a non-zero
/// delay under a millisecond counts as 1 ms (the BCL queues a timer for it rather than cancel at once), and so does 0
/// in <see cref="CreateLinkedTokenSource(CancellationToken, TimeSpan)"/>, as <c>CancelAfter(0)</c> queues one. An infinite
/// delay (-1 ms, <see cref="Timeout.InfiniteTimeSpan"/>) returns the token of a source of its own that is never
/// cancelled, as <c>new CancellationTokenSource(-1).Token</c> is: <c>CanBeCanceled</c> true, not equal to
/// <see cref="CancellationToken.None"/> nor to another caller's (it allocates that source; no timer either way).</item>
/// </list>
/// </remarks>
public static class CoarseTimeout
{
    /// <summary>A token cancelled at or after now + <paramref name="delay"/> (argument checks as <see cref="CancellationTokenSource(TimeSpan)"/>).</summary>
    public static CancellationToken After(TimeSpan delay) => After(TimerEngine.Default, TimeoutArguments.CheckTimeout(delay, nameof(delay)));

    /// <summary>A token cancelled at or after now + <paramref name="millisecondsDelay"/> (argument checks as <see cref="CancellationTokenSource(int)"/>).</summary>
    public static CancellationToken After(int millisecondsDelay) => After(TimerEngine.Default, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

    /// <summary>
    /// As <c>CancellationTokenSource.CreateLinkedTokenSource(token)</c> then <c>CancelAfter(delay)</c>, with the timeout
    /// taken from a shared bucket (a registration on <see cref="After(TimeSpan)"/>'s token, not a timer entry). Dispose
    /// it as usual. Calling <c>CancelAfter</c> or <c>TryReset</c> on the returned source later is outside this contract:
    /// they would arm or reset a BCL timer beside the bucket's registration, which stays. When the timeout fires, the
    /// source is cancelled on a work item of its own, as a BCL source's timer fires: its callbacks do not hold up the
    /// bucket's other sources (unlike registrations on the bucket's token itself, see the type's remarks).
    /// </summary>
    public static CancellationTokenSource CreateLinkedTokenSource(CancellationToken token, TimeSpan delay) =>
        CreateLinked(TimerEngine.Default, token, TimeoutArguments.CheckTimeout(delay, nameof(delay)));

    /// <summary>As <see cref="CreateLinkedTokenSource(CancellationToken, TimeSpan)"/>, with the delay in milliseconds (checks as <c>CancelAfter(int)</c>).</summary>
    public static CancellationTokenSource CreateLinkedTokenSource(CancellationToken token, int millisecondsDelay) =>
        CreateLinked(TimerEngine.Default, token, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

    /// <summary>The token for a validated delay on <paramref name="engine"/> (tests pass a manual engine).</summary>
    internal static CancellationToken After(TimerEngine engine, long milliseconds) => milliseconds switch
    {
        // As `new CancellationTokenSource(0).Token` on the runtime it runs on (ZeroTimeout): cancelled at once on .NET
        // (Core), from the shortest bucket where the runtime starts a 0 ms timer.
        0 => ZeroTimeout.CancelsAtOnce ? new CancellationToken(canceled: true) : engine.TimeoutToken(ZeroTimeout.ShortestMilliseconds),
        // As `new CancellationTokenSource(Timeout.Infinite).Token`: a token of its own that is never cancelled, so code
        // that tests it (`CanBeCanceled`, `== CancellationToken.None`) sees what it saw, whatever a configured timeout
        // turns out to be; registrations on it go with it. No timer either way, and infinite timeouts are rare.
        Timeout.Infinite => new CancellationTokenSource().Token,
        _ => engine.TimeoutToken(milliseconds),
    };

    /// <summary>The linked source for a validated delay on <paramref name="engine"/>.</summary>
    internal static CancellationTokenSource CreateLinked(TimerEngine engine, CancellationToken token, long milliseconds) =>
        // Two registrations (nodes reused on .NET Core), no timer, as the BCL's two-token linked source; with an infinite
        // delay only the caller's token is registered. A delay of 0 is the shortest bucket, not an already-cancelled
        // token: CancelAfter(0) queues the BCL's timer, which cancels the source a moment later on the timer's thread,
        // never inline in the call that links it.
        new LinkedTimeoutSource(
            token,
            milliseconds == Timeout.Infinite ? CancellationToken.None : After(engine, milliseconds == 0 ? ZeroTimeout.ShortestMilliseconds : milliseconds),
            engine.RunsCallbacksInline);
}
