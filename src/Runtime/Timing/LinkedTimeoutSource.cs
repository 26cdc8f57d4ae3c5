using System;
using System.Threading;

namespace CoarseTimers.Timing;

/// <summary>
/// The source <see cref="CoarseTimeout.CreateLinkedTokenSource(CancellationToken, TimeSpan)"/> returns: the shape of the
/// BCL's two-token linked source (two registrations, no timer), linked to the caller's token and to a timeout bucket's
/// token (<see cref="TimeoutBucket"/>). The caller's token cancels it inline, as the BCL's linked source is cancelled.
/// The bucket does not: its cancellation queues this source's as a work item of its own, because a bucket's
/// registrations run one after another on the thread that cancels it, and cancelling each linked source inline there
/// would make one timed-out operation's slow callback (a blocking clean-up, an inline continuation) delay every other
/// linked source of the bucket, where each BCL source's timer fires as a work item of its own. The queueing happens
/// only when the timeout fires, which a timeout rarely does; creating and disposing the source costs what the BCL's
/// linked source costs.
/// </summary>
internal sealed class LinkedTimeoutSource : CancellationTokenSource
#if NET
    , IThreadPoolWorkItem
#endif
{
    private static readonly Action<object?> s_cancelNow = static state => ((LinkedTimeoutSource)state!).CancelUnlessDisposed();
    private static readonly Action<object?> s_cancelOnOwnWorkItem = static state => ((LinkedTimeoutSource)state!).QueueCancel();
#if !NET
    private static readonly WaitCallback s_queuedCancel = static state => ((LinkedTimeoutSource)state!).CancelUnlessDisposed();
#endif

    private readonly CancellationTokenRegistration _link;
    private readonly CancellationTokenRegistration _timeout;
    private bool _disposed;

    /// <param name="token">The caller's token (not registered when it cannot be cancelled).</param>
    /// <param name="timeout">The bucket's token, or <see cref="CancellationToken.None"/> for an infinite delay.</param>
    /// <param name="inlineTimeout">Cancel inline when the bucket fires (a test engine, whose callbacks all run inline).</param>
    public LinkedTimeoutSource(CancellationToken token, CancellationToken timeout, bool inlineTimeout)
    {
        if (token.CanBeCanceled)
        {
            // Runs at once if the token is already cancelled, so the source is returned cancelled, as the BCL's is.
            _link = ContextFreeRegistration.Register(token, s_cancelNow, this);
        }

        if (timeout.CanBeCanceled)
        {
            _timeout = ContextFreeRegistration.Register(timeout, inlineTimeout ? s_cancelNow : s_cancelOnOwnWorkItem, this);
        }
    }

#if NET
    void IThreadPoolWorkItem.Execute() => CancelUnlessDisposed();
#endif

    protected override void Dispose(bool disposing)
    {
        if (disposing && !_disposed)
        {
            Volatile.Write(ref _disposed, true);

            // As the BCL's linked source: unregister first, so neither token holds the source once it is disposed.
            _link.Dispose();
            _timeout.Dispose();
        }

        base.Dispose(disposing);
    }

    private void QueueCancel()
    {
#if NET
        // The source is the work item: nothing to allocate when the timeout fires.
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
#else
        ThreadPool.UnsafeQueueUserWorkItem(s_queuedCancel, this);
#endif
    }

    /// <summary>Cancels the source unless it was disposed (internal for the test of a cancellation queued before a dispose).</summary>
    internal void CancelUnlessDisposed()
    {
        if (Volatile.Read(ref _disposed))
        {
            return;
        }

        try
        {
            Cancel();
        }
        catch (ObjectDisposedException)
        {
            // Disposed between the check and Cancel (the queued cancellation ran after Dispose): a disposed source is
            // not cancelled by its timeout, as a disposed BCL source's stopped timer does not cancel it. Callback
            // exceptions arrive wrapped in an AggregateException, so this is only Cancel's own disposed check.
        }
    }
}
