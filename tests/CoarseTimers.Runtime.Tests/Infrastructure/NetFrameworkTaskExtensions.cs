#if COARSE_NETFRAMEWORK
using System;
using System.Threading;
using System.Threading.Tasks;

namespace CoarseTimers.Tests;

/// <summary>
/// <c>Task.WaitAsync(TimeSpan)</c> (.NET 6+) for the .NET Framework build of the tests, so the shared sources bound
/// every wait the same way on every runtime.
/// </summary>
internal static class NetFrameworkTaskExtensions
{
    public static async Task WaitAsync(this Task task, TimeSpan timeout)
    {
        using var timeoutSource = new CancellationTokenSource();
        var timeoutTask = Task.Delay(timeout, timeoutSource.Token);
        if (await Task.WhenAny(task, timeoutTask).ConfigureAwait(false) != task)
        {
            throw new TimeoutException($"The task did not complete within {timeout}.");
        }

        timeoutSource.Cancel();
        await task.ConfigureAwait(false);
    }

    public static async Task<T> WaitAsync<T>(this Task<T> task, TimeSpan timeout)
    {
        await ((Task)task).WaitAsync(timeout).ConfigureAwait(false);
        return await task.ConfigureAwait(false);
    }
}
#endif
