using System;
using System.Threading;
using CoarseTimers.Timing;

namespace CoarseTimers;

/// <summary>
/// Timeout tokens with nothing to dispose: <see cref="After(TimeSpan)"/> returns a token cancelled at or after now +
/// delay (never earlier, at most the resolution later), and <see cref="CreateLinkedTokenSource(CancellationToken, TimeSpan)"/>
/// replaces <c>CancellationTokenSource.CreateLinkedTokenSource(token)</c> followed by <c>CancelAfter(delay)</c>.
/// </summary>
/// <remarks>
/// API contract fixed for the code fixes; the implementation here is the straightforward one (a coarse source per call)
/// until the shared bucket sources replace it.
/// </remarks>
public static class CoarseTimeout
{
    /// <summary>A token cancelled at or after now + <paramref name="delay"/> (argument checks as <see cref="CancellationTokenSource(TimeSpan)"/>).</summary>
    public static CancellationToken After(TimeSpan delay) => AfterCore(TimeoutArguments.CheckDelay(delay, nameof(delay)));

    /// <summary>A token cancelled at or after now + <paramref name="millisecondsDelay"/> (argument checks as <see cref="CancellationTokenSource(int)"/>).</summary>
    public static CancellationToken After(int millisecondsDelay) => AfterCore(TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

    /// <summary>As <c>CancellationTokenSource.CreateLinkedTokenSource(token)</c> then <c>CancelAfter(delay)</c>.</summary>
    public static CancellationTokenSource CreateLinkedTokenSource(CancellationToken token, TimeSpan delay) =>
        LinkedCore(token, TimeoutArguments.CheckDelay(delay, nameof(delay)));

    /// <summary>As <c>CancellationTokenSource.CreateLinkedTokenSource(token)</c> then <c>CancelAfter(millisecondsDelay)</c>.</summary>
    public static CancellationTokenSource CreateLinkedTokenSource(CancellationToken token, int millisecondsDelay) =>
        LinkedCore(token, TimeoutArguments.Check(millisecondsDelay, nameof(millisecondsDelay)));

    private static CancellationToken AfterCore(long milliseconds) =>
        new CoarseCancellationTokenSource(TimerEngine.Default, milliseconds).Token;

    private static CancellationTokenSource LinkedCore(CancellationToken token, long milliseconds)
    {
        var source = CoarseCancellationTokenSource.CreateLinkedTokenSource(token);
        source.CancelAfterCore(milliseconds);
        return source;
    }
}
