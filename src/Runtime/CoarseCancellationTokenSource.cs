using System;
using System.Threading;

// Stub: member docs arrive with the implementation.
#pragma warning disable CS1591

namespace CoarseTimers;

/// <summary>
/// CONTRACT STUB: a <see cref="CancellationTokenSource"/> whose timeout runs on the coarse timer. Replacement for
/// <c>new CancellationTokenSource(TimeSpan|int)</c>, <c>CancelAfter</c> and <c>CreateLinkedTokenSource</c> + <c>CancelAfter</c>.
/// <c>CancelAfter</c> hides the base method: the code fix makes the variable's static type this class.
/// </summary>
public class CoarseCancellationTokenSource : CancellationTokenSource
{
    public CoarseCancellationTokenSource() => throw new NotImplementedException();

    public CoarseCancellationTokenSource(TimeSpan delay) => throw new NotImplementedException();

    public CoarseCancellationTokenSource(int millisecondsDelay) => throw new NotImplementedException();

    public new void CancelAfter(TimeSpan delay) => throw new NotImplementedException();

    public new void CancelAfter(int millisecondsDelay) => throw new NotImplementedException();

    // The single-token overload exists on CancellationTokenSource only since .NET Core 3.0: on netstandard2.0 nothing is hidden.
#pragma warning disable CS0109
    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(CancellationToken token) => throw new NotImplementedException();
#pragma warning restore CS0109

    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(CancellationToken token1, CancellationToken token2) => throw new NotImplementedException();

    public static new CoarseCancellationTokenSource CreateLinkedTokenSource(params CancellationToken[] tokens) => throw new NotImplementedException();
}
