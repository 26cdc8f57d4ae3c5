using System;
using System.Threading;
using System.Threading.Tasks;

namespace SampleService;

/// <summary>Handles one request with a per-request timeout, the pattern every RPC server has.</summary>
internal sealed class RequestHandler
{
    private readonly TimeSpan _timeout;

    public RequestHandler(TimeSpan timeout) => _timeout = timeout;

    /// <summary>Returns true when the work finished before the request's timeout.</summary>
    public async Task<bool> HandleAsync(Task work, CancellationToken serverStopping)
    {
        // A timeout source per request: created once per call, so hot wherever it is.
        using var timeout = new CancellationTokenSource(_timeout);
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(serverStopping, timeout.Token);
        var winner = await Task.WhenAny(work, Task.Delay(Timeout.Infinite, linked.Token)).ConfigureAwait(false);
        return winner == work;
    }

    /// <summary>Same as <see cref="HandleAsync"/>, written with CancelAfter as many servers do.</summary>
    public async Task<bool> HandleWithDeadlineAsync(Task work, CancellationToken serverStopping)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(serverStopping);
        deadline.CancelAfter(_timeout);
        var completion = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (deadline.Token.Register(() => completion.TrySetResult(false)))
        {
            var winner = await Task.WhenAny(work, completion.Task).ConfigureAwait(false);
            return winner == work;
        }
    }
}
