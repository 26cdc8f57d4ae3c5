using System;

namespace CoarseTimers.Timing;

/// <summary>
/// What this runtime's own <see cref="System.Threading.Timer"/> does where runtimes differ, so that a
/// <see cref="CoarseTimer"/> behaves as the timer it replaces on the runtime it runs on.
/// </summary>
internal static class RuntimeTimer
{
    /// <summary>
    /// Whether the runtime's timer runs its callback in the creator's <see cref="System.Threading.ExecutionContext"/>:
    /// .NET and .NET Framework capture it; Mono's timer (Mono 6.8, the runtime of Unity and Xamarin) queues its
    /// callbacks with <c>UnsafeQueueUserWorkItem</c> and flows nothing, so an <c>AsyncLocal</c> set by the creator reads
    /// null in the callback. Capturing there would change what a rewritten callback sees and, since Mono's public
    /// <c>ExecutionContext.Capture</c> allocates a copy per call, cost more bytes per timer than Mono's whole timer.
    /// </summary>
    public static readonly bool FlowsExecutionContext = Type.GetType("Mono.Runtime") is null;
}
