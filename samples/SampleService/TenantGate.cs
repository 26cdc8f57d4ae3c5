using System;
using System.Threading;
using System.Threading.Tasks;

namespace SampleService;

/// <summary>Admits one call of a tenant: it ends when the server stops, the caller leaves or the tenant's quota runs out, or after the call's time limit.</summary>
internal sealed class TenantGate
{
    private readonly TimeSpan _limit;

    public TenantGate(TimeSpan limit) => _limit = limit;

    /// <summary>Returns true when the work finished within the limit. Three tokens linked: C# 13 and later bind them to .NET 9's span overload.</summary>
    public async Task<bool> AdmitAsync(Task work, CancellationToken serverStopping, CancellationToken callerLeft, CancellationToken quotaSpent)
    {
        using var call = CancellationTokenSource.CreateLinkedTokenSource(serverStopping, callerLeft, quotaSpent);
        call.CancelAfter(_limit);
        var ended = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (call.Token.Register(() => ended.TrySetResult(false)))
        {
            return await Task.WhenAny(work, ended.Task).ConfigureAwait(false) == work;
        }
    }

    /// <summary>The same for a call that only the server or the caller can end, its tokens in a collection expression.</summary>
    public async Task<bool> AdmitPairAsync(Task work, CancellationToken serverStopping, CancellationToken callerLeft)
    {
        using var call = CancellationTokenSource.CreateLinkedTokenSource([serverStopping, callerLeft]);
        call.CancelAfter(_limit);
        var ended = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (call.Token.Register(() => ended.TrySetResult(false)))
        {
            return await Task.WhenAny(work, ended.Task).ConfigureAwait(false) == work;
        }
    }

    /// <summary>Races the work against the caller leaving and the limit: three tasks, which C# 13 binds to .NET 9's span overload.</summary>
    public async Task<bool> RaceAsync(Task work, Task callerLeft)
    {
        return await Task.WhenAny(work, callerLeft, Task.Delay(_limit)).ConfigureAwait(false) == work;
    }
}
